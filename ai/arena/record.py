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
) -> HandRecord:
    """The hand the simulator played (index order: first left of the button ... the button),
    replayed through holdem.Hand (pokerkit) so that its record is exactly the server's;
    `straddle`/`bomb_pot` as the hand was dealt."""
    n = len(seats)
    hole_cards = [(FULL_DECK[a], FULL_DECK[b]) for a, b in holes]
    board = [FULL_DECK[c] for c in runout]
    used = {c for pair in hole_cards for c in pair} | set(board)
    burns = iter(c for c in FULL_DECK if c not in used)
    order = [h[0] for h in hole_cards] + [h[1] for h in hole_cards]
    for street_cards in (board[:3], board[3:4], board[4:5]):
        order += [next(burns), *street_cards]
    hand = Hand(
        config,
        dict(zip(seats, stacks, strict=True)),
        seats[-1],
        ScriptedDeck(order),
        straddle=straddle,
        bomb_pot=bomb_pot,
    )
    for record in history:
        kind = KIND_TO_ACTION_KIND[record.kind]
        amount = record.to if record.kind >= 3 else None
        hand.act(seats[record.player], Action(kind=kind, amount=amount))
    result = hand.result
    assert result is not None, "the simulator and the rules core disagree on the hand's end"
    seat_records = [
        SeatRecord(
            seat=seats[i],
            player_id=players[i],
            name=players[i],
            is_bot=True,
            starting_stack=stacks[i],
            final_stack=result.final_stacks[seats[i]],
            hole_cards=hole_cards[i],
        )
        for i in range(n)
    ]
    return HandRecord(
        table_id=table_id,
        hand_no=hand_no,
        config=config,
        button=seats[-1],
        seats=seat_records,
        events=list(hand.events),
        board=tuple(hand.board),
        bomb_pot=bomb_pot,
    )


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
