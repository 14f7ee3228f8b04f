"""Every table's writes, sent to the database together (group commit), in two lanes.

Each table writes one operation at a time, in order (its Persister waits for
each). A round trip per operation costs the server about 0.4 ms of CPU in the
driver and the database as much again, for a few KB; a hundred busy tables
would spend most of a core on it. So writes queued while a round is in flight
go out together as the next round: one unordered `bulk_write` per collection.
Operations in a round come from different tables and touch different
documents, so their order does not matter; each caller still learns whether
its own operation succeeded.

Four lanes, each with its own rounds in flight, so a player never waits behind
a write nobody waits for: the urgent lane (what a player waits for: a deal's
live hand, a hand's end, a seat change), the filing lane (a finished hand and
its ledger entries filed: the table's next hand's end waits for them, a deal
never does), the table lane (a table's writes that nobody waits for: action
pushes) and the background lane (statistics counted after the hands are
filed). A lane's round
is sent once the rounds in flight of the lanes before it are done (at most
BACKGROUND_YIELD later), so the database is not busy with other work while a
player waits; the background lane's rounds are cut into commands of at most
BACKGROUND_CHUNK updates' worth, each waiting its turn that way (given a
synchronous client, sent from a thread, which pauses after each command as long
as it took while the other lanes have work: the statistics take at most half of
the database's time from busy tables, and their commands no turns of the loop). (With one lane, a
table's deal waited for rounds of thousands of statistics updates: p99
action-to-broadcast 2.7 s in `showdown bench server`; with the urgent writes
mixed into the table lane, the deal waited for the action pushes and filings
of every table.)

A write with `journal=True` is acknowledged only once the database's journal is
on disk (j: true): the embedded database loses acknowledged but unjournaled
writes when it is killed. Tables journal what must survive a crash (a deal, a
hand's end, a seat change, the ledger); a live hand's actions are not
journaled (a crash voids the hand anyway). The embedded database syncs its
journal once per journaled statement, so a round's journaled writes are sent
unjournaled and then followed by one journaled write of a marker document
(group commit): the journal is sequential, so its sync carries every write
acknowledged before it (WiredTiger's log and MongoDB's journal alike). Only
then are the journaled writes reported stored. A round that would sync only a
single time (an insert command, a lone update) journals it directly: a round
trip less.

Given a synchronous client (`blocking`), the urgent lane's rounds are sent by
URGENT_THREADS worker threads, and the filing lane's by FILING_THREADS threads of
its own (with their own marker documents: an urgent round never waits for a
filing the database holds); the event loop hears of each round once, at its end.
Through the asynchronous driver a round took ~22 turns of the event loop (its
connection checkout, send, reads and pymongo's tasks around them each wait for a
turn), and the turns of a server's busy loop last as long as all its tables' ready
work: a waited-for write's time was those turns times that length
(docs/experiments/2026-11-28-frames-per-tick-and-held-states.md). In the thread a
step waits for the GIL at most a switch interval, not a turn. A write is handed to
the threads in the writer's own step, and a free thread sends it at once with
whatever else is queued (no task of the loop starts a round: that was two turns, and
a round ending waited a turn more before the next began); the step that learns a
round's outcome tells each writer and calls its `stored`, so the table's wait ends in
that step (docs/experiments/2026-11-28-held-writes-loop-turns.md). The filings
were in the table lane, through the driver's turns and behind every table's action
pushes: a hand's end waited for the last hand's filing there, the held states' tail
(docs/experiments/2026-11-28-filings-own-sender.md).
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from pymongo import DeleteOne, InsertOne, ReplaceOne, UpdateOne
from pymongo.asynchronous.collection import AsyncCollection
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.database import Database
from pymongo.errors import BulkWriteError, PyMongoError, WriteError
from pymongo.write_concern import WriteConcern

from backend.db.codec import Document

WriteOp = InsertOne[Document] | ReplaceOne[Document] | UpdateOne | DeleteOne

# Updates per background command (10-80 ms of the database's time on this shared host):
# the bound on how long a table's write may wait behind the statistics. `showdown bench
# server` (60 s): with 10, the counter wrote ~215 writes/s, with 5 ~100 (each command
# also waits for the GIL beside a busy loop); p99 action-to-broadcast within the runs'
# noise of main's either way (270-540 ms, main's 270-460 ms).
BACKGROUND_CHUNK = 10
# Inserts counted as one update there: the embedded database stores a command's inserts
# in one transaction, about four times cheaper each than an update (measured: 25 inserts
# 14 ms, 25 upserts 46-112 ms, on this shared host).
INSERTS_PER_UPDATE = 4
# A background command waits for the table lane's round in flight, at most this long
# (the statistics keep moving under any load).
BACKGROUND_YIELD = 0.1
TABLE_CHUNK = 1000  # per table-lane command (the driver splits larger ones anyway)
# The marker documents' collections: this prefix, the node and the sender.
COMMITS = "group_commits"
_SAFE = re.compile(r"[^A-Za-z0-9_-]")  # a node's id as part of a collection's name
# Table rounds in flight at once: a write queued during a round goes out with the
# next one at once instead of waiting for that round's marker to come back.
TABLE_ROUNDS = 2
# Syncs a round may ask for by journaling its commands directly; above, a marker. On
# this shared host a sync took 3 ms under load (30 journaled updates: 115 ms; sent
# unjournaled with a marker after them: 27 ms), and the marker is a sync and a round
# trip: only a round that syncs once goes without.
GROUP_COMMIT_MIN = 1
# Worker threads of the urgent lane: each takes everything queued as soon as it is
# free, so a write queued while one round is in flight goes out at once in the next.
URGENT_THREADS = 2
# The filing lane's: a filing queued while one round is in flight goes out at once too.
FILING_THREADS = 2
THREADED = {"urgent": URGENT_THREADS, "filing": FILING_THREADS}  # lanes sent by threads


@dataclass(frozen=True, slots=True)
class _Queued:
    op: WriteOp
    done: asyncio.Future[None]
    journal: bool
    stored: Callable[[], None] | None = None  # told in the step that learns of it


def _syncs(chunk: list[_Queued]) -> int:
    """Journal syncs of one journaled command in the embedded database: one per
    update or delete statement, one for all the inserts (one transaction)."""
    inserts = sum(1 for item in chunk if isinstance(item.op, InsertOne))
    return len(chunk) - inserts + (1 if inserts else 0)


@dataclass(frozen=True, slots=True)
class _Sent:
    """A blocking round's counts, added to the writer's in the loop's thread."""

    commands: int
    writes: int
    syncs: int  # journaled directly
    marker: bool


