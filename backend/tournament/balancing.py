"""Table balancing: break tables as the field shrinks, and keep the tables within one
player of each other by the standard rule, the player due the big blind next moves.

Only a table between hands gives players up (the others are mid-hand); a player moved
takes a random empty seat at the table with the fewest players.

Buttons move (see docs/tournaments.md): the next hand's button is the next occupied seat
clockwise, and the big blind the second after it (heads-up, the one after it).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from pydantic import BaseModel, Field


class TableSeats(BaseModel):
    table_id: str
    size: int  # seats at the table
    seats: dict[int, str] = Field(default_factory=dict)  # seat number -> player
    button: int | None = None

    def clockwise(self, start: int) -> list[int]:
        """Occupied seats clockwise, beginning after `start`."""
        order = [(start - 1 + step) % self.size + 1 for step in range(1, self.size + 1)]
        return [n for n in order if n in self.seats]

    def due_big_blind(self) -> list[str]:
        """Players in the order the big blind reaches them, from the next hand on."""
        occupied = sorted(self.seats)
        if not occupied:
            return []
        start = self.button if self.button is not None else occupied[-1]
        order = self.clockwise(start)  # order[0] is the next button
        bb_first = order[1:] + order[:1] if len(order) == 2 else order[2:] + order[:2]
        return [self.seats[n] for n in bb_first]

    def empty(self) -> list[int]:
        return [n for n in range(1, self.size + 1) if n not in self.seats]


@dataclass(frozen=True, slots=True)
class Move:
    player_id: str
    from_table: str
    to_table: str
    to_seat: int


def tables_needed(players: int, size: int) -> int:
    return max(1, math.ceil(players / size))


def plan(tables: dict[str, TableSeats], free: str, rng: random.Random) -> list[Move]:
    """The moves out of table `free` (between hands) that break or balance it.

    The table with the fewest players is broken first (ties: the last one); `tables` is
    changed to what the moves leave."""
    live = {tid: t for tid, t in tables.items() if t.seats}
    if free not in live or len(live) < 2:
        return []
    players = sum(len(t.seats) for t in live.values())
    size = max(t.size for t in live.values())
    source = live[free]
    moves: list[Move] = []
    if tables_needed(players, size) < len(live):
        breaking = min(reversed(list(live)), key=lambda tid: len(live[tid].seats))
        if breaking != free:
            return []
        for player_id in source.due_big_blind():
            moves.append(_move(live, source, player_id, rng))
        return moves
    for player_id in source.due_big_blind():
        smallest = min(len(t.seats) for tid, t in live.items() if tid != free)
        if len(source.seats) - smallest < 2:
            break
        moves.append(_move(live, source, player_id, rng))
    return moves


def _move(
    live: dict[str, TableSeats], source: TableSeats, player_id: str, rng: random.Random
) -> Move:
    others = [t for tid, t in live.items() if tid != source.table_id and t.empty()]
    target = min(others, key=lambda t: len(t.seats))
    seat = rng.choice(target.empty())
    number = next(n for n, p in source.seats.items() if p == player_id)
    del source.seats[number]
    target.seats[seat] = player_id
    return Move(player_id, source.table_id, target.table_id, seat)
