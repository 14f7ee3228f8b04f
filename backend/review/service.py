"""Hand reviews: asked of the AI workers at low priority, stored with the hand once done.

A review of (hand, player) rebuilds each of the player's decisions as they saw it
(backend.review.decisions), asks the gateway's review queue for the advisor's
values of each (they never delay a live query: backend.ai_gateway), grades the
action taken (backend.review.grade) and, once every decision is computed, stores
the review in the `reviews` collection under "<hand_id>/<player_id>". Asking again
returns the stored one. Work in progress lives in memory: after a restart a review
that was not finished is simply asked for again.

Bounded: a player has at most MAX_ACTIVE reviews in progress, and starts at most
REVIEW_BURST at once, regaining REVIEWS_PER_HOUR an hour (backend.quotas).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime

from fastapi import HTTPException, status
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import PyMongoError

from backend.ai_gateway import AIGateway, ReviewUnavailable
from backend.db.codec import Document, record_from_doc
from backend.quotas import Quota
from backend.review.decisions import DecisionPoint, ReviewError, decision_points
from backend.review.grade import grade
from backend.review.schemas import (
    HandReview,
    ReviewedDecision,
    ReviewState,
    ReviewStatus,
)

log = logging.getLogger(__name__)

MAX_ACTIVE = 3  # reviews in progress per player
REVIEW_BURST = 20  # reviews a player may start at once ...
REVIEWS_PER_HOUR = 120  # ... and regains an hour
FAILED_KEPT = 1000  # failed reviews remembered to report why


def review_key(hand_id: str, player_id: str) -> str:
    return f"{hand_id}/{player_id}"


@dataclass
class _Job:
    hand_id: str
    player_id: str
    total: int
    done: int = 0
    failed: str | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def status(self) -> ReviewStatus:
        state = ReviewState.FAILED if self.failed is not None else ReviewState.WORKING
        return ReviewStatus(
            hand_id=self.hand_id,
            status=state,
            done=self.done,
            total=self.total,
            message=self.failed or "the AI reviews your decisions when it is not playing",
        )


class ReviewService:
    def __init__(
        self,
        db: AsyncDatabase[Document],
        gateway: AIGateway,
        quota: Quota | None = None,
        max_active: int = MAX_ACTIVE,
    ) -> None:
        self._col = db.reviews
        self._hands = db.hands
        self._gateway = gateway
        self._quota = quota or Quota("hand reviews", REVIEW_BURST, REVIEWS_PER_HOUR, "for you")
        self._max_active = max_active
        self._jobs: dict[str, _Job] = {}

    async def start(self, hand_id: str, player_id: str) -> ReviewStatus:
        """The stored review, the one in progress, or a new one started."""
        key = review_key(hand_id, player_id)
        stored = await self._stored(key)
        if stored is not None:
            return stored
        job = self._jobs.get(key)
        if job is not None and job.failed is None:
            return self._report(job)
        record_doc = await self._hand_of(hand_id, player_id)
        active = sum(
            1 for j in self._jobs.values() if j.player_id == player_id and j.failed is None
        )
        if active >= self._max_active:
            raise HTTPException(
                status.HTTP_429_TOO_MANY_REQUESTS,
                f"at most {self._max_active} of your reviews may be in progress at once: "
                "wait for one to finish",
                headers={"Retry-After": "5"},
            )
        try:
            points = decision_points(record_from_doc(record_doc), player_id)
        except ReviewError as error:
            raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, str(error)) from error
        self._quota.take(player_id)
        job = self._jobs[key] = _Job(hand_id, player_id, len(points))
        seat = next(s["seat"] for s in record_doc["seats"] if s["player_id"] == player_id)
        big_blind = int(record_doc["config"]["big_blind"])
        if not points:  # a walk: nothing to ask the workers
            await self._run(job, points, seat, big_blind)
            return await self._stored(key) or job.status()
        job.task = asyncio.create_task(self._run(job, points, seat, big_blind))
        return self._report(job)

    async def status(self, hand_id: str, player_id: str) -> ReviewStatus | None:
        """None when it was never asked for (or was lost to a restart)."""
        key = review_key(hand_id, player_id)
        stored = await self._stored(key)
        if stored is not None:
            return stored
        job = self._jobs.get(key)
        if job is None:
            await self._hand_of(hand_id, player_id)  # 404 or 403 first, as for POST
        return self._report(job) if job is not None else None

    async def close(self) -> None:
        tasks = [j.task for j in self._jobs.values() if j.task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    # -- internals -----------------------------------------------------------------

    def _report(self, job: _Job) -> ReviewStatus:
        report = job.status()
        if report.status is ReviewState.WORKING and self._gateway.worker_count == 0:
            report.message = "no AI worker is connected: the review waits for one"
        return report

    def _forget_failed(self) -> None:
        """Failed reviews are kept to be reported, the oldest dropped past FAILED_KEPT."""
        failed = [key for key, job in self._jobs.items() if job.failed is not None]
        for key in failed[: max(0, len(failed) - FAILED_KEPT)]:
            del self._jobs[key]

    async def _hand_of(self, hand_id: str, player_id: str) -> Document:
        doc = await self._hands.find_one({"_id": hand_id}, {"player_ids": 1, "record": 1})
        if doc is None:
            raise HTTPException(status.HTTP_404_NOT_FOUND, f"no hand {hand_id!r}")
        if player_id not in doc.get("player_ids", []):
            raise HTTPException(
                status.HTTP_403_FORBIDDEN,
                "only a player dealt into this hand may ask for its review",
            )
        record: Document = doc["record"]
        return record

    async def _stored(self, key: str) -> ReviewStatus | None:
        doc = await self._col.find_one({"_id": key})
        if doc is None:
            return None
        doc.pop("_id", None)
        review = HandReview.model_validate(doc)
        count = len(review.decisions)
        return ReviewStatus(
            hand_id=review.hand_id, status=ReviewState.DONE, done=count, total=count, review=review
        )

    async def _run(self, job: _Job, points: list[DecisionPoint], seat: int, bb: int) -> None:
        async def one(point: DecisionPoint) -> ReviewedDecision:
            advice = await self._gateway.review(point.view, point.legal)
            graded = grade(advice.values, point.taken)
            job.done += 1
            return ReviewedDecision(
                event_index=point.event_index,
                street=point.street,
                taken=point.taken,
                values=advice.values,
                best=graded.best,
                matched=graded.matched,
                grade_bb=graded.grade_bb,
                grade_stderr_bb=graded.grade_stderr_bb,
                equity=advice.equity,
                reason=advice.reason,
            )

        tasks = [asyncio.create_task(one(p)) for p in points]
        try:
            decisions = [await task for task in tasks]
            review = HandReview(
                hand_id=job.hand_id,
                player_id=job.player_id,
                seat=seat,
                big_blind=bb,
                computed_at=datetime.now(UTC),
                decisions=decisions,
                total_grade_bb=round(sum(d.grade_bb or 0.0 for d in decisions), 3),
            )
            doc = {"_id": review_key(job.hand_id, job.player_id), **review.model_dump(mode="json")}
            doc["computed_at"] = review.computed_at  # a date in the database, not text
            await self._col.replace_one({"_id": doc["_id"]}, doc, upsert=True)
        except (ReviewUnavailable, PyMongoError, ValueError) as error:
            job.failed = f"the review could not be computed: {error}"[:300]
            log.warning("hand review failed", extra={"hand_id": job.hand_id, "why": str(error)})
            self._forget_failed()
            return
        finally:
            for task in tasks:  # one failed: the others need not wait for a worker
                task.cancel()
        self._jobs.pop(review_key(job.hand_id, job.player_id), None)
        log.info("hand reviewed", extra={"hand_id": job.hand_id, "decisions": len(decisions)})
