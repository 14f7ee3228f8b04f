"""Review queries never delay a live query: they wait in their own queue and go out only
to a worker with nothing in flight (real server, real WebSocket workers answering by hand).
Shown by the order of the messages the workers receive, not by wall time."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from backend_testlib import AI_SECRET, RunningServer, TestWorker
from test_review_decisions import DECK, LINE, played

from backend import ai_gateway
from backend.review.decisions import DecisionPoint, decision_points
from protocol.messages import DECLINE_TIMEOUT, AdviceSource, QueryPurpose

ADVICE = {
    "action": "call",
    "values": [
        {"action": "fold", "value_bb": 0.0},
        {"action": "call", "value_bb": 1.5, "stderr_bb": 0.2, "share": 0.6},
    ],
}


def spot() -> DecisionPoint:
    return decision_points(played(LINE, DECK), "alice")[1]  # alice to check or bet the flop


async def next_message(worker: TestWorker) -> dict[str, Any]:
    return await worker.client.wait_for(lambda m: True)


async def answer(worker: TestWorker, query: dict[str, Any]) -> None:
    legal = query["legal"]
    await worker.answer(query, "check" if legal["can_check"] else "call", advice=ADVICE)


async def test_a_full_review_queue_never_holds_a_live_query(server: RunningServer) -> None:
    gateway = server.state.gateway
    point = spot()
    worker = await TestWorker.connect(server, AI_SECRET, capacity=4)
    reviews = [asyncio.create_task(gateway.review(point.view, point.legal)) for _ in range(50)]
    first = await next_message(worker)
    assert first["purpose"] == QueryPurpose.REVIEW  # one review out, to the idle worker
    seen = {s["seat"]: s["hole_cards"] for s in first["view"]["seats"]}
    assert seen == {1: ["Ah", "Kh"], 3: None, 5: None}  # the reviewed player's cards only
    assert gateway.stats()["reviews_waiting"] == 49

    live = asyncio.create_task(
        gateway.decide(
            purpose=QueryPurpose.BOT,
            view=point.view,
            legal=point.legal,
            style="loki",
            time_limit=10.0,
        )
    )
    second = await next_message(worker)
    assert second["purpose"] == QueryPurpose.BOT  # at once: 49 reviews still wait

    await answer(worker, first)  # the review ends while the live query is out ...
    await worker.client.send({"type": "ping"})
    assert (await next_message(worker))["type"] == "pong"  # ... and no review followed it
    assert gateway.stats()["reviews_waiting"] == 49

    await answer(worker, second)
    decision = await live
    assert decision.source is AdviceSource.WORKER
    advice = await reviews[0]
    assert [v.value_bb for v in advice.values] == [0.0, 1.5] and advice.values[1].stderr_bb == 0.2
    third = await next_message(worker)  # idle again: the next review goes
    assert third["purpose"] == QueryPurpose.REVIEW
    assert gateway.stats()["reviews_waiting"] == 48
    for task in reviews[1:]:
        task.cancel()
    await asyncio.gather(*reviews[1:], return_exceptions=True)


async def test_a_live_query_goes_to_the_worker_that_is_not_reviewing(
    server: RunningServer,
) -> None:
    gateway = server.state.gateway
    point = spot()
    busy = await TestWorker.connect(server, AI_SECRET, name="busy", capacity=4)
    review = asyncio.create_task(gateway.review(point.view, point.legal))
    query = await next_message(busy)
    assert query["purpose"] == QueryPurpose.REVIEW
    idle = await TestWorker.connect(server, AI_SECRET, name="idle", capacity=4)
    for _ in range(3):
        live = asyncio.create_task(
            gateway.decide(
                purpose=QueryPurpose.ADVICE,
                view=point.view,
                legal=point.legal,
                style=None,
                time_limit=10.0,
            )
        )
        sent = await next_message(idle)
        assert sent["purpose"] == QueryPurpose.ADVICE
        await answer(idle, sent)
        assert (await live).worker_id == idle.worker_id
    await answer(busy, query)
    assert (await review).action == "call"
    assert gateway.stats()["reviews_answered"] == 1


async def test_a_review_a_worker_drops_goes_to_another(server: RunningServer) -> None:
    gateway = server.state.gateway
    point = spot()
    first = await TestWorker.connect(server, AI_SECRET, name="first", capacity=1)
    review = asyncio.create_task(gateway.review(point.view, point.legal))
    query = await next_message(first)
    await first.client.send({"type": "decline", "request_id": query["request_id"], "reason": "x"})
    again = await next_message(first)  # the only idle worker: asked again
    assert again["purpose"] == QueryPurpose.REVIEW and again["request_id"] != query["request_id"]
    await first.close()
    second = await TestWorker.connect(server, AI_SECRET, name="second", capacity=1)
    third = await next_message(second)  # the first left with it: re-sent to the newcomer
    assert third["view"] == query["view"]
    await answer(second, third)
    assert len((await review).values) == 2


async def test_a_late_review_is_asked_again_without_quarantining_the_worker(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ai_gateway, "REVIEW_TIMEOUT", 0.2)
    gateway = server.state.gateway
    point = spot()
    worker = await TestWorker.connect(server, AI_SECRET, capacity=1)
    review = asyncio.create_task(gateway.review(point.view, point.legal))
    first = await next_message(worker)  # left unanswered: it times out
    cancel = await next_message(worker)
    assert cancel["type"] == "cancel" and cancel["request_id"] == first["request_id"]
    again = await next_message(worker)  # asked again at once, of the same worker
    assert again["purpose"] == QueryPurpose.REVIEW and again["view"] == first["view"]
    stats = gateway.stats()
    assert stats["quarantines"] == 0 and stats["reviews_late"] == 1
    live = asyncio.create_task(
        gateway.decide(
            purpose=QueryPurpose.BOT, view=point.view, legal=point.legal, style="loki", time_limit=5
        )
    )
    sent = await next_message(worker)  # the worker still gets live queries
    assert sent["purpose"] == QueryPurpose.BOT
    await answer(worker, sent)
    assert (await live).source is AdviceSource.WORKER
    await answer(worker, again)
    assert len((await review).values) == 2


@pytest.mark.parametrize(
    ("reason", "counter"),
    [(ai_gateway.REVIEW_YIELDED, "reviews_yielded"), (DECLINE_TIMEOUT, "reviews_busy")],
    ids=["yielded-to-a-live-query", "its-busy-lane-timed-out"],
)
async def test_a_review_declined_as_busy_is_asked_again_without_failing(
    server: RunningServer, reason: str, counter: str
) -> None:
    gateway = server.state.gateway
    point = spot()
    worker = await TestWorker.connect(server, AI_SECRET, capacity=1)
    review = asyncio.create_task(gateway.review(point.view, point.legal))
    for _ in range(ai_gateway.REVIEW_TRIES + 2):  # more than the tries a failure allows
        query = await next_message(worker)
        assert query["purpose"] == QueryPurpose.REVIEW
        decline = {"type": "decline", "request_id": query["request_id"]}
        await worker.client.send({**decline, "reason": reason})
    await answer(worker, await next_message(worker))
    assert len((await review).values) == 2
    stats = gateway.stats()
    assert stats[counter] == ai_gateway.REVIEW_TRIES + 2
    assert stats.get("reviews_failed", 0) == 0 and stats["quarantines"] == 0


async def test_a_review_busy_past_its_wait_fails(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ai_gateway, "REVIEW_WAIT_MAX", 0.0)
    gateway = server.state.gateway
    point = spot()
    worker = await TestWorker.connect(server, AI_SECRET, capacity=1)
    review = asyncio.create_task(gateway.review(point.view, point.legal))
    query = await next_message(worker)
    await worker.client.send(
        {"type": "decline", "request_id": query["request_id"], "reason": DECLINE_TIMEOUT}
    )
    with pytest.raises(ai_gateway.ReviewUnavailable, match="too busy"):
        await review
    assert gateway.stats()["reviews_failed"] == 1


async def test_a_review_failing_on_the_worker_fails_after_its_tries_saying_why(
    server: RunningServer, caplog: pytest.LogCaptureFixture
) -> None:
    gateway = server.state.gateway
    point = spot()
    worker = await TestWorker.connect(server, AI_SECRET, capacity=1)
    review = asyncio.create_task(gateway.review(point.view, point.legal))
    for _ in range(ai_gateway.REVIEW_TRIES):
        query = await next_message(worker)
        decline = {"type": "decline", "request_id": query["request_id"]}
        await worker.client.send({**decline, "reason": "error: ValueError"})
    with pytest.raises(ai_gateway.ReviewUnavailable, match="could not review"):
        await review
    whys = [getattr(r, "why", None) for r in caplog.records if r.message == "review try failed"]
    assert whys == ["declined error: ValueError"] * ai_gateway.REVIEW_TRIES
