"""A player's seat commands as functions of the table: each changes the table (or raises
a RuleError and changes nothing) and returns what happened and the chips booked.

No socket, no clock, no database: the runtime sends, schedules and stores the outcome.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from holdem.table import Seat, Table
from protocol.messages import ActedBy, Change, ChangeKind


@dataclass(frozen=True, slots=True)
class LedgerLine:
    """Chips into or out of a seat, for the table session's ledger."""

    player_id: str
    kind: str  # "buy_in", "rebuy", "cashout", "adjust"
    amount: int
    seat: int


@dataclass(frozen=True, slots=True)
class Outcome:
    change: Change
    seats_changed: bool  # the seats or stacks changed: a snapshot is stored
    ledger: list[LedgerLine] = field(default_factory=list)


def sit(table: Table, player_id: str, name: str, seat: int, buy_in: int) -> Outcome:
    table.sit(seat, player_id, name, buy_in)
    return Outcome(
        Change(kind=ChangeKind.SIT, seat=seat, player_id=player_id),
        True,
        [LedgerLine(player_id, "buy_in", buy_in, seat)],
    )


def stand(table: Table, player_id: str) -> Outcome:
    number = table.seat_of(player_id).number
    table.stand(player_id)  # the cash-out is booked from table.cashouts, also mid-hand
    return Outcome(Change(kind=ChangeKind.STAND, seat=number, player_id=player_id), True)


def sit_out(table: Table, player_id: str) -> Outcome:
    table.sit_out(player_id)
    return Outcome(_seat_change(table, ChangeKind.SIT_OUT, player_id), True)


def sit_back(table: Table, player_id: str) -> Outcome:
    table.sit_back(player_id)
    return Outcome(_seat_change(table, ChangeKind.SIT_BACK, player_id), True)


def rebuy(table: Table, player_id: str, amount: int, by: ActedBy = ActedBy.PLAYER) -> Outcome:
    seat = table.seat_of(player_id)
    before = seat.stack
    table.rebuy(player_id, amount)
    return Outcome(
        rebuy_change(table, seat, amount, before, by),
        True,
        [LedgerLine(player_id, "rebuy", amount, seat.number)],
    )


def rebuy_change(table: Table, seat: Seat, amount: int, before: int, by: ActedBy) -> Change:
    """A rebuy or top-up as a table event: who, how much, and the stack it made."""
    return Change(
        kind=ChangeKind.REBUY,
        seat=seat.number,
        player_id=seat.player_id,
        by=by,
        amount=amount,
        stack=seat.stack,
        top_up=before >= table.config.big_blind,
    )


def _seat_change(table: Table, kind: ChangeKind, player_id: str) -> Change:
    return Change(kind=kind, seat=table.seat_of(player_id).number, player_id=player_id)
