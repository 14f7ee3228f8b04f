"""Idle tables are closed: they leave the lobby and every seat is cashed out.

A table is idle while nobody is connected and no hand is dealt. After
TABLE_IDLE_CLOSE seconds of that, its runtime is stopped and it is closed in
three idempotent steps, so a crash between them is finished at the next start
(`finish_closed_tables`) and no chip is counted twice or lost:

1. `closed_tables` gets the table's final seats (player, seat, stack);
2. the ledger gets one `cashout` per seat with chips (ids derived from the table
   and seat: writing one twice is a duplicate, skipped);
3. the table's document is deleted, so it is not restored again.

If the database fails before step 1, the table is still stored as it was: it
comes back at the next start (and is closed again once idle). No chip moves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import UTC, datetime
from typing import Any

from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import BulkWriteError, DuplicateKeyError

from backend.logging import log_context
from backend.realtime.manager import TableManager
from backend.realtime.runtime import TableRuntime

log = logging.getLogger(__name__)

Document = dict[str, Any]
DUPLICATE_KEY = 11000
CLOSE_WAIT = 10.0  # seconds a closing waits for the table's writes to be stored


async def close_table(
    db: AsyncDatabase[Document], tables: TableManager, runtime: TableRuntime
) -> None:
    """Stop the table and close it: lobby, database and ledger.

    Only once its writes are stored: while the database does not confirm them the
    table stays (closed at a later sweep), so the cashouts are the stored stacks."""
    table_id = runtime.table_id
    try:
        await runtime.persister.drain(CLOSE_WAIT)
    except TimeoutError:
        with log_context(table_id=table_id):
            log.warning("idle table not closed: its writes are not stored yet")
        return
    tables.forget(table_id)  # first: a socket arriving now is told there is no such table
    await runtime.stop()  # its writes are drained: the stored stacks are these
    cashouts = [
        {"player_id": s.player_id, "seat": s.number, "amount": s.stack}
        for s in runtime.table.seats.values()
        if s.stack > 0
    ]
    with contextlib.suppress(DuplicateKeyError):  # closed already: its cashouts stand
        await db.closed_tables.insert_one(
            {
                "_id": table_id,
                "name": runtime.options.name,
                "hand_no": runtime.table.hand_no,
                "closed_at": datetime.now(UTC),
                "cashouts": cashouts,
            }
        )
    await _finish(db, table_id)
    with log_context(table_id=table_id):
        log.info("idle table closed", extra={"cashouts": cashouts})


async def finish_closed_tables(db: AsyncDatabase[Document]) -> int:
    """At start-up: finish the closings a stop cut short; how many there were."""
    finished = 0
    async for doc in db.closed_tables.find({}, {"_id": 1}):
        if await db.tables.find_one({"_id": doc["_id"]}, {"_id": 1}) is not None:
            await _finish(db, str(doc["_id"]))
            finished += 1
    return finished


async def _finish(db: AsyncDatabase[Document], table_id: str) -> None:
    closed = await db.closed_tables.find_one({"_id": table_id})
    if closed is None:
        return
    at = closed["closed_at"]
    entries = [
        {
            "_id": f"close:{table_id}:{c['seat']}",
            "player_id": c["player_id"],
            "table_id": table_id,
            "kind": "cashout",
            "amount": c["amount"],
            "seat": c["seat"],
            "at": at,
            "note": "table closed",
        }
        for c in closed["cashouts"]
    ]
    if entries:
        try:
            await db.ledger.insert_many(entries, ordered=False)
        except BulkWriteError as error:
            # Written already by an earlier attempt: those are duplicates, nothing else is.
            if any(e.get("code") != DUPLICATE_KEY for e in error.details.get("writeErrors", [])):
                raise
    await db.tables.delete_one({"_id": table_id})


def _tournament_running(runtime: TableRuntime) -> bool:
    hook = runtime.tournament
    view = hook.view(runtime.table_id) if hook is not None else None
    return view is not None and view.status == "running"


class IdleCloser:
    """Looks at every table now and then; closes those idle for `idle` seconds."""

    def __init__(self, db: AsyncDatabase[Document], tables: TableManager, idle: float) -> None:
        self._db = db
        self._tables = tables
        self._idle = idle
        self._seen: dict[str, tuple[float, int]] = {}  # table -> (idle since, hands played)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._idle > 0:
            self._task = asyncio.create_task(self._run(), name="idle-tables")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    async def _run(self) -> None:
        period = min(60.0, max(0.05, self._idle / 4))
        while True:
            await asyncio.sleep(period)  # a periodic sweep: idle tables need no promptness
            try:
                await self.sweep()
            except Exception:
                log.exception("closing idle tables failed")

    async def sweep(self) -> None:
        now = asyncio.get_running_loop().time()
        runtimes = self._tables.all()
        for gone in self._seen.keys() - {r.table_id for r in runtimes}:
            del self._seen[gone]
        for runtime in runtimes:
            hands = runtime.hands_played
            busy = (
                runtime.connections > 0
                or runtime.summary().hand_in_progress
                or runtime.paused  # the database is not confirming: close nothing now
                or _tournament_running(runtime)  # a break or hand-for-hand wait: not idle
            )
            since, seen_hands = self._seen.get(runtime.table_id, (now, hands))
            if busy or hands != seen_hands:
                since = now
            self._seen[runtime.table_id] = (since, hands)
            if now - since >= self._idle:
                del self._seen[runtime.table_id]
                await close_table(self._db, self._tables, runtime)
