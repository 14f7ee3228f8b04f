"""Recording arena hands as the server files them: HandRecords, replayed through the rules core.

`showdown arena --record FILE` writes one stored-hand document per line (the
`record` of a `hands` document in MongoDB), so `showdown train --records FILE`
learns from bot matches exactly as it learns from the room's hands, through
the same fairness gate (`ai.models.public`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from ai.game.observation import ActionRecord
from ai.sim.rules import KIND_TO_ACTION_KIND
from holdem.actions import Action
from holdem.cards import FULL_DECK, ScriptedDeck
from holdem.config import TableConfig
from holdem.hand import Hand
from holdem.history import HandRecord, SeatRecord

Document = dict[str, Any]


def replay(
    config: TableConfig,
    seats: Sequence[int],
    stacks: Sequence[int],
    holes: Sequence[tuple[int, int]],
    runout: Sequence[int],
    history: Sequence[ActionRecord],
    *,
    straddle: bool = False,
    bomb_pot: bool = False,
    extra: Sequence[int] = (),
) -> Hand:
    """The hand the simulator played (index order: first left of the button ... the button),
    played again by holdem.Hand (pokerkit); `straddle`/`bomb_pot` as the hand was dealt.
    At a run-it-twice table (`config.run_it_max`) the players all-in before the river
    agree to the most runs (the bots' rule, docs/rules.md), the later runs dealt from
    `extra` (cards no hand holds, burns included), as a table deals from its deck."""
    hole_cards = [(FULL_DECK[a], FULL_DECK[b]) for a, b in holes]
    board = [FULL_DECK[c] for c in runout]
    later = [FULL_DECK[c] for c in extra]
    used = {c for pair in hole_cards for c in pair} | set(board) | set(later)
    burns = iter(c for c in FULL_DECK if c not in used)
    order = [h[0] for h in hole_cards] + [h[1] for h in hole_cards]
    for street_cards in (board[:3], board[3:4], board[4:5]):
        order += [next(burns), *street_cards]
    hand = Hand(
        config,
        dict(zip(seats, stacks, strict=True)),
        seats[-1],
        ScriptedDeck(order + later),
        straddle=straddle,
        bomb_pot=bomb_pot,
    )
    for record in history:
        _agree_to_runs(hand)
        kind = KIND_TO_ACTION_KIND[record.kind]
        amount = record.to if record.kind >= 3 else None
        hand.act(seats[record.player], Action(kind=kind, amount=amount))
    _agree_to_runs(hand)
    return hand


def _agree_to_runs(hand: Hand) -> None:
    for seat in hand.runout_voters:
        hand.vote_runouts(seat, hand.config.run_it_max)


def hand_record(
    hand: Hand,
    table_id: str,
    hand_no: int,
    players: Sequence[str],
    holes: Sequence[tuple[int, int]],
) -> HandRecord:
    """A replayed hand's record, exactly as the server files it."""
    result = hand.result
    assert result is not None, "the simulator and the rules core disagree on the hand's end"
    seats = hand.seats
    seat_records = [
        SeatRecord(
            seat=seat,
            player_id=players[i],
            name=players[i],
            is_bot=True,
            starting_stack=hand.starting_stacks[seat],
            final_stack=result.final_stacks[seat],
            hole_cards=(FULL_DECK[holes[i][0]], FULL_DECK[holes[i][1]]),
        )
        for i, seat in enumerate(seats)
    ]
    return HandRecord(
        table_id=table_id,
        hand_no=hand_no,
        config=hand.config,
        button=hand.button,
        seats=seat_records,
        events=list(hand.events),
        board=tuple(hand.board),
        boards=list(result.boards),
        bomb_pot=hand.bomb_pot,
    )


def arena_record(
    config: TableConfig,
    table_id: str,
    hand_no: int,
    seats: Sequence[int],
    players: Sequence[str],
    stacks: Sequence[int],
    holes: Sequence[tuple[int, int]],
    runout: Sequence[int],
    history: Sequence[ActionRecord],
    *,
    straddle: bool = False,
    bomb_pot: bool = False,
    extra: Sequence[int] = (),
) -> HandRecord:
    """The hand the simulator played, replayed through the rules core (`replay`), as a
    HandRecord exactly as the server's."""
    hand = replay(
        config, seats, stacks, holes, runout, history,
        straddle=straddle, bomb_pot=bomb_pot, extra=extra,
    )  # fmt: skip
    return hand_record(hand, table_id, hand_no, players, holes)


def write_records(path: Path, docs: Iterable[Document]) -> int:
    count = 0
    with path.open("w", encoding="utf-8") as out:
        for doc in docs:
            out.write(json.dumps(doc, separators=(",", ":")) + "\n")
            count += 1
    return count


def read_records(path: Path) -> Iterator[Document]:
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if line.strip():
                try:
                    yield json.loads(line)
                except json.JSONDecodeError as error:
                    raise ValueError(f"{path}:{number}: not a JSON hand record") from error