@dataclass
class _Threads:
    """A lane's worker threads and what they share with the event loop (everything
    but the asyncio event, under `ready`'s lock)."""

    loop: asyncio.AbstractEventLoop
    lane: str  # "urgent" or "filing": its threads' marker documents are lane + index
    ready: threading.Condition = field(default_factory=threading.Condition)
    queued: list[tuple[str, _Queued]] = field(default_factory=list)
    sending: dict[int, list[_Queued]] = field(default_factory=dict)  # rounds in flight
    closing: bool = False
    idle: asyncio.Event = field(default_factory=asyncio.Event)  # no round in flight
    workers: list[threading.Thread] = field(default_factory=list)


@dataclass
class _Lane:
    name: str
    chunk: int
    parallel: bool  # a round's commands sent together (else one after the other)
    max_rounds: int  # rounds in flight at once
    yields_to: tuple[_Lane, ...] = ()  # lanes whose rounds in flight go first
    queued: dict[str, list[_Queued]] = field(default_factory=lambda: defaultdict(list))
    sending: dict[int, list[_Queued]] = field(default_factory=dict)  # by round, in flight
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None
    rounds: set[asyncio.Task[None]] = field(default_factory=set)  # in flight


class BatchWriter:
    """`await write(collection, op)` returns once the op is stored, or raises PyMongoError.

    `marker` prefixes this process's marker documents, one per lane and per worker
    thread (`node.table`, `node.urgent0`, `node.filing0`...), each in a collection of
    its own (`group_commits.node.urgent0`...): no two rounds in flight at once contend
    for one document, nor for one collection's lock through a sync. A round whose
    journaled commands would sync at most `group_commit_min` times journals them
    directly instead of sending a marker.
    `blocking`, the same database through a synchronous client: the urgent and filing
    lanes' rounds are sent from worker threads with it.
    """

    def __init__(
        self,
        db: AsyncDatabase[Document],
        marker: str = "node",
        group_commit_min: int = GROUP_COMMIT_MIN,
        blocking: Database[Document] | None = None,
    ) -> None:
        self._db = db
        self._blocking = blocking
        self._marker = marker
        self._group_commit_min = group_commit_min
        self._urgent = _Lane("urgent", TABLE_CHUNK, parallel=True, max_rounds=TABLE_ROUNDS)
        # Nobody's rounds wait for it, and it waits for nobody's: a deal is never held
        # behind a filing, and a hand's end waits only for its own table's filings.
        self._filing = _Lane("filing", TABLE_CHUNK, parallel=True, max_rounds=TABLE_ROUNDS)
        self._table = _Lane(
            "table", TABLE_CHUNK, parallel=True, max_rounds=TABLE_ROUNDS, yields_to=(self._urgent,)
        )
        self._background = _Lane(
            "background",
            BACKGROUND_CHUNK,
            parallel=False,
            max_rounds=1,
            yields_to=(self._urgent, self._filing, self._table),
        )
        self._lanes = (self._urgent, self._filing, self._table, self._background)
        # Each lane's worker threads, started by its first write (with `blocking` only).
        self._pools: dict[str, _Threads] = {}
        self.batches = 0  # round trips (commands), group commits included
        self.writes = 0  # operations sent (a marker is not one)
        self.commits = 0  # journal syncs asked for: group commits and lone journaled writes
        self.table_writes = 0  # operations of the table lane
        self.table_batches = 0  # its round trips
        self.urgent_writes = 0  # of those, the writes a player waits for
        self.urgent_batches = 0  # and their round trips
        self.table_rounds = 0  # its rounds (a round's commands and marker)
        self.table_round_us = 0  # their time, summed (microseconds)
        self.table_round_max_us = 0
        self.by_kind: Counter[str] = Counter()  # operations sent, by "lane.collection"

    async def write(
        self,
        collection: str,
        op: WriteOp,
        *,
        journal: bool = False,
        background: bool = False,
        urgent: bool = False,
        filing: bool = False,
        stored: Callable[[], None] | None = None,
    ) -> None:
        """`urgent`: a write a player waits for (it goes first); `filing`: a finished
        hand or ledger entries filed (the table's next snapshot waits for it);
        `background`: statistics.

        `stored` is called in the event-loop step that learns the op is stored, before
        this returns (a turn of the loop later): whoever waits for it can be woken
        without another turn."""
        await self.submit(
            collection,
            op,
            journal=journal,
            background=background,
            urgent=urgent,
            filing=filing,
            stored=stored,
        )

    def submit(
        self,
        collection: str,
        op: WriteOp,
        *,
        journal: bool = False,
        background: bool = False,
        urgent: bool = False,
        filing: bool = False,
        stored: Callable[[], None] | None = None,
    ) -> asyncio.Future[None]:
        """`write`, queued in the caller's own step: the future is its outcome (a write
        handed to a lane's threads is on its way before the caller's step ends)."""
        lane = (
            self._urgent
            if urgent
            else self._filing
            if filing
            else self._background
            if background
            else self._table
        )
        done = asyncio.get_running_loop().create_future()
        item = _Queued(op, done, journal, stored)
        if lane.name in THREADED and self._blocking is not None:
            self._hand_over(lane.name, collection, item)
            return done
        if lane.task is None:
            lane.task = asyncio.create_task(self._run(lane), name=f"batch-writer-{lane.name}")
        lane.queued[collection].append(item)
        lane.wake.set()
        return done

    def tables_stopped(self) -> None:
        """No table writes any more (a stop): the background lane's commands go whole and
        wait for no other lane, so a stop does not wait for a batch of statistics sent in
        small commands, each behind the other lanes (seconds under load)."""
        self._background.chunk = TABLE_CHUNK
        self._background.yields_to = ()

    async def close(self) -> None:
        pools, self._pools = self._pools, {}
        for threads in pools.values():
            with threads.ready:
                threads.closing = True
                # Whether a round in flight was stored is unknown: its writers are told
                # it failed (the thread's own answer, later, is ignored).
                items = [item for group in threads.sending.values() for item in group]
                items += [item for _, item in threads.queued]
                threads.queued = []
                threads.ready.notify_all()
            for item in items:
                if not item.done.done():
                    item.done.set_exception(PyMongoError("the server is shutting down"))
            threads.idle.set()
        for lane in self._lanes:
            # Whether a round in flight was stored is unknown: its writers are told it failed.
            items = [item for group in lane.sending.values() for item in group]
            items += [item for group in lane.queued.values() for item in group]
            tasks = [*lane.rounds, *([lane.task] if lane.task is not None else [])]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            lane.task = None
            for item in items:
                if not item.done.done():
                    item.done.set_exception(PyMongoError("the server is shutting down"))
            lane.sending, lane.queued, lane.rounds = {}, defaultdict(list), set()

    async def _run(self, lane: _Lane) -> None:
        while True:
            await lane.wake.wait()
            lane.wake.clear()
            while len(lane.rounds) >= lane.max_rounds:  # writes queue (and batch) meanwhile
                await asyncio.wait(set(lane.rounds), return_when=asyncio.FIRST_COMPLETED)
            batch, lane.queued = lane.queued, defaultdict(list)
            if not batch:
                continue
            task = asyncio.create_task(self._deliver(lane, batch), name=f"round-{lane.name}")
            lane.rounds.add(task)
            task.add_done_callback(lane.rounds.discard)

    async def _deliver(self, lane: _Lane, batch: dict[str, list[_Queued]]) -> None:
        """Send a round and tell each writer its outcome."""
        items = [item for group in batch.values() for item in group]
        lane.sending[id(items)] = items
        began = time.perf_counter()
        errors = await self._round(lane, batch)
        if lane is not self._background:
            took = int(1e6 * (time.perf_counter() - began))
            self.table_rounds += 1
            self.table_round_us += took
            self.table_round_max_us = max(self.table_round_max_us, took)
        del lane.sending[id(items)]
        _tell(items, errors)

    async def _round(self, lane: _Lane, batch: dict[str, list[_Queued]]) -> dict[int, PyMongoError]:
        """Send a round; the errors by id() of the items that failed."""
        if lane is self._background and self._blocking is not None:
            return await self._background_round(lane, batch)
        items = [item for group in batch.values() for item in group]
        if lane is not self._background:
            self.table_writes += len(items)
        if lane is self._urgent:
            self.urgent_writes += len(items)
        commands = [
            (name, chunk)
            for name, group in batch.items()
            for chunk in _chunks(group, lane.chunk, weighed=lane is self._background)
        ]
        # Few syncs: each command journals itself (one round trip, no marker after it).
        syncs = sum(_syncs(chunk) for _, chunk in commands if any(i.journal for i in chunk))
        direct = syncs <= self._group_commit_min
        errors: dict[int, PyMongoError] = {}
        sends = [
            self._send(lane, name, chunk, journal=direct and any(i.journal for i in chunk))
            for name, chunk in commands
        ]
        if lane.parallel:
            await self._yield(lane)
            for found in await asyncio.gather(*sends):
                errors.update(found)
        else:
            for send in sends:
                await self._yield(lane)
                errors.update(await send)
        journaled = [item for item in items if item.journal and id(item) not in errors]
        if direct:
            self.commits += syncs
        elif journaled:
            failure = await self._commit(lane)
            if failure is not None:
                errors.update({id(item): failure for item in journaled})
        return errors

    def _hand_over(self, lane: str, collection: str, item: _Queued) -> None:
        """Queue a write for its lane's worker threads, in this step: a free one sends
        it at once, with whatever else is queued, without a turn of the loop."""
        threads = self._pools.get(lane)
        if threads is None:
            threads = self._pools[lane] = _Threads(asyncio.get_running_loop(), lane)
            for index in range(THREADED[lane]):
                worker = threading.Thread(
                    target=self._serve, args=(threads, index), name=f"{lane}-{index}", daemon=True
                )
                threads.workers.append(worker)
                worker.start()
        with threads.ready:
            threads.queued.append((collection, item))
            threads.ready.notify()

    def _serve(self, threads: _Threads, index: int) -> None:
        """A worker thread: one round at a time, each with everything queued."""
        assert self._blocking is not None
        while True:
            with threads.ready:
                while not threads.queued and not threads.closing:
                    threads.ready.wait()
                if threads.closing:
                    return
                taken, threads.queued = threads.queued, []
                items = [item for _, item in taken]
                threads.sending[id(items)] = items
            batch: dict[str, list[_Queued]] = defaultdict(list)
            for name, item in taken:
                batch[name].append(item)
            began = time.perf_counter()
            try:
                errors, sent = self._round_blocking(self._blocking, batch, f"{threads.lane}{index}")
            except Exception as error:  # not expected: every command's errors are caught
                failure = PyMongoError(repr(error))
                errors, sent = dict.fromkeys(map(id, items), failure), _Sent(0, 0, 0, False)
            took = int(1e6 * (time.perf_counter() - began))
            with threads.ready:
                del threads.sending[id(items)]
                if threads.closing:
                    return
            try:
                threads.loop.call_soon_threadsafe(
                    self._finished, threads, batch, errors, sent, took
                )
            except RuntimeError:  # the loop is closed: nobody is waiting any more
                return

    def _finished(
        self,
        threads: _Threads,
        batch: dict[str, list[_Queued]],
        errors: dict[int, PyMongoError],
        sent: _Sent,
        took: int,
    ) -> None:
        """In the loop: a thread's round is over; its counts, and each writer told."""
        urgent = threads.lane == self._urgent.name
        self.batches += sent.commands + sent.marker
        self.table_batches += sent.commands + sent.marker
        if urgent:
            self.urgent_batches += sent.commands + sent.marker
        self.writes += sent.writes
        self.commits += sent.syncs + sent.marker
        self.table_rounds += 1
        self.table_round_us += took
        self.table_round_max_us = max(self.table_round_max_us, took)
        for name, group in batch.items():
            self.by_kind[f"{threads.lane}.{name}"] += len(group)
            self.table_writes += len(group)
            if urgent:
                self.urgent_writes += len(group)
        _tell([item for group in batch.values() for item in group], errors)
        with threads.ready:
            idle = not threads.sending
        if idle:
            threads.idle.set()

    async def _background_round(
        self, lane: _Lane, batch: dict[str, list[_Queued]]
    ) -> dict[int, PyMongoError]:
        """A background round in a thread of its own, its commands one after the other
        (`_pause` between them): through the asynchronous driver each command took ~22
        turns of a busy event loop (50-70 ms each under `showdown bench server`), and
        the statistics counted 1.5 hands/s of the 60-90 dealt."""
        assert self._blocking is not None
        await self._yield(lane)  # its first command waits its turn as any other's
        items = [item for group in batch.values() for item in group]
        kinds: Counter[str] = Counter()
        try:
            send = self._background_blocking
            errors = await asyncio.to_thread(send, self._blocking, batch, kinds)
        except Exception as error:  # not expected: every command's errors are caught
            failure = error if isinstance(error, PyMongoError) else PyMongoError(repr(error))
            errors = dict.fromkeys(map(id, items), failure)
        commands = kinds.pop("", 0)
        self.batches += commands
        self.writes += sum(kinds.values())
        self.commits += sum(1 for item in items if item.journal and id(item) not in errors)
        self.by_kind.update({f"{lane.name}.{name}": n for name, n in kinds.items()})
        return errors

    def _background_blocking(
        self, db: Database[Document], batch: dict[str, list[_Queued]], kinds: Counter[str]
    ) -> dict[int, PyMongoError]:
        """A background round's commands, one after the other, each cut from what is
        left with the lane's chunk as it is then (`tables_stopped` makes the rest go
        whole) and journaled directly if any of its writes must be (the statistics'
        are not). Counts the operations per collection in `kinds`, commands under ""."""
        errors: dict[int, PyMongoError] = {}
        took: float | None = None
        for name, group in batch.items():
            start = 0
            while start < len(group):
                if took is not None:
                    self._pause(took)
                end = _chunk_end(group, start, self._background.chunk, weighed=True)
                chunk, start = group[start:end], end
                journal = any(item.journal for item in chunk)
                concern = _concern(db.write_concern, journal)
                began = time.perf_counter()
                try:
                    db.get_collection(name, write_concern=concern).bulk_write(
                        [item.op for item in chunk], ordered=False
                    )
                except Exception as error:
                    errors.update(_failures(chunk, error))
                took = time.perf_counter() - began
                kinds[name] += len(chunk)
                kinds[""] += 1
        return errors

    def _pause(self, took: float) -> None:
        """In the background thread, after a command that took `took` seconds: while the
        lanes before it have rounds in flight or queued, as long again (at most
        BACKGROUND_YIELD), so the statistics take at most half of the database's time
        from busy tables; idle tables, none."""
        if self._busy_ahead():
            time.sleep(min(took, BACKGROUND_YIELD))  # a time share, not a synchronisation

    def _busy_ahead(self) -> bool:
        """Whether the lanes the background lane yields to have work (read from a thread:
        a moment's stale answer only shifts one pause)."""
        for lane in self._background.yields_to:  # none once the tables stopped
            if lane.rounds or lane.queued:
                return True
            threads = self._pools.get(lane.name)
            if threads is not None:
                with threads.ready:
                    if threads.sending or threads.queued:
                        return True
        return False

    def _round_blocking(
        self,
        db: Database[Document],
        batch: dict[str, list[_Queued]],
        sender: str,
    ) -> tuple[dict[int, PyMongoError], _Sent]:
        """`_round` in a worker thread: the same commands, marker and outcomes, one
        command after the other. Touches nothing of the writer's but its settings."""
        commands = [
            (name, group[start : start + TABLE_CHUNK])
            for name, group in batch.items()
            for start in range(0, len(group), TABLE_CHUNK)
        ]
        syncs = sum(_syncs(chunk) for _, chunk in commands if any(i.journal for i in chunk))
        direct = syncs <= self._group_commit_min
        errors: dict[int, PyMongoError] = {}
        for name, chunk in commands:
            journal = direct and any(item.journal for item in chunk)
            collection = db.get_collection(name, write_concern=_concern(db.write_concern, journal))
            try:
                collection.bulk_write([item.op for item in chunk], ordered=False)
            except Exception as error:
                errors.update(_failures(chunk, error))
        journaled = [item for group in batch.values() for item in group if item.journal]
        journaled = [item for item in journaled if id(item) not in errors]
        marker = not direct and bool(journaled)
        if marker:
            commits = db.get_collection(
                self.commits_of(sender), write_concern=_concern(db.write_concern, True)
            )
            try:
                commits.update_one(self._marker_of(sender), {"$inc": {"n": 1}}, upsert=True)
            except Exception as error:
                failure = error if isinstance(error, PyMongoError) else PyMongoError(repr(error))
                errors.update({id(item): failure for item in journaled})
        writes = sum(len(chunk) for _, chunk in commands)
        return errors, _Sent(len(commands), writes, syncs if direct else 0, marker)

    def _marker_of(self, sender: str) -> Document:
        """The marker document of one sender (a lane, or one of a lane's threads).
        Markers of rounds in flight together are different documents: two journaled
        updates of one document at once conflict in the embedded database, and the
        one retried waited p50 7-9 ms (max 50-290 ms) against 1.5 ms apart."""
        return {"_id": f"{self._marker}.{sender}"}

    def commits_of(self, sender: str) -> str:
        """The collection of one sender's marker: a collection each. The embedded
        database holds a collection's lock through a journaled commit's sync, so
        markers of one collection synced one after the other (four threads: p50 10-11
        ms a marker); in collections of their own their syncs overlap and the storage
        engine's log shares them (p50 1.7-2.0 ms;
        docs/experiments/2026-11-28-markers-apart.md)."""
        return f"{COMMITS}.{_SAFE.sub('_', self._marker)}.{sender}"

    async def _yield(self, lane: _Lane) -> None:
        """Wait for the rounds in flight of the lanes that go first: the database is
        shared by threads, and a round that runs beside another command takes longer."""
        ahead: set[asyncio.Future[Any]] = {
            task for first in lane.yields_to for task in first.rounds
        }
        idle: list[asyncio.Future[Any]] = []
        for first in lane.yields_to:
            threads = self._pools.get(first.name)
            if threads is None:
                continue
            with threads.ready:
                busy = bool(threads.sending or threads.queued)
            if busy:
                threads.idle.clear()
                idle.append(asyncio.ensure_future(threads.idle.wait()))
        ahead.update(idle)
        if ahead:
            await asyncio.wait(ahead, timeout=BACKGROUND_YIELD)
        for waiting in idle:
            waiting.cancel()

    def _collection(self, name: str, journal: bool) -> AsyncCollection[Document]:
        return self._db.get_collection(
            name, write_concern=_concern(self._db.write_concern, journal)
        )

    async def _commit(self, lane: _Lane) -> PyMongoError | None:
        """One journaled write after the round: its sync makes the whole round durable."""
        self.batches += 1
        self.commits += 1
        if lane is not self._background:
            self.table_batches += 1
        if lane is self._urgent:
            self.urgent_batches += 1
        marker = self._collection(self.commits_of(lane.name), True)
        try:
            await marker.update_one(self._marker_of(lane.name), {"$inc": {"n": 1}}, upsert=True)
        except PyMongoError as error:
            return error
        except Exception as error:
            return PyMongoError(repr(error))
        return None

    async def _send(
        self, lane: _Lane, name: str, items: list[_Queued], *, journal: bool
    ) -> dict[int, PyMongoError]:
        self.batches += 1
        self.writes += len(items)
        self.by_kind[f"{lane.name}.{name}"] += len(items)
        if lane is not self._background:
            self.table_batches += 1
        if lane is self._urgent:
            self.urgent_batches += 1
        try:
            await self._collection(name, journal).bulk_write(
                [item.op for item in items], ordered=False
            )
        except Exception as error:
            return _failures(items, error)
        return {}


