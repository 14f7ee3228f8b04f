"""Every table's writes, sent to the database together (group commit).

Each table writes one operation at a time, in order (its Persister waits for
each). A round trip per operation costs the server about 0.4 ms of CPU in the
driver and the database as much again, for a few KB; a hundred busy tables
would spend most of a core on it. So writes queued while a batch is in flight
go out together as the next batch: one unordered `bulk_write` per collection.
Operations in a batch come from different tables and touch different
documents, so their order does not matter; each caller still learns whether
its own operation succeeded.

A write with `journal=True` is acknowledged only once the database's journal is
on disk (j: true): the embedded database loses acknowledged but unjournaled
writes when it is killed. Tables journal what must survive a crash (a deal, a
hand's end and its filing, a seat change, the ledger); a live hand's actions are
not journaled (a crash voids the hand anyway).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import defaultdict
from dataclasses import dataclass

from pymongo import DeleteOne, InsertOne, ReplaceOne, UpdateOne
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import BulkWriteError, PyMongoError, WriteError
from pymongo.write_concern import WriteConcern

from backend.db.codec import Document

WriteOp = InsertOne[Document] | ReplaceOne[Document] | UpdateOne | DeleteOne
_Key = tuple[str, bool]  # collection, journaled


@dataclass(frozen=True, slots=True)
class _Queued:
    op: WriteOp
    done: asyncio.Future[None]


class BatchWriter:
    """`await write(collection, op)` returns once the op is stored, or raises PyMongoError."""

    def __init__(self, db: AsyncDatabase[Document]) -> None:
        self._db = db
        self._queued: dict[_Key, list[_Queued]] = defaultdict(list)
        self._sending: dict[_Key, list[_Queued]] = {}  # the batch in flight
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.batches = 0
        self.writes = 0

    async def write(self, collection: str, op: WriteOp, *, journal: bool = False) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="batch-writer")
        done = asyncio.get_running_loop().create_future()
        self._queued[(collection, journal)].append(_Queued(op, done))
        self._wake.set()
        await done

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        # Whether the batch in flight was stored is unknown: its writers are told it failed.
        for batch in (self._sending, self._queued):
            for items in batch.values():
                for item in items:
                    if not item.done.done():
                        item.done.set_exception(PyMongoError("the server is shutting down"))
        self._sending, self._queued = {}, defaultdict(list)

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._queued = self._queued, defaultdict(list)
            self._sending = batch
            await asyncio.gather(*(self._send(key, items) for key, items in batch.items()))
            self._sending = {}

    async def _send(self, key: _Key, items: list[_Queued]) -> None:
        self.batches += 1
        self.writes += len(items)
        failed: dict[int, PyMongoError] = {}
        name, journal = key
        concern = WriteConcern(**{**self._db.write_concern.document, "j": journal})
        collection = self._db.get_collection(name, write_concern=concern)
        try:
            await collection.bulk_write([item.op for item in items], ordered=False)
        except BulkWriteError as error:
            details = error.details
            for entry in details.get("writeErrors", []):
                failed[int(entry["index"])] = WriteError(entry.get("errmsg", ""), entry.get("code"))
            if details.get("writeConcernErrors"):  # nothing in the batch is known to be safe
                failed = dict.fromkeys(range(len(items)), error)
        except PyMongoError as error:
            failed = dict.fromkeys(range(len(items)), error)
        except Exception as error:  # e.g. a document BSON cannot encode: still an answer
            failed = dict.fromkeys(range(len(items)), PyMongoError(repr(error)))
        for index, item in enumerate(items):
            if item.done.done():  # the writer gave up waiting (cancelled)
                continue
            if index in failed:
                item.done.set_exception(failed[index])
            else:
                item.done.set_result(None)
