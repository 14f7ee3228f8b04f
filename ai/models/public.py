"""What was public at the table: the only form in which hands reach the opponent models.

A stored hand (`HandRecord`, in MongoDB or a recorded arena file) holds every
hole card, folded and mucked ones included. `PublicHand` keeps the actions,
the board and the cards that a showdown revealed (the hand's SHOW events), and
nothing else: the builders below never read a record's `hole_cards`. Every
model, statistic and training example is made from a PublicHand, so no model,
bot or advice can learn from a card no player saw (fair play, DOMAIN.md §3).

>>> from holdem.config import TableConfig, Variant
>>> from holdem.actions import EventKind, HandEvent, Street
>>> cfg = TableConfig(variant=Variant.LIMIT, seats=2, small_blind=1, big_blind=2)
>>> events = [HandEvent(kind=EventKind.FOLD, street=Street.PREFLOP, seat=1)]
>>> hand = from_events("t-1", cfg, button=1, seats=(2, 1), players=("b", "a"),
...                    types=("human", "human"), stacks=(100, 100), events=events)
>>> hand.actions, hand.shown
((PublicAction(seat=1, kind=0, to=0),), {})
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ai.sim.from_view import SIM_ACTIONS
from ai.sim.rules import Rules
from holdem.actions import EventKind, HandEvent
from holdem.cards import card_index
from holdem.config import TableConfig
from holdem.phh import PhhHand, replay_phh


class PublicAction(NamedTuple):
    seat: int
    kind: int  # ai.sim.rules FOLD..RAISE
    to: int  # street total of a bet/raise (0 otherwise)


@dataclass(frozen=True)
class PublicHand:
    key: str  # unique per hand: "table-hand_no"
    config: TableConfig
    button: int
    seats: tuple[int, ...]  # pokerkit order: first left of the button ... the button
    players: tuple[str, ...]  # player id per index
    types: tuple[str, ...]  # "human" or "bot:<style>" per index (reports per player type)
    starting_stacks: tuple[int, ...]
    actions: tuple[PublicAction, ...]
    board: tuple[int, ...]  # the board cards dealt, in order
    shown: Mapping[int, tuple[int, int]] = field(default_factory=dict)  # index -> shown cards
    rules: Rules | None = None  # the hand's own (a straddle, a bomb pot); None: the table's


def player_type(is_bot: bool, name: str) -> str:
    """'bot:<style>' for a house bot named after its style ('loki#2' -> 'bot:loki')."""
    if not is_bot:
        return "human"
    return "bot:" + name.split("#")[0].split(" ")[0].lower()


def from_events(
    key: str,
    config: TableConfig,
    button: int,
    seats: Sequence[int],
    players: Sequence[str],
    types: Sequence[str],
    stacks: Sequence[int],
    events: Iterable[HandEvent],
) -> PublicHand:
    """A PublicHand from a hand's public event list (seats in pokerkit order)."""
    index = {seat: i for i, seat in enumerate(seats)}
    actions: list[PublicAction] = []
    board: list[int] = []
    shown: dict[int, tuple[int, int]] = {}
    events = list(events)
    for event in events:
        kind = SIM_ACTIONS.get(event.kind)
        if kind is not None and event.seat is not None:
            to = event.amount or 0 if kind >= 3 else 0
            actions.append(PublicAction(event.seat, kind, to))
        elif event.kind is EventKind.BOARD and not event.run:  # run it twice: the first run
            board.extend(card_index(c) for c in event.cards)
        elif event.kind is EventKind.SHOW and event.seat is not None and len(event.cards) == 2:
            first, second = (card_index(c) for c in event.cards)
            shown[index[event.seat]] = (first, second)
    return PublicHand(
        key=key,
        config=config,
        button=button,
        seats=tuple(seats),
        players=tuple(players),
        types=tuple(types),
        starting_stacks=tuple(stacks),
        actions=tuple(actions),
        board=tuple(board),
        shown=shown,
        rules=Rules.of_hand(config, events),
    )


def from_record_doc(doc: Mapping[str, Any]) -> PublicHand:
    """From a stored HandRecord document (the `record` of a `hands` document).

    Reads the seats' ids, names and stacks and the events; never `hole_cards`.
    """
    seats = doc["seats"]
    return from_events(
        f"{doc['table_id']}-{doc['hand_no']}",
        TableConfig.model_validate(doc["config"]),
        int(doc["button"]),
        [int(s["seat"]) for s in seats],
        [str(s["player_id"]) for s in seats],
        [player_type(bool(s.get("is_bot", False)), str(s.get("name", ""))) for s in seats],
        [int(s["starting_stack"]) for s in seats],
        (HandEvent.model_validate(e) for e in doc["events"]),
    )


def from_phh(phh: PhhHand, key: str, bots: bool = False) -> PublicHand:
    """From a parsed PHH hand, replayed through the rules core (its shows are the public ones).

    PHH files list every dealt hole card; the replay decides which a showdown reveals
    and only those are kept.
    """
    hand = replay_phh(phh)
    names = phh.players
    return from_events(
        key,
        phh.config,
        phh.seats[-1],
        phh.seats,
        names,
        [player_type(bots, name) for name in names],
        phh.starting_stacks,
        hand.events,
    )
