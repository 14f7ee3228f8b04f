"""Clocks, time banks, disconnects, reconnects and slow clients."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from backend_testlib import WsClient, create_table, guest, join, signed_in
from starlette.websockets import WebSocketState
from websockets.exceptions import ConnectionClosed

from backend.realtime.outbox import Outbox
from backend.realtime.runtime import Client, Join
from backend.realtime.timers import Clock, TimeBanks, Turn


def test_time_bank_accounting() -> None:
    banks = TimeBanks(initial=10.0)
    clock = Clock(Turn(1, 0, 1), "p", started=0.0, limit=15.0, action_timeout=5.0, bank=10.0)
    banks.spent(clock, elapsed=3.0)
    assert banks.bank("p") == 10.0  # acted within the limit: the bank is untouched
    banks.spent(clock, elapsed=8.0)
    assert banks.bank("p") == 7.0
    assert banks.timed_out(clock) == 1 and banks.bank("p") == 0.0
    assert banks.timed_out(clock) == 2
    banks.spent(clock, elapsed=1.0)
    assert banks.timed_out(clock) == 1  # acting resets the count of timeouts in a row


def test_time_banks_refill_per_hand_played_up_to_full() -> None:
    banks = TimeBanks(initial=10.0, refill=4.0)
    clock = Clock(Turn(1, 0, 1), "p", started=0.0, limit=15.0, action_timeout=5.0, bank=10.0)
    banks.spent(clock, elapsed=14.0)
    assert banks.bank("p") == 1.0
    banks.hand_played(["p", "q"])
    assert banks.bank("p") == 5.0 and banks.bank("q") == 10.0
    banks.hand_played(["p"])
    banks.hand_played(["p"])
    assert banks.bank("p") == 10.0  # never above the table's time bank


async def alice_against_a_bot(server_factory: Any, **settings: Any) -> WsClient:
    """Alice seated heads-up against a bot, with 0.25 s per decision and a 0.25 s bank."""
    server = await server_factory(action_timeout=0.25, time_bank=0.25, **settings)
    token, _ = await guest(server, "Alice")
    table = await create_table(server, token, seats=2, bots=1, small_blind=5, big_blind=10)
    alice = await join(server, table["table_id"], token)
    await alice.send({"type": "sit", "seat": 2, "buy_in": 1000})
    return alice


async def test_timeouts_use_the_bank_then_act_then_sit_out(server_factory: Any) -> None:
    alice = await alice_against_a_bot(server_factory, time_bank_refill=0.0, max_timeouts=2)
    first = await alice.wait_state(lambda s: s["view"]["actor"] == 2)
    clock = first["clock"]
    assert clock["seat"] == 2 and clock["action_timeout_ms"] == 250
    assert clock["time_bank_ms"] == 250
    assert clock["deadline"] - clock["started_at"] == pytest.approx(500, abs=1)
    timed_out = await alice.wait_state(lambda s: (s["cause"] or {}).get("by") == "timer")
    legal = first["view"]["legal_actions"]
    assert timed_out["cause"]["action"]["kind"] == ("check" if legal["can_check"] else "fold")
    second = timed_out
    if timed_out["view"]["actor"] != 2:  # else it is Alice's turn again at once
        second = await alice.wait_state(lambda s: s["view"]["actor"] == 2)
    assert second["clock"]["time_bank_ms"] == 0  # the bank was used up by the first timeout
    out = await alice.wait_state(
        lambda s: (s["cause"] or {}).get("by") == "timer" and "sitting out" in s["cause"]["note"]
    )
    assert out["cause"]["seat"] == 2

    def sat_out(s: dict[str, Any]) -> bool:
        seat = next(x for x in s["view"]["seats"] if x["seat"] == 2)
        return not s["view"]["hand_in_progress"] and seat["state"] == "sitting_out"

    final = out if sat_out(out) else await alice.wait_state(sat_out)
    assert final["view"]["actor"] is None


async def test_a_spent_time_bank_refills_with_the_next_hand(server_factory: Any) -> None:
    alice = await alice_against_a_bot(server_factory, time_bank_refill=0.25, max_timeouts=20)
    first = await alice.wait_state(lambda s: s["view"]["actor"] == 2)
    assert first["clock"]["time_bank_ms"] == 250
    hand_no = first["view"]["hand_no"]
    await alice.wait_state(lambda s: (s["cause"] or {}).get("by") == "timer")  # bank spent
    later = await alice.wait_state(
        lambda s: s["view"]["actor"] == 2 and s["view"]["hand_no"] > hand_no
    )
    assert later["clock"]["time_bank_ms"] == 250


async def test_a_disconnected_player_is_sat_out_after_the_grace_period(
    server_factory: Any,
) -> None:
    server = await server_factory(disconnect_grace=0.2)
    alice_token, _ = await guest(server, "Alice")
    bob_token, _ = await guest(server, "Bob")
    table = await create_table(server, alice_token, seats=4)
    alice = await join(server, table["table_id"], alice_token)
    bob = await join(server, table["table_id"], bob_token)
    await alice.send({"type": "sit", "seat": 2, "buy_in": 5000})
    await bob.wait_state(lambda s: (s["cause"] or {}).get("kind") == "sit")
    await alice.close()
    state = await bob.wait_state(lambda s: (s["cause"] or {}).get("kind") == "sit_out")
    assert state["cause"] == {
        "kind": "sit_out",
        "seat": 2,
        "player_id": state["cause"]["player_id"],
        "action": None,
        "by": "table",
        "note": "disconnected",
        "amount": None,  # (a rebuy's fields)
        "stack": None,
        "top_up": None,
    }
    assert state["view"]["seats"][0]["state"] == "sitting_out"


async def test_reconnect_resyncs_and_a_new_socket_replaces_the_old(server_factory: Any) -> None:
    server = await server_factory()
    alice_token, _ = await guest(server, "Alice")
    bob_token, _ = await guest(server, "Bob")
    table = await create_table(server, alice_token, seats=2, small_blind=5, big_blind=10)
    table_id = table["table_id"]
    alice = await join(server, table_id, alice_token)
    bob = await join(server, table_id, bob_token)
    await alice.send({"type": "sit", "seat": 1, "buy_in": 1000})
    seen = (await alice.wait_state(lambda s: (s["cause"] or {}).get("kind") == "sit"))["seq"]
    await alice.close()
    await bob.send({"type": "sit", "seat": 2, "buy_in": 1000})  # a hand starts meanwhile
    await bob.wait_state(lambda s: s["view"]["hand_in_progress"])
    back = await signed_in(server.ws_url(f"/ws/tables/{table_id}"), alice_token, seen)
    welcome = await back.wait_type("welcome")
    assert welcome["resync"] is True and welcome["seat"] == 1
    assert welcome["missed"] == welcome["seq"] - seen > 0
    state = await back.wait_type("state")
    assert state["seq"] == welcome["seq"]
    me = next(s for s in state["view"]["seats"] if s["seat"] == 1)
    assert me["hole_cards"] and len(me["hole_cards"]) == 2  # the full state, own cards included
    newer = await join(server, table_id, alice_token)
    with pytest.raises(ConnectionClosed) as closed:
        await back.wait_type("never")
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4000
    await newer.send({"type": "ping"})
    await newer.wait_type("pong")


class StalledSocket:
    """The network boundary of a client that stopped reading: sends never complete."""

    def __init__(self) -> None:
        self.client_state = WebSocketState.CONNECTED
        self.closed = asyncio.get_running_loop().create_future()

    async def send_text(self, text: str) -> None:
        await asyncio.Event().wait()

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.client_state = WebSocketState.DISCONNECTED
        self.closed.set_result(code)


async def test_a_client_that_cannot_keep_up_is_dropped(server_factory: Any) -> None:
    server = await server_factory(send_queue_size=4)
    alice_token, alice_id = await guest(server, "Alice")
    bob_token, _ = await guest(server, "Bob")
    table = await create_table(server, alice_token)
    runtime = server.state.tables.get(table["table_id"])
    stalled = StalledSocket()
    slow = Client(alice_id, "Alice", Outbox(stalled, 4, "slow"))  # type: ignore[arg-type]
    runtime.post(Join(slow, None))
    bob = await join(server, table["table_id"], bob_token)
    for i in range(8):
        await bob.send({"type": "chat", "text": f"line {i}"})
    assert await asyncio.wait_for(stalled.closed, 10) == 1013
    await bob.send({"type": "ping"})  # the table and other clients are unaffected
    await bob.wait_type("pong")
    assert runtime.connections == 1


async def test_a_disconnected_player_s_decisions_get_no_time_bank(server_factory: Any) -> None:
    """Issue #34: a disconnected seat burnt the timer plus the whole bank on every decision."""
    server = await server_factory(action_timeout=0.5, time_bank=30.0)
    alice_token, _ = await guest(server, "Alice")
    bob_token, _ = await guest(server, "Bob")
    table = await create_table(server, alice_token, seats=2, small_blind=5, big_blind=10)
    alice = await join(server, table["table_id"], alice_token)
    bob = await join(server, table["table_id"], bob_token)
    await alice.send({"type": "sit", "seat": 1, "buy_in": 1000})
    await bob.send({"type": "sit", "seat": 2, "buy_in": 1000})
    first = await bob.wait_state(lambda s: s["view"]["hand_in_progress"])
    if first["view"]["actor"] == 2:  # Bob leaves on Alice's turn, not on his own
        await bob.send({"type": "act", "action": "call"})
    mine = await alice.wait_state(lambda s: s["view"]["actor"] == 1)
    await bob.close()
    await alice.send({"type": "ping", "ref": "after-bob-left"})
    await alice.wait_type("pong")  # handled after Bob's leave, in the table's order
    runtime = server.state.tables.get(table["table_id"])
    assert runtime is not None and runtime.connections == 1
    state = mine
    while state["view"]["actor"] != 2:  # Alice checks or calls until Bob is to act
        legal = state["view"]["legal_actions"]
        await alice.send({"type": "act", "action": "check" if legal["can_check"] else "call"})
        state = await alice.wait_state(lambda s: s["view"]["actor"] in (1, 2))
    # Bob's decision is timed without his bank.
    clock = state["clock"]
    assert clock["time_bank_ms"] == 0
    assert clock["deadline"] - clock["started_at"] == pytest.approx(500, abs=1)


