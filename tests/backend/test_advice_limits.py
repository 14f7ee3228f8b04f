"""Advice is capped: one search per decision (asked again, the stored answer is sent
again), and a per-player budget; a refused advice says why on the socket."""

from __future__ import annotations

from typing import Any

from backend_testlib import AI_SECRET, RunningServer, TestWorker, my_turn, passive, play_to_own_turn
from test_ai_workers import ADVICE, bot_table


async def test_advice_is_searched_once_per_decision(server: RunningServer) -> None:
    worker = await TestWorker.connect(server, AI_SECRET)
    alice, _, _ = await bot_table(server)
    await play_to_own_turn(alice, worker, 2)
    await alice.send({"type": "advice", "ref": "a1"})
    query = await worker.query()
    assert query["purpose"] == "advice"
    await worker.answer(query, "call", advice=ADVICE)
    first = await alice.wait_type("advice")
    queries = server.state.gateway.counters["queries"]
    for ref in ("a2", "a3", "a4"):  # asked again: the same answer at once, no new search
        await alice.send({"type": "advice", "ref": ref})
        again = await alice.wait_type("advice")
        assert again["ref"] == ref
        assert {**again, "ref": None} == {**first, "ref": None}
    await alice.send({"type": "ping", "ref": "flush"})
    await alice.wait_type("pong")
    assert server.state.gateway.counters["queries"] == queries
    await worker.close()


async def test_each_player_has_an_advice_budget(server_factory: Any) -> None:
    server = await server_factory(advice_burst=2, advice_per_hour=1)
    alice, _, _ = await bot_table(server)  # no worker: the fallback answers at once
    answered = 0
    while True:
        state = await alice.wait_state(my_turn)
        await alice.send({"type": "advice", "ref": f"r{answered}"})
        reply = await alice.wait_for(lambda m: m["type"] in ("advice", "error"))
        if reply["type"] == "error":
            break
        answered += 1
        await alice.send(passive(state["view"]))
    assert answered == 2
    assert reply["code"] == "advice_limited" and reply["ref"] == f"r{answered}"
    assert "advice is limited to 2 at once and 1 an hour" in reply["message"]
    # The seat is still Alice's to play: the refusal changed nothing.
    await alice.send(passive(state["view"]))
    await alice.wait_state(lambda s: (s["cause"] or {}).get("seat") == 2)
