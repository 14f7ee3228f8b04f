"""Hand review end to end: a hand played through the real server, reviewed by a real AI
worker (the advisor's search), stored with the hand; REST errors and bounds."""

from __future__ import annotations

import asyncio
import json
import sys
import threading
from pathlib import Path
from typing import Any, cast

import httpx
import pytest
import test_worker_backend as worker_tests
import websockets
from fastapi import HTTPException
from test_worker_backend import TIMEOUT, Server, running_worker, wait_until

from ai.worker.client import Lanes, WorkerClient
from ai.worker.decider import REVIEW_YIELDED, Decider, warm_up
from backend import ai_gateway
from backend.quotas import Quota
from backend.review.decisions import decision_points
from backend.review.service import ReviewService
from protocol.messages import (
    DECLINE_TIMEOUT,
    DecisionAnswer,
    DecisionDecline,
    DecisionQuery,
    QueryPurpose,
)

sys.path.insert(0, str(Path(__file__).parents[1] / "backend"))
from test_review_decisions import DECK, LINE, played  # the hand-made hand

# The server under uvicorn with the embedded database, as the worker's own tests start it.
mongo_url = worker_tests.mongo_url
server = worker_tests.server


async def play_hands(server: Server, count: int) -> tuple[str, str, list[str]]:
    """Alice (seat 2) checks or calls through `count` hands against a bot; no worker runs,
    so the bot plays the fallback policy at once. Returns her token, id and hand ids."""
    token, table = await server.guest_and_table(
        variant="no-limit", seats=2, bots=1, bot_styles=["rational"], small_blind=1, big_blind=2
    )
    url = f"ws://127.0.0.1:{server.port}/ws/tables/{table['table_id']}"
    async with websockets.connect(url, open_timeout=10) as ws:
        await ws.send(json.dumps({"type": "auth", "token": token}))
        await ws.send(json.dumps({"type": "sit", "seat": 2, "buy_in": table["max_buy_in"]}))
        player_id = ""
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
            if message["type"] == "welcome":
                player_id = message["player_id"]
            if message["type"] != "state":
                continue
            view = message["view"]
            over = view["hand_no"] == count and not view["hand_in_progress"]
            if view["hand_no"] > count or over:
                break
            if view["hand_in_progress"] and view["actor"] == view["viewer_seat"]:
                legal = view["legal_actions"]
                action = "check" if legal["can_check"] else "call"
                await ws.send(json.dumps({"type": "act", "action": action}))
        await ws.send(json.dumps({"type": "stand"}))
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=server.http, headers=headers) as http:

        async def filed() -> bool:
            return bool((await http.get("/api/hands")).json()["total"] >= count)

        await wait_until(filed)
        hands = (await http.get("/api/hands")).json()["items"]
    return token, player_id, [h["hand_id"] for h in hands]


