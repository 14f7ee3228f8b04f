"""A table's database writes, applied in order by one background task.

The table queues writes and goes on; it waits only before showing a change that
must survive a crash (a deal, a hand's end, a seat change: the "durable" writes).
Order is kept (a hand's start, its actions, its end), consecutive action pushes
are merged, and a snapshot superseded by a later one still queued is skipped.

A write that fails is retried until it is stored, in order, with a growing
pause: dropping it would lose a hand players saw, or a chip. Every write is
idempotent, so one whose outcome is unknown (the connection broke) is simply
sent again: action pushes carry the count of events stored before them, ledger
entries their own id, filed hands their hand number.

Chips entering or leaving the table (buy-ins, rebuys, cashouts) are stored in
the same atomic update as the stacks they changed (`pending_ledger` of the
table's document), then filed in the ledger; a restart files what was left
pending. So the ledger and the stacks never disagree, whatever crashes when.

Only the writes a player waits for are on the table's path (a deal, a hand's
end, a seat change). The rest (action pushes, filing a hand, filing the ledger)
go in order down a second chain, "behind", that the path does not wait for: a
deal is not held behind the last hand's filing. The path waits for the behind
chain's filings only where order matters for a crash: before the next snapshot
(it replaces the pending copies they file) and before a show or a rabbit hunt
(they change the filed hand). A deal never waits for them: it writes only the
live hand, and a restart files pending copies again whatever happened to them.

A durable write with nothing queued before it (and, for a snapshot, no filing
behind it must follow) is handed to the database writer in the table's own step,
not a turn of the busy loop later when this task wakes
(docs/experiments/2026-11-28-filings-own-sender.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from pymongo.errors import PyMongoError

from backend.cluster.fencing import refused
from backend.db.codec import Document
from backend.db.repositories import Ledger, Repositories
from backend.logging import log_context
from holdem.actions import HandEvent
from holdem.history import HandRecord

log = logging.getLogger(__name__)

RETRIES = 3  # failed attempts before a write counts as failed (it is still retried)
MAX_BACKOFF = 1.0  # seconds between attempts at most, so play resumes soon after an outage
# Seconds a live hand's action push waits for more to merge. Most hands end
# within it: their record makes the push moot, a write per hand saved (a crash
# voids the live hand and returns its chips whatever it stored of the actions).
EVENTS_LINGER = 5.0
BEHIND = frozenset({"events", "file", "ledger"})  # written behind: nobody waits for them
FILINGS = frozenset({"file", "ledger"})  # behind writes a later snapshot must follow


@dataclass
class _Op:
    kind: str
    run: Callable[[], Awaitable[None]]
    hand_no: int = 0
    events: list[HandEvent] = field(default_factory=list)
    done: asyncio.Future[None] | None = None  # for writes the table waits for
    ledger: list[Document] = field(default_factory=list)  # entries stored with a snapshot
    queued: float = 0.0  # perf_counter() when a waited-for write was queued
    # Futures of the table's waits for it, set in the same step as `done`.
    waiters: list[asyncio.Future[None]] = field(default_factory=list)
    # Called in that step too, once stored (`Persister.on_stored`); never if refused.
    hooks: list[Callable[[], None]] = field(default_factory=list)
    # A durable write sent in the table's own step (nothing queued before it): its
    # outcome, awaited by the writer task in place of a first `run`.
    sent: asyncio.Future[None] | None = None


async def _written() -> None:
    """A written op's `run` from then on: nothing to write."""


