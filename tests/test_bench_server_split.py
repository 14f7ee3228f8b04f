"""`showdown bench server` splits its latencies: states shown at once and states held
until stored. The split reads the bytes of real state messages, so it is checked on
states serialized as the server serializes them."""

from __future__ import annotations

from backend.fallback_policy import fallback_action
from backend.schemas import CreateTableRequest
from holdem.table import Table
from holdem.views import as_seen_by, observe
from protocol.messages import ActedBy, Change, ChangeKind, StateMessage
from showdown.benchmarks.server import held_for_storage


def _state(table: Table, cause: Change | None) -> bytes:
    view = observe(table, None)
    message = StateMessage(seq=1, at=1.0, table_id=table.table_id, view=view, cause=cause)
    return message.model_dump_json().encode()


def test_only_an_action_within_a_hand_counts_as_shown_at_once() -> None:
    config = CreateTableRequest(seats=6, bots=3, small_blind=5, big_blind=10).table_config()
    table = Table("t1", config)
    for number in (1, 2, 3):
        table.sit(number, f"bot-{number}", f"B{number}", config.max_buy_in, is_bot=True)
    table.start_hand()
    assert held_for_storage(_state(table, Change(kind=ChangeKind.HAND_START, by=ActedBy.TABLE)))
    held: list[bool] = []
    while table.hand is not None and not table.hand.is_over:
        seat = table.hand.actor
        assert seat is not None
        legal = table.hand.legal_actions()
        assert legal is not None
        action = fallback_action(as_seen_by(observe(table, None), table, seat), legal)
        table.act(seat, action)
        cause = Change(kind=ChangeKind.ACT, seat=seat, action=action, by=ActedBy.BOT)
        held.append(held_for_storage(_state(table, cause)))
    # Every action but the one that ended the hand (its result is stored first).
    assert held == [False] * (len(held) - 1) + [True]
    rebuy = Change(kind=ChangeKind.REBUY, seat=1, by=ActedBy.BOT, amount=10)
    assert held_for_storage(_state(table, rebuy))
    assert held_for_storage(_state(table, None))
