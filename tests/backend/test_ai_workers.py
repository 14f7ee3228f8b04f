"""AI workers over /ws/ai: bot decisions, "Let AI decide", advice, re-sending and fallback."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from backend_testlib import (
    AI_SECRET,
    RunningServer,
    TestWorker,
    WsClient,
    bot_query_or_turn,
    create_table,
    guest,
    join,
    passive_action,
    play_to_bot_query,
    play_to_own_turn,
)
from websockets.exceptions import ConnectionClosed

ADVICE = {
    "action": "call",
    "values": [{"action": "fold", "value_bb": 0.0}, {"action": "call", "value_bb": 1.5}],
    "equity": 0.55,
    "ehs": 0.6,
    "opponents": [{"seat": 1, "label": "loose-passive", "vpip": 0.5, "note": "calls a lot"}],
    "reason": "Priced in against a calling station.",
}


async def stats(server: RunningServer) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=server.http) as http:
        body: dict[str, Any] = (await http.get("/api/stats")).json()
        return body


async def bot_table(server: RunningServer, **fields: Any) -> tuple[WsClient, str, dict[str, Any]]:
    """Alice in seat 2 against one bot (seat 1, style "aggressive"), heads-up."""
    token, player_id = await guest(server, "Alice")
    table = await create_table(
        server,
        token,
        seats=2,
        bots=1,
        bot_styles=["aggressive"],
        small_blind=5,
        big_blind=10,
        **fields,
    )
    alice = await join(server, table["table_id"], token)
    await alice.send({"type": "sit", "seat": 2, "buy_in": 1000})
    return alice, player_id, table


async def test_a_wrong_secret_is_refused(server: RunningServer) -> None:
    client = await WsClient.connect(server.ws_url("/ws/ai"))
    await client.send({"type": "hello", "secret": "guess"})
    assert (await client.wait_type("error"))["code"] == "unauthorized"
    with pytest.raises(ConnectionClosed) as closed:
        await client.wait_type("never")
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008


async def test_bots_decide_through_a_worker(server: RunningServer) -> None:
    worker = await TestWorker.connect(server, AI_SECRET)
    alice, _, _ = await bot_table(server)
    query = await play_to_bot_query(alice, worker, 2)
    assert query["purpose"] == "bot" and query["style"] == "aggressive"
    assert query["seat"] == 1 and query["view"]["viewer_seat"] == 1
    seats = {s["seat"]: s for s in query["view"]["seats"]}
    assert seats[1]["hole_cards"] and seats[2]["hole_cards"] is None  # only the bot's view
    assert query["legal"]["seat"] == 1 and query["deadline"] > 0 and not query["want_advice"]
    await worker.answer(query, "raise", query["legal"]["min_to"])
    state = await alice.wait_state(lambda s: (s["cause"] or {}).get("by") == "bot")
    assert state["cause"]["action"] == {"kind": "raise", "amount": query["legal"]["min_to"]}
    counters = (await stats(server))["ai"]
    assert counters["answered"] == 1 and counters["fallbacks"] == 0
    await worker.close()


async def test_a_finished_hand_reaches_the_workers_with_only_the_shown_cards(
    server_factory: Callable[..., Any],
) -> None:
    """In odd hands the bot bets and Alice folds, in even ones both check or call down: each
    hand's end goes to the worker as a spectator saw it, a hole card only where shown."""
    # The hands must go as the test's worker answers: with 2 s it missed a deadline once
    # beside other tests (a fresh clone's make test), and the fallback bot played instead.
    server: RunningServer = await server_factory(ai_deadline_ms=9000)
    worker = await TestWorker.connect(server, AI_SECRET)
    alice, _, table = await bot_table(server)
    records: list[dict[str, Any]] = []
    while len(records) < 4:
        kind, message = await bot_query_or_turn(alice, worker, 2, ("query", "hand_ended"))
        if kind == "query":
            legal = message["legal"]
            if message["hand_no"] % 2 and legal["min_to"] is not None:
                await worker.answer(message, "raise", legal["min_to"])
            else:
                await worker.answer(message, passive_action(legal))
        elif kind == "turn":
            legal = message["view"]["legal_actions"]
            fold = message["view"]["hand_no"] % 2 and legal["can_fold"]
            await alice.send({"type": "act", "action": "fold" if fold else passive_action(legal)})
        else:
            records.append(message["record"])
    assert [r["hand_no"] for r in records] == [1, 2, 3, 4]
    assert {r["table_id"] for r in records} == {table["table_id"]}
    for record in records:
        shown = shows(record)
        for seat in record["seats"]:
            assert seat["hole_cards"] == shown.get(seat["seat"], ["??", "??"]), record
    folded, checked = records[::2], records[1::2]
    assert all(not shows(r) and any(e["kind"] == "fold" for e in r["events"]) for r in folded)
    assert all(shows(r) for r in checked)
    counters = (await stats(server))["ai"]
    assert counters["hands_sent"] >= len(records) and counters["hands_dropped"] == 0
    await worker.close()


