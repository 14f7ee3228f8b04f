"""Helpers shared by the rules-core tests: configs, scripted decks, random play, leak checks.

Imported by name from tests/holdem (pytest puts this folder on sys.path); the name
is unique so it cannot clash with helpers of other test folders.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping
from typing import Any

from hypothesis import HealthCheck, settings

from holdem.actions import Action, ActionKind, EventKind, LegalActions
from holdem.cards import FULL_DECK, ScriptedDeck, parse_cards
from holdem.config import TableConfig, Variant
from holdem.hand import Hand
from holdem.table import Table
from holdem.views import TableView, observe

# Every property test derives its settings from this: reproducible runs, no deadline
# (pokerkit's first call is slow), sized per test with max_examples.
HOLDEM_SETTINGS = settings(
    derandomize=True,
    deadline=None,
    max_examples=100,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)


def nl(seats: int = 6, sb: int = 1, bb: int = 2, **extra: Any) -> TableConfig:
    return TableConfig(variant=Variant.NO_LIMIT, seats=seats, small_blind=sb, big_blind=bb, **extra)


def fl(seats: int = 6, sb: int = 1, bb: int = 2, **extra: Any) -> TableConfig:
    return TableConfig(variant=Variant.LIMIT, seats=seats, small_blind=sb, big_blind=bb, **extra)


def deck(
    order: Iterable[int],
    holes: Mapping[int, str],
    board: str = "",
    burns: str | None = None,
) -> ScriptedDeck:
    """The deck our Hand deals from, written the way a dealer would read it.

    `order` is the seats from the first one left of the button to the button (the
    dealing order, written out by the test, not computed by the code under test);
    `holes` maps a seat to its two cards, `board` is up to five cards. One card is
    dealt to each seat in turn, twice; each street burns one card (the lowest unused
    card, or the next of `burns`) before its board cards.
    """
    seats = list(order)
    hole = {seat: parse_cards(holes[seat]) for seat in seats}
    board_cards = parse_cards(board)
    used = {c for cards in hole.values() for c in cards} | set(board_cards)
    burn_cards = list(parse_cards(burns)) if burns is not None else []
    used |= set(burn_cards)
    spare = iter(c for c in FULL_DECK if c not in used)
    cards = [hole[s][0] for s in seats] + [hole[s][1] for s in seats]
    for street in (board_cards[:3], board_cards[3:4], board_cards[4:5]):
        if street:
            cards += [burn_cards.pop(0) if burn_cards else next(spare), *street]
    assert len(set(cards)) == len(cards), "a card is scripted twice"
    return ScriptedDeck(cards)


def play(hand: Hand | Table, *steps: tuple[int, Action]) -> None:
    """Apply (seat, action) steps in order; each must be that seat's turn."""
    for seat, action in steps:
        current = hand.hand if isinstance(hand, Table) else hand
        actor = current.actor if current is not None else None
        assert actor == seat, f"expected seat {seat} to act, the actor is {actor}"
        hand.act(seat, action)


def check_down(hand: Hand | Table) -> None:
    """Everyone checks (or calls) until the hand is over."""
    h = hand.hand if isinstance(hand, Table) else hand
    assert h is not None
    while not h.is_over:
        legal = h.legal_actions()
        assert legal is not None
        hand.act(legal.seat, Action.check() if legal.can_check else Action.call())


def random_action(legal: LegalActions, rng: random.Random, edge: float = 0.3) -> Action:
    """A uniformly chosen legal kind; bet/raise sizes favour the min and max edges."""
    kind = rng.choice(legal.kinds)
    if kind in (ActionKind.BET, ActionKind.RAISE):
        assert legal.min_to is not None
        assert legal.max_to is not None
        roll = rng.random()
        if roll < edge:
            amount = legal.min_to
        elif roll < 2 * edge:
            amount = legal.max_to
        else:
            amount = rng.randint(legal.min_to, legal.max_to)
        return Action(kind=kind, amount=amount)
    return Action(kind=kind)


