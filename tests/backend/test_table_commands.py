"""The seat commands and the host's as functions of the table: what they change, the event and the
chips they book, and a refusal that changes nothing (no socket, no database)."""

from __future__ import annotations

import pytest

from backend.realtime import host_commands, table_commands
from backend.realtime.inbox import CommandError
from backend.realtime.table_commands import LedgerLine
from holdem.config import TableConfig, Variant
from holdem.errors import RuleError
from holdem.table import Table
from protocol.messages import ActedBy, ChangeKind, TableSettingsCommand


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


def test_the_hosts_adjustment_is_booked_and_bounded() -> None:
    t = table()
    table_commands.sit(t, "p1", "Ana", 1, 400)
    adjusted = host_commands.adjust(t, 1, -150)
    assert adjusted.ledger == [LedgerLine("p1", "adjust", -150, 1)]
    assert (adjusted.change.kind, adjusted.change.stack, adjusted.change.by) == (
        ChangeKind.ADJUST, 250, ActedBy.HOST
    )  # fmt: skip
    before = t.snapshot()
    with pytest.raises(CommandError):
        host_commands.adjust(t, 1, -251)  # below zero
    with pytest.raises(CommandError):
        host_commands.adjust(t, 1, 0)
    with pytest.raises(RuleError):
        host_commands.adjust(t, 2, 10)  # an empty seat
    assert t.snapshot() == before


def test_the_host_removes_and_restyles_bots() -> None:
    t = table()
    added = host_commands.add_bot(t, 2, "cautious", "Ada")
    bot_id = t.seats[2].player_id
    assert added.ledger == [LedgerLine(bot_id, "buy_in", 1000, 2)] and t.seats[2].is_bot
    host_commands.bot_style(t, 2, "random")
    assert t.seats[2].bot_style == "random"
    table_commands.sit(t, "p1", "Ana", 1, 400)
    with pytest.raises(RuleError):
        host_commands.bot_style(t, 1, "random")  # not a bot
    removed = host_commands.remove(t, 2)
    assert removed.change.kind is ChangeKind.REMOVE and 2 not in t.seats
    assert t.cashouts[-1].player_id == bot_id and t.cashouts[-1].amount == 1000


def test_new_stakes_must_hold_together() -> None:
    config = table().config
    settings = TableSettingsCommand(small_blind=10, big_blind=20, ante=1)
    new = host_commands.new_config(config, settings)
    assert (new.small_blind, new.big_blind, new.ante, new.max_buy_in) == (10, 20, 1, 1000)
    assert host_commands.settings_note(config, new, settings) == "blinds 10/20, ante 1"
    with pytest.raises(CommandError):
        host_commands.new_config(config, TableSettingsCommand(small_blind=50))  # above the big


def test_new_blinds_at_a_limit_table_bring_new_bet_sizes() -> None:
    config = TableConfig(variant=Variant.LIMIT, seats=2, small_blind=5, big_blind=10)
    new = host_commands.new_config(config, TableSettingsCommand(small_blind=10, big_blind=20))
    assert (new.small_bet, new.big_bet) == (20, 40)


def test_a_player_removed_in_a_hand_leaves_at_its_end() -> None:
    t = table()
    for number, player in ((1, "p1"), (2, "p2"), (3, "p3")):
        table_commands.sit(t, player, player, number, 500)
    hand = t.start_hand()
    waiting = next(n for n in hand.seats if n != hand.actor)
    removed = host_commands.remove(t, waiting)
    assert removed.change.note == "removed at the hand's end"
    assert t.seats[waiting].leaving and not t.cashouts  # still in the hand, no chips out
