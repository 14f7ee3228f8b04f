"""Bad input on the table socket: each gets an error naming the problem, and changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import websockets
from backend_testlib import RunningServer, WsClient, create_table, guest, join, signed_in
from websockets.exceptions import ConnectionClosed, InvalidStatus

Message = dict[str, Any]


async def seated_pair(server: RunningServer) -> tuple[WsClient, WsClient, Message]:
    """Alice (seat 1) and Bob (seat 2) with a hand in progress."""
    alice_token, _ = await guest(server, "Alice")
    bob_token, _ = await guest(server, "Bob")
    table = await create_table(server, alice_token, seats=2, small_blind=50, big_blind=100)
    alice = await join(server, table["table_id"], alice_token)
    bob = await join(server, table["table_id"], bob_token)
    await alice.send({"type": "sit", "seat": 1, "buy_in": 10_000})
    await bob.send({"type": "sit", "seat": 2, "buy_in": 10_000})
    await alice.wait_state(lambda s: s["view"]["hand_in_progress"])
    await bob.wait_state(lambda s: s["view"]["hand_in_progress"])
    return alice, bob, table


async def error_after(client: WsClient, message: Message | str) -> Message:
    await client.send(message)
    return await client.wait_type("error")


async def current_seq(client: WsClient) -> int:
    await client.send({"type": "sync"})
    state = await client.wait_type("state")
    seq: int = state["seq"]
    return seq


async def test_bad_commands_are_refused_and_change_nothing(server: RunningServer) -> None:
    alice, bob, _ = await seated_pair(server)
    before = await current_seq(alice)
    view = alice.last_state()["view"]
    actor = alice if view["actor"] == 1 else bob
    waiter = bob if actor is alice else alice
    waiter_seat = 2 if actor is alice else 1
    legal = actor.last_state()["view"]["legal_actions"]
    cases: list[tuple[WsClient, Message | str, str, Callable[[str], bool]]] = [
        (alice, "{not json", "bad_json", lambda m: "JSON" in m),
        (alice, "[1, 2]", "bad_message", lambda m: "object" in m),
        (alice, {"action": "fold"}, "bad_message", lambda m: "type" in m),
        (alice, {"type": "dance"}, "unknown_type", lambda m: "'dance'" in m),
        (alice, {"type": "sit", "seat": 3}, "bad_message", lambda m: "buy_in" in m),
        (alice, {"type": "act", "action": "shove"}, "bad_message", lambda m: "action" in m),
        (alice, {"type": "chat", "text": ""}, "bad_message", lambda m: "text" in m),
        (waiter, {"type": "act", "action": "call"}, "not_your_turn", lambda m: "turn" in m),
        (
            actor,
            {"type": "act", "action": "fold", "seat": waiter_seat},
            "not_your_seat",
            lambda m: f"seat {waiter_seat}" in m,
        ),
        (
            actor,
            {"type": "act", "action": "raise", "amount": legal["min_to"] - 1},
            "illegal_action",
            lambda m: f"minimum raise is to {legal['min_to']}" in m,
        ),
        (
            actor,
            {"type": "act", "action": "raise", "amount": 10**9},
            "illegal_action",
            lambda m: "maximum raise" in m,
        ),
        (
            actor,
            {"type": "act", "action": "call", "hand_no": 99},
            "stale",
            lambda m: "hand 99 has not been dealt" in m,
        ),
        (
            actor,
            {"type": "act", "action": "call", "hand_no": 0},
            "stale",
            lambda m: "hand 0 is over" in m,
        ),
        (alice, {"type": "sit", "seat": 2, "buy_in": 5000}, "seat", lambda m: "taken" in m),
        (alice, {"type": "auth", "token": "x"}, "bad_message", lambda m: "already" in m),
    ]
    for client, message, code, says in cases:
        error = await error_after(client, message)
        assert error["code"] == code, (message, error)
        assert says(error["message"]), (message, error)
    assert await current_seq(alice) == before  # no state changed
    await bob.send({"type": "ping", "ref": "p"})
    assert (await bob.wait_type("pong"))["ref"] == "p"  # the connections survived


async def test_not_seated_and_advice_rules(server_factory: Any) -> None:
    server = await server_factory()
    alice, bob, table = await seated_pair(server)
    carol_token, _ = await guest(server, "Carol")
    carol = await join(server, table["table_id"], carol_token)
    error = await error_after(carol, {"type": "act", "action": "fold"})
    assert error["code"] == "not_seated"
    error = await error_after(carol, {"type": "stand"})
    assert error["code"] == "seat"
    view = alice.last_state()["view"]
    waiter = bob if view["actor"] == 1 else alice
    error = await error_after(waiter, {"type": "advice"})
    assert error["code"] == "not_your_turn"
    error = await error_after(waiter, {"type": "ai_decide"})
    assert error["code"] == "not_your_turn"


async def test_oversized_message_closes_with_1009(server_factory: Any) -> None:
    server = await server_factory(max_message_bytes=1024)
    token, _ = await guest(server, "Alice")
    table = await create_table(server, token)
    alice = await join(server, table["table_id"], token)
    await alice.send({"type": "chat", "text": "x" * 2000})
    error = await alice.wait_type("error")
    assert error["code"] == "too_big" and "1024" in error["message"]
    with pytest.raises(ConnectionClosed) as closed:
        await alice.wait_type("never")
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


async def test_flooding_is_limited_then_closed_with_1008(server_factory: Any) -> None:
    server = await server_factory(messages_per_second=0.5, message_burst=3, flood_close_after=5)
    token, _ = await guest(server, "Alice")
    table = await create_table(server, token)
    alice = await join(server, table["table_id"], token)
    for _ in range(3):
        await alice.send({"type": "ping"})
    for _ in range(3):
        await alice.wait_type("pong")
    await alice.send({"type": "ping"})
    limited = await alice.wait_type("error")
    assert limited["code"] == "rate_limited" and "too many messages" in limited["message"]
    for _ in range(10):
        await alice.send({"type": "ping"})
    with pytest.raises(ConnectionClosed) as closed:
        await alice.wait_type("never")
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    assert any(m["type"] == "error" and "flooding" in m["message"] for m in alice.received)


async def test_handshake_checks(server_factory: Any) -> None:
    server = await server_factory(allowed_origins=["http://app.example"])
    token, _ = await guest(server, "Alice")
    table = await create_table(server, token)
    url = server.ws_url(f"/ws/tables/{table['table_id']}")
    with pytest.raises(InvalidStatus) as refused:
        await websockets.connect(url, origin="http://evil.example")  # type: ignore[arg-type]
    assert refused.value.response.status_code == 403
    for origin in ("http://app.example", f"http://127.0.0.1:{server.port}"):
        ok = WsClient(await websockets.connect(url, origin=origin))  # type: ignore[arg-type]
        await ok.send({"type": "auth", "token": token})
        assert (await ok.wait_type("welcome"))["name"] == "Alice"
        await ok.close()
    # A forged token, then an unknown table, then the token as a first message.
    bad = await signed_in(url, "abc")
    assert (await bad.wait_type("error"))["code"] == "unauthorized"
    with pytest.raises(ConnectionClosed) as closed:
        await bad.wait_type("never")
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    lost = await WsClient.connect(server.ws_url("/ws/tables/nope"))
    assert (await lost.wait_type("error"))["code"] == "unknown_table"
    with pytest.raises(ConnectionClosed) as closed:
        await lost.wait_type("never")
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4004
    first = await WsClient.connect(server.ws_url(f"/ws/tables/{table['table_id']}"))
    await first.send({"type": "ping"})
    assert (await first.wait_type("error"))["code"] == "unauthorized"
    again = await WsClient.connect(server.ws_url(f"/ws/tables/{table['table_id']}"))
    await again.send({"type": "auth", "token": token})
    assert (await again.wait_type("welcome"))["name"] == "Alice"
    await again.close()


async def test_integers_are_strict_and_refusals_echo_ref(server: RunningServer) -> None:
    """ "5000", true and 5000.0 are not 5000: each is refused naming the field, with its ref."""
    alice, _, _ = await seated_pair(server)
    before = await current_seq(alice)
    for amount in ("5000", True, 5000.0):
        error = await error_after(alice, {"type": "rebuy", "amount": amount, "ref": "r-1"})
        assert error["code"] == "bad_message", error
        assert error["message"].startswith("amount: must be a JSON integer"), error
        assert error["ref"] == "r-1"
    error = await error_after(alice, {"type": "sit", "seat": "3", "buy_in": 5000, "ref": "r-2"})
    assert (error["code"], error["ref"]) == ("bad_message", "r-2")
    assert error["message"].startswith("seat: must be a JSON integer")
    error = await error_after(alice, {"type": "dance", "ref": "r-3"})
    assert (error["code"], error["ref"]) == ("unknown_type", "r-3")
    error = await error_after(alice, {"type": "chat", "text": "", "ref": "x" * 65})
    assert error["code"] == "bad_message" and error["ref"] is None  # not a valid ref: not echoed
    await alice.conn.send(b'{"type": "ping"}')  # a binary frame
    error = await alice.wait_type("error")
    assert error["code"] == "bad_message" and "binary frames are not accepted" in error["message"]
    assert await current_seq(alice) == before  # nothing changed
    await alice.send({"type": "ping", "ref": "still-here"})
    assert (await alice.wait_type("pong"))["ref"] == "still-here"


async def test_a_disconnected_players_time_bank_is_not_used(server_factory: Any) -> None:
    """The clock of a player who is away has no time bank: the bank is thinking time, and
    an away seat burnt the timer plus the whole bank on every decision (#34)."""
    server = await server_factory(action_timeout=30, time_bank=20, disconnect_grace=60)
    alice, bob, _ = await seated_pair(server)
    view = alice.last_state()["view"]
    actor, away = (alice, bob) if view["actor"] == 1 else (bob, alice)
    away_seat = 2 if actor is alice else 1
    await away.close()
    await actor.send({"type": "act", "action": "call"})  # heads-up: the big blind is next
    state = await actor.wait_state(lambda s: s["view"]["actor"] == away_seat)
    clock = state["clock"]
    assert clock["seat"] == away_seat and clock["time_bank_ms"] == 0
    assert clock["deadline"] - clock["started_at"] == pytest.approx(30_000, abs=1)