async def test_a_review_computed_by_a_real_worker_is_stored_with_the_hand(server: Server) -> None:
    # Two hands: heads-up, Alice is on the button (and acts first) in one of them.
    token, player_id, hand_ids = await play_hands(server, 2)
    mine = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=server.http, headers=mine) as http:
        records = {h: (await http.get(f"/api/hands/{h}")).json()["record"] for h in hand_ids}
        hand_id = max(hand_ids, key=lambda h: len(_acts(records[h], player_id)))
        missing = await http.get(f"/api/hands/{hand_id}/review")
        assert missing.status_code == 404 and "POST" in missing.json()["detail"]
        started = await http.post(f"/api/hands/{hand_id}/review")
        assert started.status_code == 202, started.text
        body = started.json()
        assert body["status"] == "working" and body["done"] == 0 and body["total"] >= 1
        assert body["message"] == "no AI worker is connected: the review waits for one"
        record = records[hand_id]

        async def done() -> bool:
            status = (await http.get(f"/api/hands/{hand_id}/review")).json()
            assert status["status"] != "failed", status["message"]
            return bool(status["status"] == "done")

        assert not await done()  # no worker yet: the review waits for one
        # A worker's processes compile the search before their first query; in threads
        # mode this one compiles it here, so no review query waits for the compiler.
        await asyncio.to_thread(warm_up)
        async with running_worker(server.ai_url):
            await wait_until(done)
        review = (await http.get(f"/api/hands/{hand_id}/review")).json()["review"]
        again = await http.post(f"/api/hands/{hand_id}/review")
        assert again.status_code == 200 and again.json()["review"] == review  # stored

    acted = _acts(record, player_id)
    assert [d["event_index"] for d in review["decisions"]] == acted
    for decision in review["decisions"]:
        event = record["events"][decision["event_index"]]
        assert decision["taken"]["kind"] == event["kind"]
        values = decision["values"]
        assert values and decision["best"]["value_bb"] == max(v["value_bb"] for v in values)
        assert any(v["stderr_bb"] is not None and v["share"] is not None for v in values)
        assert decision["matched"]["action"] == event["kind"]
        expected = decision["best"]["value_bb"] - decision["matched"]["value_bb"]
        assert abs(decision["grade_bb"] - expected) < 1e-6 and decision["grade_bb"] >= 0
    total = sum(d["grade_bb"] for d in review["decisions"])
    assert abs(review["total_grade_bb"] - total) < 1e-6
    stored = await server.app.state.showdown.mongo.db.reviews.find_one(
        {"_id": f"{hand_id}/{player_id}"}
    )
    assert stored is not None and len(stored["decisions"]) == len(acted)
    stats = (await http_stats(server))["ai"]
    assert stats["reviews_answered"] == len(acted) and stats["reviews_waiting"] == 0


def _acts(record: dict[str, Any], player_id: str) -> list[int]:
    """Indexes of the player's actions among the hand's events."""
    seat = next(s["seat"] for s in record["seats"] if s["player_id"] == player_id)
    kinds = ("fold", "check", "call", "bet", "raise")
    return [i for i, e in enumerate(record["events"]) if e["seat"] == seat and e["kind"] in kinds]


async def http_stats(server: Server) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=server.http) as http:
        body: dict[str, Any] = (await http.get("/api/stats")).json()
        return body


async def test_only_a_player_of_the_hand_may_ask_and_reviews_are_bounded(server: Server) -> None:
    token, player_id, hand_ids = await play_hands(server, 4)
    async with httpx.AsyncClient(base_url=server.http) as http:
        other = (await http.post("/api/auth/guest", json={"name": "Mallory"})).json()["token"]
        refused = await http.post(
            f"/api/hands/{hand_ids[0]}/review", headers={"Authorization": f"Bearer {other}"}
        )
        assert refused.status_code == 403 and "dealt into" in refused.json()["detail"]
        unknown = await http.post(
            "/api/hands/nope-1/review", headers={"Authorization": f"Bearer {token}"}
        )
        assert unknown.status_code == 404
        anonymous = await http.post(f"/api/hands/{hand_ids[0]}/review")
        assert anonymous.status_code == 401
        paths = (await http.get("/openapi.json")).json()["paths"]
        assert {"get", "post"} <= set(paths["/api/hands/{hand_id}/review"])

    # No worker: reviews stay in progress, so the bounds show. Heads-up, Alice is on the
    # button (and acts first) in every other hand.
    acted = [h for h in hand_ids if _acts(await record_of(server, token, h), player_id)]
    assert len(acted) >= 2
    state = server.app.state.showdown
    mine = Quota("hand reviews", 10, 1, "for you")
    service = ReviewService(state.mongo.db, state.gateway, mine, max_active=1)
    few = ReviewService(state.mongo.db, state.gateway, Quota("hand reviews", 1, 1, "for you"))
    try:
        first = await service.start(acted[0], player_id)
        assert first.status == "working" and first.total >= 1
        assert (await service.start(acted[0], player_id)) == first  # the same, not twice
        with pytest.raises(HTTPException, match="at most 1 of your reviews") as busy:
            await service.start(acted[1], player_id)
        assert busy.value.status_code == 429
        await few.start(acted[1], player_id)
        with pytest.raises(HTTPException, match="too many hand reviews for you") as spent:
            await few.start(acted[0], player_id)
        assert spent.value.status_code == 429
        assert (spent.value.headers or {}).get("Retry-After") == "3600"
    finally:
        await service.close()
        await few.close()