async def test_a_gone_player_sitting_out_is_stood_up_and_the_lobby_counts_who_sits_out(
    server_factory: Any,
) -> None:
    """Issue #34: a seat sitting out whose player never came back held its place for
    ever ("Full" in the lobby, a ghost nobody could stand up)."""
    server = await server_factory(disconnect_grace=0.1, away_stand_up=0.2)
    alice_token, alice_id = await guest(server, "Alice")
    bob_token, _ = await guest(server, "Bob")
    table = await create_table(server, alice_token, seats=2)
    table_id = table["table_id"]
    alice = await join(server, table_id, alice_token)
    bob = await join(server, table_id, bob_token)
    await alice.send({"type": "sit", "seat": 1, "buy_in": 5000})
    await alice.send({"type": "sit_out"})
    await bob.wait_state(lambda s: (s["cause"] or {}).get("kind") == "sit_out")
    async with httpx.AsyncClient(base_url=server.http) as http:
        [row] = (await http.get("/api/tables")).json()
    assert (row["seats_taken"], row["sitting_out"]) == (1, 1)
    await alice.close()
    stood = await bob.wait_state(lambda s: (s["cause"] or {}).get("kind") == "stand")
    assert stood["cause"]["by"] == "table" and stood["cause"]["note"] == "away"
    assert stood["view"]["seats"] == []
    async with httpx.AsyncClient(base_url=server.http) as http:
        [row] = (await http.get("/api/tables")).json()
    assert (row["seats_taken"], row["sitting_out"]) == (0, 0)
    runtime = server.state.tables.get(table_id)
    assert runtime is not None
    await runtime.persister.drain()
    ledger = [e async for e in server.state.mongo.db.ledger.find({"player_id": alice_id})]
    assert sorted((e["kind"], e["amount"]) for e in ledger) == [
        ("buy_in", 5000),
        ("cashout", 5000),
    ]


async def test_a_player_who_comes_back_in_time_keeps_the_seat(server_factory: Any) -> None:
    server = await server_factory(disconnect_grace=0.1, away_stand_up=60.0)
    alice_token, alice_id = await guest(server, "Alice")
    bob_token, _ = await guest(server, "Bob")
    table = await create_table(server, alice_token, seats=2)
    alice = await join(server, table["table_id"], alice_token)
    bob = await join(server, table["table_id"], bob_token)
    await alice.send({"type": "sit", "seat": 1, "buy_in": 5000})
    await alice.close()
    await bob.wait_state(lambda s: (s["cause"] or {}).get("kind") == "sit_out")
    runtime = server.state.tables.get(table["table_id"])
    assert runtime is not None
    assert f"away:{alice_id}" in runtime._timers  # the seat would be freed in 60 s
    again = await join(server, table["table_id"], alice_token)
    assert f"away:{alice_id}" not in runtime._timers  # back in time: it stays hers
    assert again.last_state()["view"]["viewer_seat"] == 1