class Persister:
    def __init__(self, table_id: str, repos: Repositories) -> None:
        self.table_id = table_id
        self._repos = repos
        self._ops: deque[_Op] = deque()
        self._wake = asyncio.Event()
        self._flush = asyncio.Event()  # set when a write other than an action push is queued
        self._draining = 0  # callers of drain(): no push lingers meanwhile
        self._idle = asyncio.Event()
        self._idle.set()
        self.errors = 0  # writes that failed RETRIES times (each is retried until stored)
        self.retries = 0
        self.durable_waits = 0  # waited-for writes stored, and how long they took in all
        self.durable_wait_us = 0
        self.durable_wait_max_us = 0
        self._durable: _Op | None = None  # the last durable write queued
        self._events_queued = 0  # events of the live hand queued so far
        self._failing_since: float | None = None
        self._ledger: list[Document] = []  # entries waiting for the next snapshot
        self._behind: deque[_Op] = deque()  # the first is being written
        self._behind_wake = asyncio.Event()
        self._behind_idle = asyncio.Event()
        self._behind_idle.set()
        self._filed = asyncio.Event()  # no filing is queued behind
        self._filed.set()
        # Per player, the filing of the last hand they played here while it is not
        # stored: a list of their hands read meanwhile waits for it.
        self._filings: dict[str, asyncio.Future[None]] = {}
        # On a cluster's node: the table lease's fencing token, carried by the writes of
        # the table's state; a refused one means another node owns the table now.
        self.fence: int | None = None
        self.stale = False
        self.on_stale: Callable[[], None] | None = None
        self._push(_Op("recover", self._file_pending_ledger))
        self._task = asyncio.create_task(self._run(), name=f"persist-{table_id}")
        self._behind_task = asyncio.create_task(self._run_behind(), name=f"behind-{table_id}")

    async def _file_pending_ledger(self) -> None:
        """After a restart: ledger entries stored with the last snapshot, filed (again)."""
        await self._repos.ledger.file(await self._repos.tables.pending_ledger(self.table_id))

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
        # The list itself is stored: entries of a snapshot skipped as superseded move on.
        entries, self._ledger = self._ledger, []

        def run() -> asyncio.Future[None]:
            return self._repos.tables.save_state(
                table_id, snapshot, seq, pending, entries, fence=self.fence, stored=stored
            )

        if record is not None:
            # The record holds every action of the hand: live writes of it still queued
            # are moot. Dropping them keeps the wait for this durable write short.
            self._ops = deque(
                op
                for op in self._ops
                if op.done is not None
                or not (op.kind in ("start", "events") and op.hand_no == record.hand_no)
            )
            # So are its action pushes queued behind (not the one being written).
            self._behind = deque(
                op
                for index, op in enumerate(self._behind)
                if index == 0 or not (op.kind == "events" and op.hand_no == record.hand_no)
            )
        kind = "record" if record is not None else "snapshot"
        op = _Op(kind, run, ledger=entries)

        def stored() -> None:
            self._confirm(op)

        self._push(op, durable=True)

        async def file_ledger() -> None:
            # Whatever the snapshot stored (entries of a skipped one included).
            await self._repos.ledger.file(entries)

        self._push(_Op("ledger", file_ledger))
        if record is None:
            return

        filed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._filings = {p: f for p, f in self._filings.items() if not f.done()}
        self._filings.update((seat.player_id, filed) for seat in record.seats)

        async def file() -> None:
            # Stacks and record are already stored together; filing can follow. The
            # pending copy stays until the next hand's record replaces it (filing it
            # again after a restart is harmless), and the next hand's live document
            # replaces this one: two writes per hand saved.
            await self._repos.hands.insert(record)
            if not filed.done():
                filed.set_result(None)

        self._push(_Op("file", file))

    def filing_for(self, player_id: str) -> asyncio.Future[None] | None:
        """The filing of the last hand `player_id` played here, if it is not stored yet
        (filings are stored in order: that one done, every earlier one is)."""
        filed = self._filings.get(player_id)
        return filed if filed is not None and not filed.done() else None

    def file_show(self, hand_no: int, event: HandEvent) -> None:
        """Cards a winner showed after the hand ended: added to the filed hand, after it."""
        table_id = self.table_id

        async def run() -> None:
            await self._repos.hands.add_show(table_id, hand_no, event)

        self._push(_Op("show", run, hand_no))

    def file_rabbit(self, hand_no: int, cards: tuple[str, ...]) -> None:
        """A rabbit hunt after the hand ended: added to the filed hand, after it."""
        table_id = self.table_id

        async def run() -> None:
            await self._repos.hands.set_rabbit(table_id, hand_no, cards)

        self._push(_Op("rabbit", run, hand_no))

    def start_hand(
        self, hand_no: int, button: int, stacks: dict[int, int], players: Document
    ) -> None:
        """The live hand: the table waits for this before showing the deal.

        Stored first, its number is never given to another hand: a restart voids it.
        """

        def run() -> asyncio.Future[None]:
            return self._repos.hands.start_live(
                self.table_id,
                hand_no,
                button,
                stacks,
                players,
                fence=self.fence,
                stored=lambda: self._confirm(op),
            )

        op = _Op("start", run, hand_no)
        self._file_ledger_now()
        self._events_queued = 0
        self._push(op, durable=True)

    def push_events(self, hand_no: int, events: list[HandEvent]) -> None:
        stored_before = self._events_queued
        self._events_queued += len(events)
        last = self._ops[-1] if self._ops else None
        if last is not None and last.kind == "events" and last.hand_no == hand_no:
            last.events.extend(events)  # merged into the push already queued
            return
        batch = list(events)  # later pushes extend this list while the op is queued

        async def run() -> None:
            await self._repos.hands.push_live(self.table_id, hand_no, batch, stored_before)

        # The closure holds the list, not the op: an op referring to itself would be
        # a reference cycle, freed only by the slow full garbage collection.
        self._push(_Op("events", run, hand_no, batch))

    def ledger(self, player_id: str, kind: str, amount: int, seat: int) -> Document:
        """Chips in or out: stored with the next snapshot of the stacks they changed."""
        # Its own id: the same entry however often it is sent.
        entry = Ledger.entry(player_id, self.table_id, kind, amount, seat, uuid.uuid4().hex)
        self._ledger.append(entry)
        return entry

    def _file_ledger_now(self) -> None:
        """Entries no snapshot took along are filed on their own (not expected to happen)."""
        if not self._ledger:
            return
        entries, self._ledger = self._ledger, []
        log.warning("ledger entries without a snapshot", extra={"entries": len(entries)})

        async def run() -> None:
            await self._repos.ledger.file(entries)

        self._push(_Op("ledger", run))

    # -- the writer -------------------------------------------------------------

    def _push(self, op: _Op, durable: bool = False) -> None:
        if self.stale:
            return  # not the owner any more: nothing more is written
        if durable:
            op.done = asyncio.get_running_loop().create_future()
            op.queued = time.perf_counter()
            self._durable = op
            if self._idle.is_set() and (op.kind == "start" or self._filed.is_set()):
                # Nothing queued before it, nor a filing it must follow: sent in this
                # step, not a turn of the busy loop later when the writer task wakes.
                op.sent = asyncio.ensure_future(op.run())
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
                linger = EVENTS_LINGER > 0 and not self._draining
                if op.kind == "events" and len(self._ops) == 1 and linger:
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
                later = next((o for o in self._ops if o.kind in ("snapshot", "record")), None)
                if op.kind in BEHIND:
                    self._queue_behind(op)
                    continue
                if op.kind == "snapshot" and later is not None and op.sent is None:
                    # A later snapshot is queued: this one is out of date. Its ledger
                    # entries are stored with that one instead.
                    later.ledger[:0] = op.ledger
                    op.ledger.clear()
                else:
                    if op.kind != "start":
                        # It replaces pending copies, or changes a filed hand: the
                        # filings queued behind go first.
                        await self._filed.wait()
                    await self._apply(op)
                self._confirm(op)  # if the writer's step did not already
                # Its closure can hold the op (its `stored` callback): a cycle, which the
                # tuned collector would keep for long (backend/gc_policy.py).
                op.run = _written

    def _confirm(self, op: _Op) -> None:
        """A durable write is stored: the table is told in this very step (called by
        the database writer's step that learns of it, a turn before this task runs)."""
        if op.done is None or op.done.done():
            return
        took = int(1e6 * (time.perf_counter() - op.queued))
        self.durable_waits += 1
        self.durable_wait_us += took
        self.durable_wait_max_us = max(self.durable_wait_max_us, took)
        hooks = op.hooks[:]
        _release(op)
        for hook in hooks:
            try:
                hook()
            except Exception:  # the writer's step goes on for every other table
                log.exception("a stored-write hook failed", extra={"table_id": self.table_id})

    def _queue_behind(self, op: _Op) -> None:
        self._behind.append(op)
        self._behind_idle.clear()
        if op.kind in FILINGS:
            self._filed.clear()
        self._behind_wake.set()

    async def _run_behind(self) -> None:
        """The writes nobody waits for, in order (each retried until stored)."""
        with log_context(table_id=self.table_id):
            while True:
                if not self._behind:
                    self._behind_idle.set()
                    self._filed.set()
                    self._behind_wake.clear()
                    await self._behind_wake.wait()
                    continue
                await self._apply(self._behind[0])
                self._behind.popleft()
                if not any(op.kind in FILINGS for op in self._behind):
                    self._filed.set()

    async def _apply(self, op: _Op) -> None:
        attempt = 0
        while True:
            sent, op.sent = op.sent, None
            try:
                await (sent if sent is not None else op.run())
            except PyMongoError as error:
                if self.fence is not None and refused(error):
                    self._refused(op)
                    return
                attempt += 1
                self.retries += 1
                if self._failing_since is None:
                    self._failing_since = asyncio.get_running_loop().time()
                if attempt == RETRIES:
                    self.errors += 1
                if attempt <= RETRIES or attempt % 30 == 0:  # the log is not flooded
                    log.warning(
                        "database write failed, retrying",
                        extra={"op": op.kind, "attempt": attempt, "error": str(error)[:200]},
                    )
                # Back-off before the write is sent again (the database may be restarting).
                await asyncio.sleep(min(MAX_BACKOFF, 0.05 * 2**attempt))
                continue
            if attempt >= RETRIES:
                log.warning("database write stored after retries", extra={"op": op.kind})
            self._failing_since = None
            return

    def _refused(self, op: _Op) -> None:
        """A later owner wrote the table: this node writes nothing more for it (what is
        queued would file a hand whose stacks were refused) and stops acting for it."""
        log.warning("fenced write refused: another node owns the table", extra={"op": op.kind})
        self.stale = True
        op.hooks.clear()  # nothing is sent from the step of a write that was not stored
        for queued in self._ops:
            _release(queued)
        self._ops.clear()
        while len(self._behind) > 1:  # the first is being written
            self._behind.pop()
        if self.on_stale is not None:
            self.on_stale()

    def unconfirmed(self) -> asyncio.Future[None] | None:
        """The last durable write queued so far, while the database has not confirmed it."""
        durable = self._durable.done if self._durable is not None else None
        return durable if durable is not None and not durable.done() else None

    def confirmation(self) -> asyncio.Future[None] | None:
        """A future of the caller's own, set in the step the last durable write queued so
        far is confirmed (None if it is): awaited directly, with no `shield` around the
        shared one, the table runs a turn of the event loop sooner; cancelling it (a
        timeout) touches nothing of the write."""
        op = self._durable
        if op is None or op.done is None or op.done.done():
            return None
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        op.waiters = [w for w in op.waiters if not w.done()] + [waiter]
        return waiter

    def on_stored(self, callback: Callable[[], None]) -> bool:
        """Call `callback` in the step the last durable write queued so far is confirmed
        stored: the database writer's step that learns of it, a turn of the event loop
        before a task waiting for it runs (on a busy server, a turn is every table's
        ready work). False, with nothing registered, if it is confirmed already; a
        write refused to a stale owner never calls it."""
        op = self._durable
        if op is None or op.done is None or op.done.done():
            return False
        op.hooks.append(callback)
        return True

    @property
    def failing_since(self) -> float | None:
        """Loop time of the first failed attempt of the write being retried, if any."""
        return self._failing_since

    async def wait_durable(self) -> None:
        """Wait until the last durable write queued so far is in the database (however long)."""
        durable = self.unconfirmed()
        if durable is not None:
            await asyncio.shield(durable)

    async def drain(self, wait: float = 10.0) -> None:
        """Wait until every queued write is done (shutdown, tests)."""
        self._file_ledger_now()
        self._draining += 1
        self._flush.set()  # a push lingering for more goes now
        try:
            async with asyncio.timeout(wait):
                while not (self._idle.is_set() and self._behind_idle.is_set()):
                    await self._idle.wait()
                    await self._behind_idle.wait()
        finally:
            self._draining -= 1

    async def close(self) -> None:
        try:
            await self.drain()
        except TimeoutError:
            log.error(
                "database writes still queued at shutdown",
                extra={"ops": len(self._ops) + len(self._behind)},
            )
        self._task.cancel()
        self._behind_task.cancel()
        await asyncio.gather(self._task, self._behind_task, return_exceptions=True)


def _release(op: _Op) -> None:
    """`op`'s waits are over: its own future and the table's waiters (its hooks dropped:
    `_confirm` calls them, a refused write does not)."""
    if op.done is not None and not op.done.done():
        op.done.set_result(None)
    for waiter in op.waiters:
        if not waiter.done():
            waiter.set_result(None)
    op.waiters.clear()
    op.hooks.clear()
