"""advice_allowed=false: "Let AI decide" still plays the seat, but no advice reaches anyone."""

from __future__ import annotations

from backend_testlib import (
    AI_SECRET,
    RunningServer,
    TestWorker,
    WsClient,
    passive_action,
    play_to_own_turn,
)
from test_ai_workers import ADVICE, bot_table


async def no_advice_so_far(alice: WsClient) -> None:
    """Everything the server sent before a pong has arrived: none of it is advice."""
    await alice.send({"type": "ping", "ref": "flush"})
    await alice.wait_type("pong")
    assert [m for m in alice.received if m["type"] == "advice"] == []
    assert all("Priced in" not in raw for raw in alice.raw)


async def test_ai_decide_plays_without_advice_from_a_worker(server: RunningServer) -> None:
    worker = await TestWorker.connect(server, AI_SECRET)
    alice, _, _ = await bot_table(server, advice_allowed=False)
    await play_to_own_turn(alice, worker, 2)
    await alice.send({"type": "ai_decide", "ref": "d1"})
    query = await worker.query()
    assert query["purpose"] == "ai_decide"
    action = passive_action(query["legal"])
    await worker.answer(query, action, advice={**ADVICE, "action": action})
    state = await alice.wait_state(lambda s: (s["cause"] or {}).get("by") == "ai")
    assert state["cause"]["seat"] == 2 and state["cause"]["action"]["kind"] == action
    await no_advice_so_far(alice)
    await worker.close()


async def test_ai_decide_plays_without_fallback_advice(server: RunningServer) -> None:
    alice, _, _ = await bot_table(server, advice_allowed=False)
    await alice.wait_state(lambda s: s["view"]["actor"] == 2)
    await alice.send({"type": "ai_decide"})
    await alice.wait_state(lambda s: (s["cause"] or {}).get("by") == "ai")
    await no_advice_so_far(alice)