async def record_of(server: Server, token: str, hand_id: str) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=server.http, headers=headers) as http:
        record: dict[str, Any] = (await http.get(f"/api/hands/{hand_id}")).json()["record"]
        return record


def review_query(table_id: str = "t-review", purpose: QueryPurpose = QueryPurpose.REVIEW) -> Any:
    point = decision_points(played(LINE, DECK), "alice")[1]
    return DecisionQuery(
        request_id=f"r-{purpose.value}",
        purpose=purpose,
        table_id=table_id,
        hand_no=1,
        seat=point.legal.seat,
        style=None if purpose is QueryPurpose.REVIEW else "loki",
        view=point.view,
        legal=point.legal,
        deadline=0,
        timeout_ms=5000,
        want_advice=purpose is not QueryPurpose.BOT,
    )


def test_a_review_yields_its_lane_to_a_live_query() -> None:
    assert REVIEW_YIELDED == ai_gateway.REVIEW_YIELDED  # the worker and the server agree
    flag = threading.Event()
    decider = Decider(yield_flag=flag)
    answered = decider.answer(review_query(), 2.0)
    assert isinstance(answered, DecisionAnswer) and answered.advice and answered.advice.values
    flag.set()  # a live query waits for this lane: the search stops, the review is declined
    declined = decider.answer(review_query(), 2.0)
    assert isinstance(declined, DecisionDecline) and declined.reason == REVIEW_YIELDED
    live = decider.answer(review_query(purpose=QueryPurpose.BOT), 2.0)
    assert isinstance(live, DecisionAnswer)  # a live query never yields


def test_the_worker_flags_a_lane_only_while_a_review_runs_there() -> None:
    lanes = Lanes(2, threads=True)
    try:
        review = review_query()
        lane = lanes.started(review)
        assert not lanes.flags[lane].is_set()
        other = next(t for t in (f"t{i}" for i in range(50)) if lanes.lane_of(t) != lane)
        other_live = review_query(other, QueryPurpose.BOT)
        lanes.finished(other_live, lanes.started(other_live))
        assert not lanes.flags[lane].is_set()  # another lane's live query: no yield
        live = review_query(purpose=QueryPurpose.BOT)
        assert lanes.started(live) == lane and lanes.flags[lane].is_set()
        lanes.finished(live, lane)
        lanes.finished(review, lane)
        assert not lanes.flags[lane].is_set() and lanes.reviewing == [0, 0]
    finally:
        lanes.shutdown()


class SentMessages:
    """The worker's socket to the gateway, as far as `_answer` uses it: what it sends."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send(self, message: str) -> None:
        self.sent.append(message)


async def test_a_review_its_busy_lane_did_not_reach_in_time_leaves_the_lane() -> None:
    client = WorkerClient("http://127.0.0.1:1", "secret", concurrency=1, threads=True)
    try:
        release = threading.Event()
        busy = client.lanes.executors[0].submit(release.wait)  # live work holding the lane
        query = review_query().model_copy(update={"timeout_ms": 100})
        socket = SentMessages()
        await client._answer(cast(Any, socket), query, query.model_dump_json())
        declined = DecisionDecline.model_validate_json(socket.sent[0])
        assert declined.reason == DECLINE_TIMEOUT == "timeout"
        # Cancelled while queued: it no longer counts in its lane (it never ran), and the
        # lane is not left flagged for a live query.
        assert client.lanes.reviewing == [0] and not client.lanes.flags[0].is_set()
        release.set()
        busy.result()
    finally:
        client.lanes.shutdown()
