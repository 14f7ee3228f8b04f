"""The AI gateway: a pool of worker WebSockets answering request_id-tagged decision queries.

`decide()` always returns a decision: from the least loaded worker when one
answers before the deadline, else from the built-in fallback policy (counted
and logged by reason). When a worker disconnects, its queries in flight are
re-sent to another worker while time remains.

A worker that misbehaves (misses the time it was given, answers an illegal
action, a request it was not sent, or something that is not a message) is
quarantined: it gets no queries for QUARANTINE_BASE seconds, doubling with each
quarantine in a row up to QUARANTINE_MAX, and its queries in flight go to
another worker at once. When the time is up it gets queries again; its first
good answer clears its record. While another worker is available, a query
gives its first worker only part of the time left, so a silent worker still
leaves time to ask a healthy one.

Finished hands (`hand_ended()`) go to every worker as a spectator saw them, so the
workers' bots learn from each hand's end (the cards shown, the last actions); a
worker that cannot take one at once misses that hand rather than delay anything.

Reviews (`review()`: a finished hand's decision, asked for its values afterwards) never
delay a live query: they wait in their own queue and go out only to a worker with
nothing in flight, one at a time; a live query is sent at once whatever waits there,
and prefers a worker that is not reviewing.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import time
import uuid
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Protocol

from pydantic import ValidationError
from starlette.websockets import WebSocket, WebSocketDisconnect

from backend.fallback_policy import fallback_action, fallback_advice, is_legal
from backend.logging import log_context
from backend.realtime.outbox import Outbox
from holdem.actions import Action, LegalActions
from holdem.history import HandRecord
from holdem.views import TableView, observe_record
from protocol.messages import (
    DECLINE_TIMEOUT,
    DECLINE_YIELDED,
    Advice,
    AdviceSource,
    CloseCode,
    DecisionAnswer,
    DecisionDecline,
    DecisionQuery,
    ErrorCode,
    ErrorMessage,
    HandEnded,
    QueryCancel,
    QueryPurpose,
    TournamentSituation,
    WorkerHello,
    WorkerPing,
    WorkerPong,
    WorkerWelcome,
    parse_worker_message,
)

log = logging.getLogger(__name__)

HELLO_TIMEOUT = 10.0
MAX_WORKER_MESSAGE = 256 * 1024
MIN_RESEND_SECONDS = 0.05  # below this a re-sent query could not be answered in time
FIRST_SHARE = 0.5  # of the time left, given to one worker while another could be asked
QUARANTINE_BASE = 2.0  # seconds a misbehaving worker gets no queries, the first time
QUARANTINE_MAX = 60.0
RECENT_REQUESTS = 64  # request ids a worker may still answer late, per worker
REVIEW_QUEUE_MAX = 2000  # review queries waiting for an idle worker, over all players
REVIEW_TIMEOUT = 5.0  # seconds a worker gets to answer one review query
REVIEW_TRIES = 3  # workers asked for one review query before it fails
# A worker's decline of a review whose lane a live query needed: asked again once the
# worker is idle, not counted as a failed try.
REVIEW_YIELDED = DECLINE_YIELDED
# Seconds a review may keep being asked again while workers are busy (it yielded, or its
# lane did not reach it in time): busy is no fault, but a review does not wait forever.
REVIEW_WAIT_MAX = 60.0


class RemoteWorkers(Protocol):
    """Workers connected to other nodes of a cluster (backend.cluster.ai_relay)."""

    def available(self) -> bool:
        """Some other node has a worker that can take a query now."""
        ...

    async def decide(self, query: DecisionQuery, time_limit: float) -> Decision | None:
        """The decision a node with workers made (theirs or its fallback's); None if no
        node answered within `time_limit`."""
        ...

    def share_hand(self, text: str) -> None:
        """A finished hand (HandEnded) for the other nodes' workers."""
        ...

    async def review(self, query: DecisionQuery) -> Advice:
        """A review query answered by a node with workers; ReviewUnavailable if none."""
        ...


class ReviewUnavailable(Exception):
    """A review query could not be answered (queue full, workers failing, shutting down)."""


@dataclass(frozen=True, slots=True)
class Decision:
    action: Action
    advice: Advice | None
    source: AdviceSource
    worker_id: str | None = None
    fallback_reason: str | None = None


@dataclass(frozen=True, slots=True)
class _Gone:
    """The worker holding a query disconnected or declined it."""

    reason: str
    detail: str = ""  # a decline's reason, as the worker gave it


@dataclass
class _Worker:
    worker_id: str
    name: str
    capacity: int
    outbox: Outbox
    inflight: set[str] = field(default_factory=set)
    # Queries it was sent that are over (timed out, re-sent): a late answer is no fault.
    recent: deque[str] = field(default_factory=lambda: deque(maxlen=RECENT_REQUESTS))
    quarantined_until: float = 0.0  # loop time
    strikes: int = 0  # quarantines in a row, without a good answer since
    reviewing: bool = False  # a review query is out to it (set before it is sent)

    @property
    def load(self) -> float:
        return len(self.inflight) / self.capacity

    def quarantined(self, now: float) -> bool:
        return now < self.quarantined_until


@dataclass
class _Pending:
    worker: _Worker
    future: asyncio.Future[DecisionAnswer | _Gone]


@dataclass
class _Review:
    view: TableView
    legal: LegalActions
    future: asyncio.Future[Advice]
    queued_at: float  # the loop's clock when it was asked for
    tries: int = 0


def _query(
    request_id: str,
    purpose: QueryPurpose,
    view: TableView,
    legal: LegalActions,
    style: str | None,
    seconds: float,
    want_advice: bool,
    tournament: TournamentSituation | None = None,
) -> DecisionQuery:
    """The query for `legal.seat` at `view`, due `seconds` from now."""
    return DecisionQuery(
        request_id=request_id,
        purpose=purpose,
        table_id=view.table_id,
        hand_no=view.hand_no,
        seat=legal.seat,
        style=style,
        view=view,
        legal=legal,
        deadline=time.time() * 1000 + seconds * 1000,
        timeout_ms=int(seconds * 1000),
        want_advice=want_advice,
        tournament=tournament,
    )


class AIGateway:
    def __init__(self, shared_secret: str, send_queue_size: int = 256) -> None:
        self._secret = shared_secret
        self._queue_size = send_queue_size
        self._workers: dict[str, _Worker] = {}
        self._pending: dict[str, _Pending] = {}
        self.counters: Counter[str] = Counter()
        self.quarantine_base = QUARANTINE_BASE
        self._reviews: deque[_Review] = deque()
        self._review_tasks: set[asyncio.Task[None]] = set()
        self._review_timer: asyncio.TimerHandle | None = None
        # On a cluster's node: a query no worker here can take goes to a node with one.
        self.remote: RemoteWorkers | None = None

    @property
    def worker_count(self) -> int:
        return len(self._workers)

    def quarantined_count(self) -> int:
        now = asyncio.get_running_loop().time()
        return sum(1 for w in self._workers.values() if w.quarantined(now))

    def stats(self) -> dict[str, int]:
        """Counters since start; `workers_connected`, `workers_quarantined` and
        `reviews_waiting` are now."""
        keys = (
            "queries", "answered", "resent", "fallbacks", "invalid_answers", "quarantines",
            "hands_sent", "hands_dropped",
        )  # fmt: skip
        return {
            **dict.fromkeys(keys, 0),
            **self.counters,
            "workers": self.worker_count,
            "workers_connected": self.worker_count,
            "workers_quarantined": self.quarantined_count(),
            "reviews_waiting": len(self._reviews),
        }

    # -- deciding ------------------------------------------------------------

    def decide_now(self, view: TableView, legal: LegalActions) -> Decision | None:
        """A bot's decision without a round trip when no worker could take the query.

        None when a worker is connected: then `decide` asks it. Counted as `decide` does.
        """
        if self._pick(set()) is not None:
            return None
        if self.remote is not None and self.remote.available():
            return None  # a worker on another node: `decide` relays the query
        self.counters["queries"] += 1
        return self._fallback(view, legal, "no_worker", False)

    async def decide(
        self,
        *,
        purpose: QueryPurpose,
        view: TableView,
        legal: LegalActions,
        style: str | None,
        time_limit: float,
        tournament: TournamentSituation | None = None,
        local_only: bool = False,
    ) -> Decision:
        """A legal decision for `legal.seat` within `time_limit` seconds, from a worker or not.

        `tournament` (prizes and stacks) lets the AI value the decision in prize equity.
        With no worker here, a cluster's node relays the query to a node that has one
        (unless `local_only`: the query was relayed here)."""
        request_id = uuid.uuid4().hex
        want_advice = purpose is not QueryPurpose.BOT
        with log_context(table_id=view.table_id, hand_no=view.hand_no, request_id=request_id):
            self.counters["queries"] += 1
            loop = asyncio.get_running_loop()
            deadline = loop.time() + time_limit
            tried: set[str] = set()
            reason = "no_worker"
            remote = self.remote
            if (
                not local_only
                and remote is not None
                and self._pick(tried) is None
                and remote.available()
            ):
                query = _query(
                    request_id, purpose, view, legal, style, time_limit, want_advice, tournament
                )
                relayed = await remote.decide(query, time_limit)
                if relayed is not None:
                    self.counters["relayed"] += 1
                    return relayed
                self.counters["relay_failed"] += 1
                reason = "timeout"
                deadline = loop.time()  # the time is spent: the fallback decides
            while True:
                worker = self._pick(tried)
                remaining = deadline - loop.time()
                if worker is None or remaining < MIN_RESEND_SECONDS:
                    reason = reason if worker is None else "timeout"
                    return self._fallback(view, legal, reason, want_advice)
                if tried:
                    self.counters["resent"] += 1
                    log.info("re-sending query", extra={"reason": reason})
                tried.add(worker.worker_id)
                if self._pick(tried) is not None:  # leave time to ask another worker
                    remaining = max(MIN_RESEND_SECONDS, remaining * FIRST_SHARE)
                query = _query(
                    request_id, purpose, view, legal, style, remaining, want_advice, tournament
                )
                result = await self._ask(worker, query, remaining)
                if result is None:
                    self._quarantine(worker, "missed the deadline it was given")
                    reason = "timeout"
                    continue
                if isinstance(result, _Gone):
                    reason = result.reason
                    continue
                decision = self._accept(result, worker, view, legal, want_advice)
                if decision is None:
                    reason = "invalid"
                    continue
                return decision

    def can_take(self) -> bool:
        """A worker here could take a query now (connected, not quarantined)."""
        return self._pick(set()) is not None

    def _pick(self, exclude: set[str]) -> _Worker | None:
        now = asyncio.get_running_loop().time()
        candidates = [
            w
            for w in self._workers.values()
            if w.worker_id not in exclude and not w.outbox.closing and not w.quarantined(now)
        ]
        return min(candidates, key=lambda w: (w.load, w.reviewing), default=None)

    # -- finished hands -----------------------------------------------------------

    def hand_ended(self, record: HandRecord) -> None:
        """Send the finished hand to every worker, hole cards only where they were shown.

        Never waits: a worker whose send queue is full misses this hand (counted).
        """
        if not self._workers and self.remote is None:
            return
        text = HandEnded(record=observe_record(record, None)).model_dump_json()
        if self.remote is not None and self._pick(set()) is None:
            self.remote.share_hand(text)  # the workers that decide for this node's bots
        self.hand_text(text)

    def hand_text(self, text: str) -> None:
        """A finished hand's HandEnded message, to every worker here (never waits)."""
        for worker in self._workers.values():
            sent = worker.outbox.put(text)
            self.counters["hands_sent" if sent else "hands_dropped"] += 1

    # -- reviews: low priority ---------------------------------------------------

    async def review(
        self, view: TableView, legal: LegalActions, local_only: bool = False
    ) -> Advice:
        """The advisor's values for a past decision (`view` as its seat saw it then).

        Waits in the review queue for an idle worker; raises ReviewUnavailable when the
        queue is full or REVIEW_TRIES workers could not answer. No fallback: a review
        without the search's values is no review. On a cluster's node with no worker,
        the review goes to a node that has one (unless `local_only`: relayed here).
        """
        remote = self.remote
        if not local_only and remote is not None and not self._workers and remote.available():
            self.counters["reviews_relayed"] += 1
            request_id = uuid.uuid4().hex
            query = _query(request_id, QueryPurpose.REVIEW, view, legal, None, REVIEW_TIMEOUT, True)
            return await remote.review(query)
        if len(self._reviews) >= REVIEW_QUEUE_MAX:
            raise ReviewUnavailable("too many reviews are waiting: try again later")
        loop = asyncio.get_running_loop()
        job = _Review(view, legal, loop.create_future(), loop.time())
        self._reviews.append(job)
        self.counters["reviews"] += 1
        self._dispatch_reviews()
        try:
            return await job.future
        finally:
            if not job.future.done():  # the caller gave up: nobody needs the answer
                job.future.cancel()

    def _dispatch_reviews(self) -> None:
        """Send waiting reviews to workers with nothing in flight, one each."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        while self._reviews and self._reviews[0].future.done():
            self._reviews.popleft()  # given up while it waited
        while self._reviews:
            idle = [
                w
                for w in self._workers.values()
                if not w.inflight and not w.reviewing and not w.outbox.closing
            ]
            worker = next((w for w in idle if not w.quarantined(now)), None)
            if worker is None:
                if idle and self._review_timer is None:  # retry when a quarantine ends
                    wake = min(w.quarantined_until for w in idle) - now
                    self._review_timer = loop.call_later(max(wake, 0.0), self._wake_reviews)
                return
            job = self._reviews.popleft()
            if job.future.done():
                continue
            worker.reviewing = True  # before the task runs: no second review for it
            task = asyncio.create_task(self._run_review(worker, job))
            self._review_tasks.add(task)
            task.add_done_callback(self._review_tasks.discard)

    def _wake_reviews(self) -> None:
        self._review_timer = None
        self._dispatch_reviews()

    async def _run_review(self, worker: _Worker, job: _Review) -> None:
        request_id = uuid.uuid4().hex
        view, legal = job.view, job.legal
        query = _query(request_id, QueryPurpose.REVIEW, view, legal, None, REVIEW_TIMEOUT, True)
        try:
            with log_context(table_id=view.table_id, hand_no=view.hand_no, request_id=request_id):
                # A late review is no fault: quarantining the worker for it would send
                # live queries elsewhere, or to the fallback policy.
                result = await self._ask(worker, query, REVIEW_TIMEOUT)
                if result is None:
                    self.counters["reviews_late"] += 1
                advice = result.advice if isinstance(result, DecisionAnswer) else None
                if advice is not None and advice.values:
                    worker.strikes = 0
                    self.counters["reviews_answered"] += 1
                    if not job.future.done():
                        job.future.set_result(advice)
                    return
                # Busy is no fault: a browser test's review failed 3 tries in 14 s (each at
                # the worker's 4.5 s deadline) while its lane served other tables' bots.
                yielded = isinstance(result, _Gone) and result.reason == "yielded"
                busy = isinstance(result, _Gone) and result.detail == DECLINE_TIMEOUT
                waited = asyncio.get_running_loop().time() - job.queued_at
                if yielded or busy:
                    self.counters["reviews_yielded" if yielded else "reviews_busy"] += 1
                else:
                    job.tries += 1
                    why = (
                        "late" if result is None
                        else f"{result.reason} {result.detail}".strip() if isinstance(result, _Gone)
                        else "no values"
                    )  # fmt: skip
                    log.warning("review try failed", extra={"try": job.tries, "why": why})
                if job.tries >= REVIEW_TRIES or waited > REVIEW_WAIT_MAX:
                    self.counters["reviews_failed"] += 1
                    why = "could not review" if job.tries >= REVIEW_TRIES else "were too busy for"
                    if not job.future.done():
                        job.future.set_exception(
                            ReviewUnavailable(f"the AI workers {why} this decision")
                        )
                else:
                    self._reviews.appendleft(job)  # its turn again, on another try
        finally:
            worker.reviewing = False
            self._dispatch_reviews()

    def _quarantine(self, worker: _Worker, why: str) -> None:
        """No queries for a while (longer each time in a row); its queries go elsewhere now."""
        now = asyncio.get_running_loop().time()
        if worker.quarantined(now):
            return  # one fault at a time: answers already in flight are not held against it
        seconds = min(QUARANTINE_MAX, self.quarantine_base * 2**worker.strikes)
        worker.strikes += 1
        worker.quarantined_until = now + seconds
        self.counters["quarantines"] += 1
        log.warning(
            "AI worker quarantined",
            extra={"worker_id": worker.worker_id, "why": why, "seconds": seconds},
        )
        for request_id in list(worker.inflight):
            pending = self._pending.get(request_id)
            if pending is not None and not pending.future.done():
                pending.future.set_result(_Gone("worker_quarantined"))

    async def _ask(
        self, worker: _Worker, query: DecisionQuery, time_limit: float
    ) -> DecisionAnswer | _Gone | None:
        future: asyncio.Future[DecisionAnswer | _Gone] = asyncio.get_running_loop().create_future()
        request_id = query.request_id
        self._pending[request_id] = _Pending(worker, future)
        worker.inflight.add(request_id)
        try:
            if not worker.outbox.put(query.model_dump_json()):
                return _Gone("worker_overloaded")
            async with asyncio.timeout(time_limit):
                result = await future
            if isinstance(result, _Gone) and result.reason == "worker_quarantined":
                worker.outbox.put(
                    QueryCancel(request_id=request_id, reason="re-sent").model_dump_json()
                )
            return result
        except TimeoutError:
            worker.outbox.put(
                QueryCancel(request_id=request_id, reason="deadline").model_dump_json()
            )
            return None
        finally:
            self._pending.pop(request_id, None)
            worker.inflight.discard(request_id)
            worker.recent.append(request_id)
            if not worker.inflight and not worker.reviewing:
                self._dispatch_reviews()  # idle now: a waiting review may go

    def _accept(
        self,
        answer: DecisionAnswer,
        worker: _Worker,
        view: TableView,
        legal: LegalActions,
        want_advice: bool,
    ) -> Decision | None:
        """The worker's decision; None (and the worker quarantined) if it is not legal."""
        action = Action(kind=answer.action, amount=answer.amount)
        if not is_legal(legal, action, view.config.is_limit):
            self.counters["invalid_answers"] += 1
            log.warning(
                "worker answered an illegal action",
                extra={"worker_id": worker.worker_id, "action": action.model_dump(mode="json")},
            )
            self._quarantine(worker, "answered an illegal action")
            return None
        worker.strikes = 0  # a good answer: its next fault starts the back-off again
        self.counters["answered"] += 1
        advice = answer.advice
        if advice is None and want_advice:
            advice = Advice(action=action.kind, amount=action.amount)
        return Decision(action, advice, AdviceSource.WORKER, worker.worker_id)

    def _fallback(
        self, view: TableView, legal: LegalActions, reason: str, want_advice: bool
    ) -> Decision:
        self.counters["fallbacks"] += 1
        self.counters[f"fallback_{reason}"] += 1
        log.info("fallback policy decides", extra={"reason": reason, "seat": legal.seat})
        action = fallback_action(view, legal)
        advice = fallback_advice(view, legal, _REASONS.get(reason, reason)) if want_advice else None
        return Decision(action, advice, AdviceSource.FALLBACK, fallback_reason=reason)

    # -- the worker socket ----------------------------------------------------

    async def serve_worker(self, websocket: WebSocket) -> None:
        """Handle one worker connection from hello to disconnect."""
        await websocket.accept()
        hello = await self._receive_hello(websocket)
        if hello is None:
            return
        worker = _Worker(
            worker_id=uuid.uuid4().hex[:12],
            name=hello.name,
            capacity=hello.capacity,
            outbox=Outbox(websocket, self._queue_size, "worker"),
        )
        self._workers[worker.worker_id] = worker
        self.counters["worker_connections"] += 1  # accepted since start
        log.info(
            "AI worker connected",
            extra={"worker_id": worker.worker_id, "worker": hello.name, "capacity": hello.capacity},
        )
        worker.outbox.put(WorkerWelcome(worker_id=worker.worker_id).model_dump_json())
        self._dispatch_reviews()
        try:
            await self._receive_loop(websocket, worker)
        finally:
            self._workers.pop(worker.worker_id, None)
            for request_id in list(worker.inflight):
                pending = self._pending.get(request_id)
                if pending is not None and not pending.future.done():
                    pending.future.set_result(_Gone("worker_disconnected"))
            await worker.outbox.close(CloseCode.NORMAL)
            log.info("AI worker disconnected", extra={"worker_id": worker.worker_id})

    async def _receive_hello(self, websocket: WebSocket) -> WorkerHello | None:
        try:
            async with asyncio.timeout(HELLO_TIMEOUT):
                text = await websocket.receive_text()
            message = parse_worker_message(text)
        except (TimeoutError, WebSocketDisconnect, ValidationError, RuntimeError, KeyError):
            message = None
        if not isinstance(message, WorkerHello) or not hmac.compare_digest(
            message.secret.encode(), self._secret.encode()
        ):
            log.warning("AI worker refused: no hello with the right secret")
            with contextlib.suppress(Exception):
                await websocket.send_text(
                    ErrorMessage(
                        code=ErrorCode.UNAUTHORIZED,
                        message="send {type: hello, secret: AI_SHARED_SECRET} first",
                    ).model_dump_json()
                )
                await websocket.close(CloseCode.POLICY, "unauthorized")
            return None
        return message

    async def _receive_loop(self, websocket: WebSocket, worker: _Worker) -> None:
        while True:
            try:
                text = await websocket.receive_text()
            except (WebSocketDisconnect, RuntimeError, KeyError):
                return
            if len(text) > MAX_WORKER_MESSAGE:
                await worker.outbox.close(CloseCode.TOO_BIG, "message too big")
                return
            try:
                message = parse_worker_message(text)
            except ValidationError as error:
                worker.outbox.put(
                    ErrorMessage(
                        code=ErrorCode.BAD_MESSAGE, message=_short(error)
                    ).model_dump_json()
                )
                self._quarantine(worker, "sent an invalid message")
                continue
            if isinstance(message, WorkerPing):
                worker.outbox.put(WorkerPong(at=time.time() * 1000).model_dump_json())
            elif isinstance(message, DecisionAnswer | DecisionDecline):
                self._resolve(worker, message)

    def _resolve(self, worker: _Worker, message: DecisionAnswer | DecisionDecline) -> None:
        pending = self._pending.get(message.request_id)
        if pending is None or pending.worker is not worker or pending.future.done():
            if message.request_id in worker.recent:
                log.debug("late answer", extra={"request_id": message.request_id})
            else:
                self._quarantine(worker, "answered a request it was not sent")
            return
        if isinstance(message, DecisionDecline):
            yielded = message.reason == REVIEW_YIELDED
            pending.future.set_result(_Gone("yielded" if yielded else "declined", message.reason))
        else:
            pending.future.set_result(message)

    async def close(self) -> None:
        if self._review_timer is not None:
            self._review_timer.cancel()
        for job in self._reviews:
            if not job.future.done():
                job.future.set_exception(ReviewUnavailable("the server is shutting down"))
        self._reviews.clear()
        for task in list(self._review_tasks):
            task.cancel()
        for worker in list(self._workers.values()):
            await worker.outbox.close(CloseCode.GOING_AWAY, "server shutting down")


_REASONS = {
    "no_worker": "no AI worker is connected",
    "timeout": "the AI did not answer in time",
    "invalid": "the AI answered an illegal action",
    "declined": "the AI declined",
    "worker_disconnected": "the AI worker disconnected",
    "worker_overloaded": "the AI worker is overloaded",
    "worker_quarantined": "the AI worker misbehaved",
}


def _short(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ()))
    return f"{where}: {first.get('msg', 'invalid')}" if where else str(first.get("msg"))