def _chunks(group: list[_Queued], limit: int, *, weighed: bool) -> list[list[_Queued]]:
    """A collection's operations in commands of at most `limit` operations or, `weighed`,
    of at most `limit` updates' worth (INSERTS_PER_UPDATE inserts for an update)."""
    out: list[list[_Queued]] = []
    start = 0
    while start < len(group):
        end = _chunk_end(group, start, limit, weighed=weighed)
        out.append(group[start:end])
        start = end
    return out


def _chunk_end(group: list[_Queued], start: int, limit: int, *, weighed: bool) -> int:
    """Where the command that begins at `start` ends (`_chunks`); never empty."""
    if not weighed:
        return min(len(group), start + limit)
    cost, end = 0, start
    while end < len(group):
        cost += 1 if isinstance(group[end].op, InsertOne) else INSERTS_PER_UPDATE
        if end > start and cost > limit * INSERTS_PER_UPDATE:
            break
        end += 1
    return end


def _tell(items: Iterable[_Queued], errors: dict[int, PyMongoError]) -> None:
    """Each writer its outcome (and `stored` of those stored), in this step."""
    for item in items:
        if item.done.done():  # the writer gave up waiting (cancelled)
            continue
        error = errors.get(id(item))
        if error is not None:
            item.done.set_exception(error)
            continue
        if item.stored is not None:
            item.stored()
        item.done.set_result(None)


def _concern(concern: WriteConcern, journal: bool) -> WriteConcern:
    return WriteConcern(**{**concern.document, "j": journal})


def _failures(items: list[_Queued], error: Exception) -> dict[int, PyMongoError]:
    """A command's failure as each of its items' own error, by id() of the item."""
    failed: dict[int, PyMongoError] = {}
    if isinstance(error, BulkWriteError):
        details = error.details
        for entry in details.get("writeErrors", []):
            failed[int(entry["index"])] = WriteError(entry.get("errmsg", ""), entry.get("code"))
        if details.get("writeConcernErrors"):  # nothing in the batch is known to be safe
            failed = dict.fromkeys(range(len(items)), error)
    elif isinstance(error, PyMongoError):
        failed = dict.fromkeys(range(len(items)), error)
    else:  # e.g. a document BSON cannot encode: still an answer
        failed = dict.fromkeys(range(len(items)), PyMongoError(repr(error)))
    return {id(items[index]): error for index, error in failed.items()}
