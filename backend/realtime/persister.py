"""A table's database writes, applied in order by one background task.

The table never waits for the database: it queues writes and goes on. Order is
kept (a hand's start, its actions, its end), consecutive action pushes are
merged, and a snapshot superseded by a later one still queued is skipped. A
write that fails is retried a few times, then logged and counted.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from pymongo.errors import PyMongoError

from backend.db.codec import Document
from backend.db.repositories import Repositories
from backend.logging import log_context
from holdem.actions import HandEvent
from holdem.history import HandRecord

log = logging.getLogger(__name__)

RETRIES = 3
EVENTS_LINGER = 1.0  # seconds a live hand's action push waits for more to merge


@dataclass
class _Op:
    kind: str
    run: Callable[[], Awaitable[None]]
    hand_no: int = 0
    events: list[HandEvent] = field(default_factory=list)
    done: asyncio.Future[None] | None = None  # for writes the table waits for


class Persister:
    def __init__(self, table_id: str, repos: Repositories) -> None:
        self.table_id = table_id
        self._repos = repos
        self._ops: deque[_Op] = deque()
        self._wake = asyncio.Event()
        self._flush = asyncio.Event()  # set when a write other than an action push is queued
        self._idle = asyncio.Event()
        self._idle.set()
        self.errors = 0
        self.retries = 0
        self._durable: asyncio.Future[None] | None = None
        self._task = asyncio.create_task(self._run(), name=f"persist-{table_id}")

    # -- what the table queues -------------------------------------------------

    def save_state(
        self,
        snapshot: Document,
        seq: int,
        record: HandRecord | None = None,
    ) -> None:
        """Seats and stacks (with a finished hand's record): the table waits for this."""
        pending = record.model_dump(mode="json") if record is not None else None
        table_id = self.table_id

        async def run() -> None:
            await self._repos.tables.save_state(table_id, snapshot, seq, pending)

        if record is not None:
            # The record holds every action of the hand: live writes of it still queued
            # are moot. Dropping them keeps the wait for this durable write short.
            self._ops = deque(
                op
                for op in self._ops
                if not (op.kind in ("start", "events") and op.hand_no == record.hand_no)
            )
        self._push(_Op("record" if record is not None else "snapshot", run), durable=True)
        if record is None:
            return

        async def file() -> None:
            # Stacks and record are already stored together; filing can follow. The
            # pending copy stays until the next hand's record replaces it (filing it
            # again after a restart is harmless), and the next hand's live document
            # replaces this one: two writes per hand saved.
            await self._repos.hands.insert(record)

        self._push(_Op("file", file))

    def start_hand(
        self, hand_no: int, button: int, stacks: dict[int, int], players: Document
    ) -> None:
        async def run() -> None:
            await self._repos.hands.start_live(self.table_id, hand_no, button, stacks, players)

        self._push(_Op("start", run, hand_no))

    def push_events(self, hand_no: int, events: list[HandEvent]) -> None:
        last = self._ops[-1] if self._ops else None
        if last is not None and last.kind == "events" and last.hand_no == hand_no:
            last.events.extend(events)  # merged into the push already queued
            return
        batch = list(events)  # later pushes extend this list while the op is queued

        async def run() -> None:
            await self._repos.hands.push_live(self.table_id, hand_no, batch)

        # The closure holds the list, not the op: an op referring to itself would be
        # a reference cycle, freed only by the slow full garbage collection.
        self._push(_Op("events", run, hand_no, batch))

    def ledger(self, player_id: str, kind: str, amount: int, seat: int) -> None:
        async def run() -> None:
            await self._repos.ledger.record(player_id, self.table_id, kind, amount, seat)

        self._push(_Op("ledger", run))

    # -- the writer -------------------------------------------------------------

    def _push(self, op: _Op, durable: bool = False) -> None:
        if durable:
            op.done = asyncio.get_running_loop().create_future()
            self._durable = op.done
        self._ops.append(op)
        if op.kind != "events":
            self._flush.set()
        self._idle.clear()
        self._wake.set()

    async def _run(self) -> None:
        with log_context(table_id=self.table_id):
            while True:
                if not self._ops:
                    self._idle.set()
                    self._wake.clear()
                    await self._wake.wait()
                    continue
                op = self._ops[0]
                if op.kind == "events" and len(self._ops) == 1 and EVENTS_LINGER > 0:
                    # A live hand's actions are written behind in batches: the pushes
                    # queued meanwhile merge into this one (a crash voids the hand anyway).
                    # Any other write (a hand's end, a seat change) ends the wait at once.
                    self._flush.clear()
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(EVENTS_LINGER):
                            await self._flush.wait()
                    if not self._ops or self._ops[0] is not op:
                        continue  # the hand's record made this write moot
                op = self._ops.popleft()
                superseded = op.kind == "snapshot" and any(
                    o.kind in ("snapshot", "record") for o in self._ops
                )
                if not superseded:  # else a later snapshot is queued: this one is out of date
                    await self._apply(op)
                if op.done is not None and not op.done.done():
                    op.done.set_result(None)

    async def _apply(self, op: _Op) -> None:
        for attempt in range(1, RETRIES + 1):
            try:
                await op.run()
                return
            except PyMongoError as error:
                if attempt == RETRIES:
                    self.errors += 1
                    log.error("database write failed", extra={"op": op.kind, "error": str(error)})
                    return
                self.retries += 1
                log.warning("database write failed, retrying", extra={"op": op.kind})
                await asyncio.sleep(0.1 * attempt)  # back-off before retrying the write

    async def wait_durable(self, wait: float = 2.0) -> None:
        """Wait until the last seats-and-stacks write queued so far is in the database.

        The table publishes a change only after this, so what players were shown
        survives a crash. A database that does not answer in time is logged, and
        the table goes on (availability first; the write stays queued).
        """
        durable, self._durable = self._durable, None
        if durable is None or durable.done():
            return
        try:
            async with asyncio.timeout(wait):
                await asyncio.shield(durable)
        except TimeoutError:
            log.error("database slow: publishing before the write is confirmed")

    async def drain(self, wait: float = 10.0) -> None:
        """Wait until every queued write is done (shutdown, tests)."""
        async with asyncio.timeout(wait):
            await self._idle.wait()

    async def close(self) -> None:
        try:
            await self.drain()
        except TimeoutError:
            log.error("database writes still queued at shutdown", extra={"ops": len(self._ops)})
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)