def offered_actions(legal: LegalActions) -> list[Action]:
    """Every action the legal set names, with both amount edges for a bet or raise."""
    actions: list[Action] = []
    if legal.can_fold:
        actions.append(Action.fold())
    if legal.can_check:
        actions.append(Action.check())
    if legal.can_call:
        actions.append(Action.call())
        actions.append(Action(kind=ActionKind.CALL, amount=legal.call_amount))
    if legal.raise_kind is not None:
        assert legal.min_to is not None
        assert legal.max_to is not None
        for amount in {legal.min_to, legal.max_to, (legal.min_to + legal.max_to) // 2}:
            actions.append(Action(kind=legal.raise_kind, amount=amount))
    return actions


def unoffered_actions(legal: LegalActions) -> list[Action]:
    """Actions the legal set rules out (each must be refused)."""
    actions: list[Action] = []
    if not legal.can_fold:
        actions.append(Action.fold())
    if not legal.can_check:
        actions.append(Action.check())
    if not legal.can_call:
        actions.append(Action.call())
    else:
        actions.append(Action(kind=ActionKind.CALL, amount=legal.call_amount + 1))
    for kind in (ActionKind.BET, ActionKind.RAISE):
        if kind is not legal.raise_kind:
            actions.append(Action(kind=kind, amount=max(legal.min_to or 0, 1)))
    if legal.raise_kind is not None:
        assert legal.min_to is not None
        assert legal.max_to is not None
        actions.append(Action(kind=legal.raise_kind, amount=legal.max_to + 1))
        if legal.min_to > 1:
            actions.append(Action(kind=legal.raise_kind, amount=legal.min_to - 1))
    return actions


def hidden_cards(hand: Hand, viewer: int | None) -> set[str]:
    """Hole cards `viewer` must not see: every other seat's, unless shown."""
    return {
        card
        for seat, cards in hand.hole_cards.items()
        if seat != viewer and seat not in hand.shown
        for card in cards
    }


def leaked_cards(view: TableView, hand: Hand) -> set[str]:
    """Hidden cards that appear anywhere in the serialised view (the wire format)."""
    text = view.model_dump_json()
    data = json.loads(text)
    strings: set[str] = set()

    def walk(node: Any) -> None:
        if isinstance(node, str):
            strings.add(node)
        elif isinstance(node, list):
            for item in node:
                walk(item)
        elif isinstance(node, dict):
            for item in node.values():
                walk(item)

    walk(data)
    return hidden_cards(hand, view.viewer_seat) & strings


def assert_no_leaks(table: Table) -> None:
    """No seat's view and not the spectator's holds a hidden hole card."""
    hand = table.hand
    if hand is None:
        return
    for viewer in [*table.seats, None]:
        view = observe(table, viewer)
        leaks = leaked_cards(view, hand)
        assert not leaks, f"seat {viewer} sees hidden cards {leaks}"


def fingerprint(table: Table) -> str:
    """Everything observable about a table: every seat's view, the spectator's, the seats."""
    views = [observe(table, seat).model_dump_json() for seat in [*sorted(table.seats), None]]
    seats = [repr(table.seats[n]) for n in sorted(table.seats)]
    hand = table.hand
    extra = (
        repr((hand.stacks, hand.bets, hand.pots, hand.board, hand.events, hand.legal_actions()))
        if hand is not None
        else ""
    )
    return "\n".join([*views, *seats, extra, repr(table.cashouts)])


def event_ledger(hand: Hand) -> dict[int, int]:
    """Final stacks rebuilt from the public events alone (the hand record's ledger).

    Also checks every all_in flag against the stack that event leaves.
    """
    stacks = dict(hand.starting_stacks)
    street_in = dict.fromkeys(stacks, 0)
    street = None
    for event in hand.events:
        if event.street is not street:  # bet and raise amounts are street totals
            street_in = dict.fromkeys(stacks, 0)
            street = event.street
        seat = event.seat
        if event.kind is EventKind.ANTE:
            assert seat is not None and event.amount is not None
            stacks[seat] -= event.amount
        elif event.kind in (EventKind.SMALL_BLIND, EventKind.BIG_BLIND, EventKind.CALL):
            assert seat is not None and event.amount is not None
            stacks[seat] -= event.amount
            street_in[seat] += event.amount
        elif event.kind in (EventKind.BET, EventKind.RAISE):
            assert seat is not None and event.amount is not None
            stacks[seat] -= event.amount - street_in[seat]
            street_in[seat] = event.amount
        elif event.kind in (EventKind.RETURN, EventKind.WIN):
            assert seat is not None and event.amount is not None
            stacks[seat] += event.amount
        if event.kind in (
            EventKind.ANTE,
            EventKind.SMALL_BLIND,
            EventKind.BIG_BLIND,
            EventKind.CALL,
            EventKind.BET,
            EventKind.RAISE,
        ):
            assert seat is not None
            assert event.all_in == (stacks[seat] == 0), f"all_in flag wrong on {event}"
        assert all(v >= 0 for v in stacks.values()), f"negative stack after {event}"
    return stacks


def seated_table(
    config: TableConfig,
    stacks: Mapping[int, int],
    button: int | None = None,
    seed: int = 0,
) -> Table:
    """A table with player "p<n>" named "Player <n>" on each seat of `stacks`.

    With `button`, the next hand's button is put on that seat (it must be seated):
    the button moves clockwise from where it was, so it is set one seat before.
    """
    table = Table("t", config, seed=seed)
    for number, stack in stacks.items():
        table.sit(number, f"p{number}", f"Player {number}", stack)
    if button is not None:
        table.button = button - 1 if button > 1 else config.seats
    return table
