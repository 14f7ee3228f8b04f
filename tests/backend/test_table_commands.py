"""The seat commands as functions of the table: what they change, the event and the
chips they book, and a refusal that changes nothing (no socket, no database)."""

from __future__ import annotations

import pytest

from backend.realtime import table_commands
from backend.realtime.table_commands import LedgerLine
from holdem.config import TableConfig, Variant
from holdem.errors import RuleError
from holdem.protocol import ActedBy, ChangeKind
from holdem.table import Table


def table() -> Table:
    config = TableConfig(
        variant=Variant.NO_LIMIT, seats=3, small_blind=5, big_blind=10,
        min_buy_in=200, max_buy_in=1000,
    )  # fmt: skip
    return Table("t1", config, seed=1)


def test_sit_books_the_buy_in_and_rebuy_says_top_up() -> None:
    t = table()
    sat = table_commands.sit(t, "p1", "Ana", 2, 500)
    assert sat.change.kind is ChangeKind.SIT and sat.change.seat == 2 and sat.seats_changed
    assert sat.ledger == [LedgerLine("p1", "buy_in", 500, 2)]
    topped = table_commands.rebuy(t, "p1", 300)
    assert topped.ledger == [LedgerLine("p1", "rebuy", 300, 2)]
    assert (topped.change.amount, topped.change.stack, topped.change.top_up) == (300, 800, True)
    assert topped.change.by is ActedBy.PLAYER


def test_a_refused_command_changes_nothing() -> None:
    t = table()
    table_commands.sit(t, "p1", "Ana", 2, 500)
    before = t.snapshot()
    with pytest.raises(RuleError):
        table_commands.rebuy(t, "p1", 600)  # over the maximum buy-in
    with pytest.raises(RuleError):
        table_commands.sit(t, "p2", "Bo", 2, 500)  # seat taken
    assert t.snapshot() == before


def test_stand_between_hands_leaves_the_cash_out_to_the_table() -> None:
    t = table()
    table_commands.sit(t, "p1", "Ana", 1, 400)
    stood = table_commands.stand(t, "p1")
    assert stood.change.kind is ChangeKind.STAND and stood.ledger == []
    assert t.cashouts[-1].amount == 400 and not t.seats
