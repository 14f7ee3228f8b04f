"""A takeover round's read of the free tables (backend.cluster.free_tables), on the real
embedded database, with the commands it sends counted by the driver's own monitoring."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from pymongo import AsyncMongoClient, monitoring

from backend.cluster.free_tables import FreeTables
from backend.cluster.leases import Leases
from backend.db.codec import Document


class Clock:
    def __init__(self) -> None:
        self.at = datetime(2026, 11, 28, 0, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.at


class Reads(monitoring.CommandListener):
    """The `find` commands sent to the `tables` collection."""

    def __init__(self) -> None:
        self.tables = 0

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        if event.command_name == "find" and event.command.get("find") == "tables":
            self.tables += 1

    def succeeded(self, event: monitoring.CommandSucceededEvent) -> None:
        pass

    def failed(self, event: monitoring.CommandFailedEvent) -> None:
        pass


@pytest.fixture
async def db_reads(mongo_url: str) -> AsyncIterator[tuple[object, Reads]]:
    reads = Reads()
    client: AsyncMongoClient[Document] = AsyncMongoClient(
        mongo_url, tz_aware=True, event_listeners=[reads]
    )
    name = "f" + uuid.uuid4().hex[:12]
    yield client[name], reads
    await client.drop_database(name)
    await client.close()


async def test_rounds_read_the_tables_only_for_leases_run_out(db_reads) -> None:  # type: ignore[no-untyped-def]
    db, reads = db_reads
    clock = Clock()
    a, b = Leases(db, "a", ttl=10, clock=clock), Leases(db, "b", ttl=10, clock=clock)
    for n in range(4):
        assert await a.acquire(f"t{n}") is not None  # claimed before its document
        await db.tables.insert_one({"_id": f"t{n}", "snapshot": {"stacks": [100] * 6}})
    await db.tables.insert_one({"_id": "single"})  # a single process's table: no lease
    free = FreeTables(db, b, full_every=3)
    nowhere = lambda table_id: False  # noqa: E731 - no table loaded on b
    assert await free.find(nowhere) == (5, ["single"])  # the first round reads every id
    assert reads.tables == 1
    single = await b.acquire("single")
    assert single is not None
    for _ in range(2):  # every lease held: the tables are not read
        assert await free.find(nowhere) == (5, [])
    assert reads.tables == 1
    assert await free.find(nowhere) == (5, [])  # every third round reads them all again
    assert reads.tables == 2

    await db.tables.delete_one({"_id": "t2"})  # t2 closed; its lease runs out
    clock.at += timedelta(seconds=11)  # a died: its leases ran out
    assert await b.renew(single) is not None
    # Only the three whose lease ran out are asked about (t3 is loaded on b already).
    assert await free.find(lambda table_id: table_id == "t3") == (3, ["t0", "t1"])
    assert reads.tables == 3
    # t2 was found closed: not asked about again while its lease keeps that token.
    assert await free.find(lambda table_id: table_id in ("t0", "t1", "t3")) == (1, [])
    assert reads.tables == 3
