"""Hand histories: the complete record of a finished hand (server-side: hole cards included).

`holdem.table.Table` writes one per hand; `holdem.phh` turns them into PHH and back.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict

from holdem.actions import HandEvent
from holdem.config import TableConfig


class SeatRecord(BaseModel):
    model_config = ConfigDict(frozen=True)

    seat: int
    player_id: str
    name: str
    is_bot: bool = False
    starting_stack: int
    final_stack: int
    hole_cards: tuple[str, ...]


class HandRecord(BaseModel):
    """Everything about a finished hand, hole cards included: server-side only."""

    model_config = ConfigDict(frozen=True)

    table_id: str
    hand_no: int
    config: TableConfig
    button: int
    seats: list[SeatRecord]  # pokerkit order: first left of the button ... the button
    events: list[HandEvent]
    board: tuple[str, ...]
    # Home-game rules: every run's board (run it twice or three times; empty: run once),
    # a bomb pot (no blinds, the ante from every seat, no preflop betting), and the
    # cards a rabbit hunt showed after the hand (never part of its board or result).
    boards: list[tuple[str, ...]] = []
    bomb_pot: bool = False
    rabbit: tuple[str, ...] = ()
    played_at: datetime | None = None
    # The tournament the hand was played in (its chips are not money); None: a cash game.
    tournament_id: str | None = None

    def seat(self, number: int) -> SeatRecord:
        return next(s for s in self.seats if s.seat == number)

    @property
    def net(self) -> dict[int, int]:
        return {s.seat: s.final_stack - s.starting_stack for s in self.seats}
