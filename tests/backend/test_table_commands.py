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
from protocol.messages import ActedBy, ChangeKind, ErrorCode, SeatRequest, TableSettingsCommand


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


def test_only_the_host_may_give_a_host_command() -> None:
    host_commands.check_host("h", "h", "pause")
    with pytest.raises(CommandError, match="only the table's host may pause") as refused:
        host_commands.check_host("h", "p1", "pause")
    assert refused.value.code is ErrorCode.NOT_HOST
    with pytest.raises(CommandError, match="hand the host's role on"):
        host_commands.check_host(None, "p1", "hand_over")


def test_pause_waits_for_the_hand_and_each_is_refused_twice() -> None:
    t = table()
    paused = host_commands.pause(t, paused=False)
    assert (paused.kind, paused.by, paused.note) == (ChangeKind.PAUSE, ActedBy.HOST, "")
    with pytest.raises(CommandError, match="the game is paused"):
        host_commands.pause(t, paused=True)
    with pytest.raises(CommandError, match="the game is not paused"):
        host_commands.resume(t, paused=False)
    assert host_commands.resume(t, paused=True).kind is ChangeKind.RESUME
    for number, player in ((1, "p1"), (2, "p2")):
        table_commands.sit(t, player, player, number, 500)
    t.start_hand()
    assert host_commands.pause(t, paused=False).note == "after this hand"


def test_an_approved_request_sits_and_books_a_rejected_one_does_not() -> None:
    t = table()
    requests = {
        "p1": SeatRequest(player_id="p1", name="Ana", seat=2, buy_in=400),
        "p2": SeatRequest(player_id="p2", name="Bo", seat=3, buy_in=300),
    }
    approved = host_commands.approve(t, requests, "p1")
    assert (approved.change.kind, approved.change.by, approved.change.note) == (
        ChangeKind.SIT, ActedBy.HOST, "approved"
    )  # fmt: skip
    assert approved.ledger == [LedgerLine("p1", "buy_in", 400, 2)] and t.seats[2].stack == 400
    before = t.snapshot()
    rejected = host_commands.reject(requests, "p2")
    assert (rejected.kind, rejected.seat, rejected.player_id) == (
        ChangeKind.SEAT_REJECTED, 3, "p2"
    )  # fmt: skip
    with pytest.raises(CommandError) as missing:
        host_commands.approve(t, requests, "p9")
    assert missing.value.code is ErrorCode.NO_SUCH_REQUEST
    with pytest.raises(CommandError):
        host_commands.reject(requests, "p9")
    with pytest.raises(RuleError):
        host_commands.approve(t, requests, "p1")  # already seated: nothing changes
    assert t.snapshot() == before


def test_the_role_goes_to_a_player_here_never_to_a_bot() -> None:
    t = table()
    table_commands.sit(t, "p1", "Ana", 1, 400)
    host_commands.add_bot(t, 2, "cautious", "Ada")
    handed = host_commands.hand_over(t, "h", "p1", watching=["h"])
    assert (handed.kind, handed.seat, handed.player_id, handed.by) == (
        ChangeKind.HOST, 1, "p1", ActedBy.HOST
    )  # fmt: skip
    watcher = host_commands.hand_over(t, "h", "w", watching=["h", "w"])
    assert watcher.seat is None and watcher.player_id == "w"
    with pytest.raises(CommandError, match="you are the host already"):
        host_commands.hand_over(t, "h", "h", watching=["h"])
    with pytest.raises(RuleError):
        host_commands.hand_over(t, "h", t.seats[2].player_id, watching=["h"])  # a bot
    with pytest.raises(RuleError):
        host_commands.hand_over(t, "h", "gone", watching=["h"])
    left = host_commands.host_change(t, "p1", ActedBy.TABLE)
    assert left.by is ActedBy.TABLE and left.note == "the host left"