def shows(record: dict[str, Any]) -> dict[int, list[str]]:
    return {e["seat"]: e["cards"] for e in record["events"] if e["kind"] == "show"}


async def test_let_ai_decide_and_advice(server: RunningServer) -> None:
    worker = await TestWorker.connect(server, AI_SECRET)
    alice, _, _ = await bot_table(server)
    turn = await play_to_own_turn(alice, worker, 2)
    # Advice: returned to Alice only, nothing applied.
    await alice.send({"type": "advice", "ref": "a1"})
    query = await worker.query()
    assert query["purpose"] == "advice" and query["want_advice"] and query["seat"] == 2
    assert query["style"] is None and query["view"]["viewer_seat"] == 2
    action = passive_action(query["legal"])
    await worker.answer(query, action, advice={**ADVICE, "action": action})
    advice = await alice.wait_type("advice")
    assert advice["applied"] is False and advice["ref"] == "a1" and advice["source"] == "worker"
    assert advice["advice"]["reason"] == ADVICE["reason"]
    assert advice["advice"]["opponents"][0]["label"] == "loose-passive"
    await alice.send({"type": "sync"})
    assert (await alice.wait_type("state"))["seq"] == turn["seq"]  # nothing changed
    # Let AI decide: the action is applied, Alice gets the advice, the table is told.
    await alice.send({"type": "ai_decide"})
    query = await worker.query()
    assert query["purpose"] == "ai_decide" and query["want_advice"]
    action = passive_action(query["legal"])
    await worker.answer(query, action, advice={**ADVICE, "action": action})
    advice = await alice.wait_type("advice")
    assert advice["applied"] is True
    state = await alice.wait_state(lambda s: (s["cause"] or {}).get("by") == "ai")
    assert state["cause"]["seat"] == 2 and state["cause"]["action"]["kind"] == action
    await worker.close()


async def test_advice_can_be_disabled(server: RunningServer) -> None:
    worker = await TestWorker.connect(server, AI_SECRET)
    alice, _, _ = await bot_table(server, advice_allowed=False)
    await play_to_own_turn(alice, worker, 2)
    await alice.send({"type": "advice"})
    assert (await alice.wait_type("error"))["code"] == "advice_disabled"


async def test_a_query_is_resent_when_its_worker_disconnects(server: RunningServer) -> None:
    first = await TestWorker.connect(server, AI_SECRET, name="first", capacity=1)
    second = await TestWorker.connect(server, AI_SECRET, name="second", capacity=1)
    alice, _, _ = await bot_table(server)
    query = await play_to_bot_query(alice, first, 2)  # equal loads: the first worker gets it
    await first.close()  # ... and disconnects without answering
    again = await second.query()
    assert again["request_id"] == query["request_id"]
    await second.answer(again, passive_action(again["legal"]))
    await alice.wait_state(lambda s: (s["cause"] or {}).get("by") == "bot")
    counters = (await stats(server))["ai"]
    assert counters["resent"] == 1 and counters["answered"] == 1 and counters["fallbacks"] == 0
    await second.close()


async def test_fallback_when_no_worker_answers_in_time(server_factory: Any) -> None:
    server = await server_factory(ai_deadline_ms=300)
    worker = await TestWorker.connect(server, AI_SECRET)
    alice, _, _ = await bot_table(server)
    query = await play_to_bot_query(alice, worker, 2)  # ... and never answered
    state = await alice.wait_state(lambda s: (s["cause"] or {}).get("by") == "bot")
    assert state["cause"]["action"]["kind"] in {"fold", "check", "call", "raise"}
    cancel = await worker.client.wait_type("cancel")
    assert cancel["request_id"] == query["request_id"]
    counters = (await stats(server))["ai"]
    assert counters["fallback_timeout"] == 1
    await worker.close()


async def test_fallback_without_workers_is_counted(server: RunningServer) -> None:
    alice, _, _ = await bot_table(server)
    await alice.wait_state(lambda s: s["view"]["actor"] == 2)
    await alice.send({"type": "ai_decide"})
    advice = await alice.wait_type("advice")
    assert advice["source"] == "fallback" and "no AI worker" in advice["advice"]["reason"]

    def by_bot(state: dict[str, Any]) -> bool:
        return bool((state["cause"] or {}).get("by") == "bot")

    # The bot's next decision: this hand's, or a later one's. Alice plays her turns on the
    # way (the AI's action may close a street she acts first on): else the bot waits out
    # her clock.
    state = await alice.wait_state(lambda s: (s["cause"] or {}).get("by") == "ai")
    while not by_bot(state):
        if state["view"]["actor"] == 2:
            legal = state["view"]["legal_actions"]
            await alice.send({"type": "act", "action": passive_action(legal)})
        state = await alice.wait_state(lambda s: by_bot(s) or s["view"]["actor"] == 2)
    async with httpx.AsyncClient(base_url=server.http) as http:
        ready = (await http.get("/readyz")).json()
    assert ready["ai"]["fallback_no_worker"] >= 2 and ready["ai"]["workers"] == 0
