"""The AI worker's connection to the backend: `/ws/ai`, hello with the shared secret,
decision queries answered by request_id, reconnects with exponential backoff.

Thinking never runs on the event loop: each query goes to one of `concurrency`
lanes (a single-process pool each, or a thread in `threads` mode), chosen by
table id so a table's bots and their opponent models stay in one process. A
finished hand (`hand_ended`) goes to its table's lane too, behind the hand's
queries, so the bots learn from its end before the next hand's first decision. An
answer that would miss the query's time allowance is replaced by a decline, so
the server falls back at once instead of waiting for the deadline.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import multiprocessing
import random
import threading
import zlib
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Protocol
from urllib.parse import urlsplit, urlunsplit

from pydantic import ValidationError
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from ai.worker.decider import Decider, answer_json, hand_ended_json, init_process
from protocol.messages import (
    DECLINE_TIMEOUT,
    CloseCode,
    DecisionDecline,
    DecisionQuery,
    ErrorMessage,
    HandEnded,
    QueryCancel,
    QueryPurpose,
    WorkerHello,
    WorkerWelcome,
    parse_gateway_message,
)

log = logging.getLogger("showdown.worker")

# Share of a query's time allowance spent thinking, and the part kept for the answer's trip.
THINK_SHARE = 0.6
ANSWER_SHARE = 0.9
MIN_BUDGET = 0.02


class YieldEvent(Protocol):
    """threading.Event in threads mode, a multiprocessing Event across processes."""

    def is_set(self) -> bool: ...

    def set(self) -> None: ...

    def clear(self) -> None: ...


class FatalWorkerError(Exception):
    """Retrying cannot help (e.g. the server refused the secret)."""


def ai_socket_url(server: str) -> str:
    """Accept ws(s):// or http(s):// with or without a path; default path /ws/ai.

    >>> ai_socket_url("http://127.0.0.1:8000")
    'ws://127.0.0.1:8000/ws/ai'
    >>> ai_socket_url("wss://poker.example/ws/ai")
    'wss://poker.example/ws/ai'
    """
    parts = urlsplit(server if "://" in server else f"ws://{server}")
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    path = parts.path if parts.path not in ("", "/") else "/ws/ai"
    return urlunsplit((scheme, parts.netloc, path, parts.query, ""))


@dataclass
class Backoff:
    """Exponential backoff with jitter: initial, doubled per failure up to maximum."""

    initial: float = 0.5
    maximum: float = 30.0
    current: float = 0.0

    def reset(self) -> None:
        self.current = 0.0

    def next_delay(self, rng: random.Random) -> float:
        self.current = self.initial if not self.current else min(self.current * 2, self.maximum)
        return self.current * (0.75 + 0.5 * rng.random())


class Lanes:
    """`count` single-worker executors; a table always goes to the same one.

    Each lane has a yield flag: set while a live query waits behind a review running in
    that lane, it stops the review's search at once (the review is declined and asked
    again later), so a review never holds a live query for its thinking time.
    """

    def __init__(self, count: int, threads: bool) -> None:
        self.threads = threads
        self.executors: list[Executor] = []
        self.deciders: list[Decider] = []
        self.flags: list[YieldEvent] = []
        self.reviewing = [0] * count  # reviews running or queued, per lane
        context = multiprocessing.get_context("spawn")  # no fork under a running loop
        for _ in range(count):
            if threads:
                flag: YieldEvent = threading.Event()
                self.executors.append(ThreadPoolExecutor(max_workers=1))
                self.deciders.append(Decider(yield_flag=flag))
            else:
                flag = context.Event()
                self.executors.append(
                    ProcessPoolExecutor(
                        1, mp_context=context, initializer=init_process, initargs=(flag,)
                    )
                )
            self.flags.append(flag)

    def lane_of(self, table_id: str) -> int:
        return zlib.crc32(table_id.encode()) % len(self.executors)

    def started(self, query: DecisionQuery) -> int:
        """Note a query entering its lane; a live one makes a review there yield."""
        lane = self.lane_of(query.table_id)
        if query.purpose is QueryPurpose.REVIEW:
            self.reviewing[lane] += 1
        elif self.reviewing[lane]:
            self.flags[lane].set()
        return lane

    def finished(self, query: DecisionQuery, lane: int) -> None:
        if query.purpose is QueryPurpose.REVIEW:
            self.reviewing[lane] -= 1
            if not self.reviewing[lane]:
                self.flags[lane].clear()

    def call(self, table_id: str, query_json: str, budget: float) -> Callable[[], str]:
        lane = self.lane_of(table_id)
        if self.threads:
            decider = self.deciders[lane]

            def run() -> str:
                query = DecisionQuery.model_validate_json(query_json)
                return decider.answer(query, budget).model_dump_json()

            return run
        return functools.partial(answer_json, query_json, budget)  # picklable for processes

    def learn(self, table_id: str, message_json: str) -> Callable[[], int]:
        """A finished hand for the bots of its table, in their lane (after its queries)."""
        if self.threads:
            decider = self.deciders[self.lane_of(table_id)]
            return lambda: decider.hand_ended(HandEnded.model_validate_json(message_json))
        return functools.partial(hand_ended_json, message_json)

    def executor_for(self, table_id: str) -> Executor:
        return self.executors[self.lane_of(table_id)]

    async def warm_up(self) -> None:
        """Start every process now (imports, numba) rather than on the first query."""
        if self.threads:
            return
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(e, _noop) for e in self.executors))

    def shutdown(self) -> None:
        """Stop at once: a query still thought about is abandoned (the server's deadline
        answers it with its fallback), so its process is ended rather than waited for.
        Waiting was most of a stop: the interpreter's exit joined each pool, which let a
        search run out its budget and each process tear down its tables and kernels."""
        for executor in self.executors:
            if isinstance(executor, ProcessPoolExecutor):
                # Before shutdown(), which forgets them (no public way to end them in 3.11).
                for process in list((executor._processes or {}).values()):
                    process.terminate()
        for executor in self.executors:
            # Ended processes: the pool's thread sees them gone and returns. Threads (a
            # debugging mode) cannot be ended: not waited for, as before.
            executor.shutdown(wait=not self.threads, cancel_futures=True)


def _noop() -> None:
    return None


def _log_failure(future: asyncio.Future[int]) -> None:
    """A finished hand that could not be learned from costs that hand, nothing more."""
    if not future.cancelled() and future.exception() is not None:
        log.warning("worker: a finished hand was not learned from: %r", future.exception())


class WorkerClient:
    def __init__(
        self,
        server: str,
        secret: str,
        concurrency: int = 2,
        name: str = "showdown-worker",
        threads: bool = False,
        backoff: Backoff | None = None,
    ) -> None:
        self.url = ai_socket_url(server)
        self.secret = secret
        self.concurrency = max(1, concurrency)
        self.name = name
        self.lanes = Lanes(self.concurrency, threads)
        self.backoff = backoff or Backoff()
        self.answered = 0
        self.declined = 0
        self.connections = 0
        self._cancelled: set[str] = set()
        self._rng = random.Random()
        self._tasks: set[asyncio.Task[None]] = set()

    async def run(self, stop: asyncio.Event | None = None) -> int:
        """Serve until `stop` is set; 0 when stopped, 3 when the server refused us."""
        stop = stop or asyncio.Event()
        try:
            # A stop during the warm-up (seconds to minutes: imports, kernels) is not
            # kept waiting for it.
            warming = asyncio.ensure_future(self.lanes.warm_up())
            stopping = asyncio.ensure_future(stop.wait())
            await asyncio.wait({warming, stopping}, return_when=asyncio.FIRST_COMPLETED)
            stopping.cancel()
            if not warming.done():
                warming.cancel()
                return 0
            warming.result()
            while not stop.is_set():
                try:
                    await self._session(stop)
                except FatalWorkerError as error:
                    log.error("worker: %s", error)
                    return 3
                except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as error:
                    log.warning("worker: connection to %s lost or refused: %s", self.url, error)
                if stop.is_set():
                    break
                delay = self.backoff.next_delay(self._rng)
                log.info("worker: reconnecting in %.1f s", delay)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), timeout=delay)
            return 0
        finally:
            self.lanes.shutdown()
            log.info("worker: stopped")

    async def _session(self, stop: asyncio.Event) -> None:
        try:
            socket = connect(self.url, open_timeout=10, max_size=2**22)
        except InvalidURI as error:
            raise FatalWorkerError(f"bad server URL {self.url!r}") from error
        async with socket as ws:
            await ws.send(
                WorkerHello(
                    secret=self.secret, name=self.name, capacity=self.concurrency
                ).model_dump_json()
            )
            try:
                welcome = parse_gateway_message(await asyncio.wait_for(ws.recv(), timeout=10))
            except ConnectionClosed as closed:
                if closed.rcvd is not None and closed.rcvd.code == CloseCode.POLICY:
                    raise FatalWorkerError("the server refused the shared secret") from closed
                raise
            if isinstance(welcome, ErrorMessage):
                raise FatalWorkerError(f"the server refused us: {welcome.message}")
            if not isinstance(welcome, WorkerWelcome):
                raise ConnectionError(f"expected welcome, got {welcome.type}")
            self.connections += 1
            self.backoff.reset()
            log.info("worker: connected to %s as %s", self.url, welcome.worker_id)
            stopper = asyncio.create_task(self._close_on(stop, ws))
            try:
                async for raw in ws:
                    self._handle(ws, raw)
            except ConnectionClosed as closed:
                if closed.rcvd is not None and closed.rcvd.code == CloseCode.POLICY:
                    raise FatalWorkerError(
                        "the server closed us for a policy violation"
                    ) from closed
                raise
            finally:
                stopper.cancel()

    async def _close_on(self, stop: asyncio.Event, ws: ClientConnection) -> None:
        await stop.wait()
        await ws.close()

    def _handle(self, ws: ClientConnection, raw: str | bytes) -> None:
        try:
            message = parse_gateway_message(raw)
        except ValidationError as error:
            log.warning("worker: ignoring a message it cannot read: %s", error.errors()[:1])
            return
        if isinstance(message, DecisionQuery):
            text = raw if isinstance(raw, str) else raw.decode()
            task = asyncio.create_task(self._answer(ws, message, text))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        elif isinstance(message, HandEnded):
            text = raw if isinstance(raw, str) else raw.decode()
            table_id = message.record.table_id
            future = asyncio.get_running_loop().run_in_executor(
                self.lanes.executor_for(table_id), self.lanes.learn(table_id, text)
            )
            future.add_done_callback(_log_failure)
        elif isinstance(message, QueryCancel):
            self._cancelled.add(message.request_id)
        elif isinstance(message, ErrorMessage):
            log.warning("worker: server error %s: %s", message.code, message.message)

    async def _answer(self, ws: ClientConnection, query: DecisionQuery, text: str) -> None:
        allowance = max(query.timeout_ms / 1000, MIN_BUDGET)
        budget = max(MIN_BUDGET, THINK_SHARE * allowance - 0.05)
        loop = asyncio.get_running_loop()
        call = self.lanes.call(query.table_id, text, budget)
        lane = self.lanes.started(query)
        work = self.lanes.executor_for(query.table_id).submit(call)
        future = asyncio.wrap_future(work, loop=loop)
        future.add_done_callback(lambda _: self.lanes.finished(query, lane))
        try:
            reply = await asyncio.wait_for(asyncio.shield(future), ANSWER_SHARE * allowance)
        except TimeoutError:
            if query.purpose is QueryPurpose.REVIEW and work.cancel():
                # Still queued behind live work: it leaves the lane (the gateway asks again
                # later), settled before the decline goes. One already running finishes;
                # it is short (REVIEW_SECONDS).
                await asyncio.wait([future])
            reason = DECLINE_TIMEOUT
            reply = DecisionDecline(request_id=query.request_id, reason=reason).model_dump_json()
            self.declined += 1
        except Exception as error:  # a bug in one decision must not take the worker down
            log.exception("worker: query %s failed", query.request_id)
            reason = f"error: {type(error).__name__}"[:200]
            reply = DecisionDecline(request_id=query.request_id, reason=reason).model_dump_json()
            self.declined += 1
        else:
            self.answered += 1
        if query.request_id in self._cancelled:
            self._cancelled.discard(query.request_id)
            return
        try:
            await ws.send(reply)
        except ConnectionClosed:
            log.info("worker: answer to %s lost with the connection", query.request_id)
