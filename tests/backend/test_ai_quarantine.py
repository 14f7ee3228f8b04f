"""Misbehaving AI workers (real WebSocket clients) are quarantined; their queries go elsewhere."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from backend_testlib import (
    AI_SECRET,
    RunningServer,
    TestWorker,
    WsClient,
    create_table,
    guest,
    join,
    passive_action,
    play_to_bot_query,
)

from backend import ai_gateway

# An answer deadline no loaded machine misses: the test's own answers are never late
# (a 4 s one was, and the worker was quarantined twice). What must run out (a silent
# worker's share) is made short by the share, not by the deadline.
DEADLINE_MS = 60_000
SILENT_SHARE_MS = 2000  # the first worker's share of the deadline in the test that waits it


async def ai_stats(server: RunningServer) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=server.http) as http:
        body: dict[str, Any] = (await http.get("/api/stats")).json()["ai"]
        return body


async def heads_up(server: RunningServer) -> WsClient:
    """Alice in seat 2 against one bot in seat 1."""
    token, _ = await guest(server, "Alice")
    table = await create_table(server, token, seats=2, bots=1, small_blind=5, big_blind=10)
    alice = await join(server, table["table_id"], token)
    await alice.send({"type": "sit", "seat": 2, "buy_in": 1000})
    return alice


async def query_for(worker: TestWorker, alice: WsClient, other: TestWorker) -> dict[str, Any]:
    """Play on (Alice and `other` check or call) until `worker` is sent a query."""
    while True:
        tasks = {
            asyncio.create_task(worker.query()): "worker",
            asyncio.create_task(other.query()): "other",
            asyncio.create_task(alice.wait_state(lambda s: s["view"]["actor"] == 2)): "alice",
        }
        done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        # Every finished task took its message off its queue: answer each (taking only the
        # first lost Alice's turn whenever two finished together, and she timed out).
        found: dict[str, Any] | None = None
        for task in done:
            message = task.result()
            if tasks[task] == "worker":
                found = message
            elif tasks[task] == "other":
                await other.answer(message, passive_action(message["legal"]))
            else:
                legal = message["view"]["legal_actions"]
                await alice.send({"type": "act", "action": passive_action(legal)})
        if found is not None:
            return found


async def misbehave(worker: TestWorker, query: dict[str, Any], how: str) -> None:
    if how == "garbage":
        await worker.client.send("{this is not a message")
    elif how == "wrong_request_id":
        await worker.answer({**query, "request_id": "f" * 32}, passive_action(query["legal"]))
    elif how == "illegal_action":
        await worker.answer(query, "bet", 1)  # never legal: below the big blind or facing one
    # "silent": nothing at all


@pytest.mark.parametrize("how", ["silent", "garbage", "wrong_request_id", "illegal_action"])
async def test_a_misbehaving_worker_is_quarantined_and_the_query_resent(
    server_factory: Any, how: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The first worker gets 2 s (a silent one is waited out), the second all the rest.
    monkeypatch.setattr(ai_gateway, "FIRST_SHARE", SILENT_SHARE_MS / DEADLINE_MS)
    server: RunningServer = await server_factory(ai_deadline_ms=DEADLINE_MS)
    bad = await TestWorker.connect(server, AI_SECRET, name="bad", capacity=1)
    good = await TestWorker.connect(server, AI_SECRET, name="good", capacity=1)
    alice = await heads_up(server)
    query = await play_to_bot_query(alice, bad, 2)  # equal loads: the first worker gets it
    # While another worker could be asked, the first one gets only part of the time.
    assert query["timeout_ms"] <= SILENT_SHARE_MS
    await misbehave(bad, query, how)
    again = await good.query()  # re-sent before the table's deadline
    assert again["request_id"] == query["request_id"]
    await good.answer(again, passive_action(again["legal"]))
    state = await alice.wait_state(lambda s: (s["cause"] or {}).get("by") == "bot")
    assert state["cause"]["seat"] == 1
    counters = await ai_stats(server)
    assert counters["quarantines"] == 1 and counters["resent"] == 1
    assert counters["answered"] == 1 and counters["fallbacks"] == 0
    assert counters["workers_connected"] == 2 and counters["workers_quarantined"] == 1
    assert counters["invalid_answers"] == (1 if how == "illegal_action" else 0)
    await bad.close()
    await good.close()


async def test_a_quarantined_worker_gets_queries_again_after_its_time(
    server_factory: Any,
) -> None:
    server: RunningServer = await server_factory(ai_deadline_ms=DEADLINE_MS)
    server.state.gateway.quarantine_base = 0.2  # seconds: the back-off this test waits out
    bad = await TestWorker.connect(server, AI_SECRET, name="bad", capacity=1)
    good = await TestWorker.connect(server, AI_SECRET, name="good", capacity=1)
    alice = await heads_up(server)
    query = await play_to_bot_query(alice, bad, 2)
    await misbehave(bad, query, "garbage")
    again = await good.query()
    await good.answer(again, passive_action(again["legal"]))
    # Out of quarantine, the worker is asked again (it is the first of two idle ones) and
    # a good answer clears its record.
    back = await query_for(bad, alice, good)
    await bad.answer(back, passive_action(back["legal"]))
    await alice.wait_state(lambda s: (s["cause"] or {}).get("by") == "bot")
    counters = await ai_stats(server)
    assert counters["quarantines"] == 1 and counters["answered"] >= 2
    assert counters["workers_quarantined"] == 0
    await bad.close()
    await good.close()


async def test_workers_connected_is_the_number_connected_now(server: RunningServer) -> None:
    first = await TestWorker.connect(server, AI_SECRET, name="first")
    second = await TestWorker.connect(server, AI_SECRET, name="second")
    assert (await ai_stats(server))["workers_connected"] == 2
    await first.close()
    await second.close()
    third = await TestWorker.connect(server, AI_SECRET, name="third")
    async with httpx.AsyncClient(base_url=server.http) as http, asyncio.timeout(10):
        while True:  # the server notices the closed sockets on its own time
            counters = (await http.get("/api/stats")).json()["ai"]
            if counters["workers_connected"] == 1:
                break
    assert counters["worker_connections"] == 3
    await third.close()
