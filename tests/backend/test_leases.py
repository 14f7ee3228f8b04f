"""Table leases and fenced writes on the real embedded database.

Time is a clock the test moves (the leases read it), so expiry needs no sleeping.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import pytest
from pymongo import AsyncMongoClient
from pymongo.errors import WriteError

from backend.cluster.fencing import (
    StaleOwner,
    fenced_filter,
    fenced_update,
    refused,
    stamp,
    write_fenced,
)
from backend.cluster.keeper import LeaseKeeper
from backend.cluster.leases import Leases
from backend.db.batch_writer import BatchWriter
from backend.db.codec import Document
from backend.db.repositories import Repositories
from backend.realtime.persister import Persister


class Clock:
    def __init__(self) -> None:
        self.at = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.at

    def advance(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)


@pytest.fixture
async def db(mongo_url: str) -> AsyncIterator[object]:
    client: AsyncMongoClient[Document] = AsyncMongoClient(mongo_url, tz_aware=True)
    name = "l" + uuid.uuid4().hex[:12]
    yield client[name]
    await client.drop_database(name)
    await client.close()


async def test_one_owner_at_a_time_and_each_owner_a_higher_token(db) -> None:  # type: ignore[no-untyped-def]
    clock = Clock()
    a, b = Leases(db, "a", ttl=10, clock=clock), Leases(db, "b", ttl=10, clock=clock)
    first = await a.acquire("t1")
    assert first is not None and first.owner == "a"
    assert await b.acquire("t1") is None  # held
    clock.advance(8)
    renewed = await a.renew(first)
    assert renewed is not None and renewed.token == first.token
    clock.advance(8)  # 16 s after the start: the renewal holds it
    assert await b.acquire("t1") is None
    assert (await b.holder("t1")) == renewed
    clock.advance(3)  # past the renewed expiry
    taken = await b.acquire("t1")
    assert taken is not None and taken.owner == "b" and taken.token > first.token
    assert await a.renew(renewed) is None  # lost: a stops acting for t1
    await b.release(taken)
    again = await a.acquire("t1")  # free at once, the counter kept
    assert again is not None and again.token > taken.token


async def test_two_nodes_racing_for_a_table_one_wins(db) -> None:  # type: ignore[no-untyped-def]
    clock = Clock()
    nodes = [Leases(db, f"n{i}", ttl=10, clock=clock) for i in range(4)]
    won = await asyncio.gather(*(node.acquire("t1") for node in nodes))
    assert sum(lease is not None for lease in won) == 1


async def test_a_stale_owners_write_is_refused_by_the_store(db) -> None:  # type: ignore[no-untyped-def]
    clock = Clock()
    a, b = Leases(db, "a", ttl=10, clock=clock), Leases(db, "b", ttl=10, clock=clock)
    await db.tables.insert_one({"_id": "t1", "snapshot": {"stacks": [100]}})
    old = await a.acquire("t1")
    assert old is not None
    await write_fenced(db, "tables", "t1", old.token, {"$set": {"snapshot": {"stacks": [90]}}})
    clock.advance(11)  # a paused past its lease; b takes the table over
    new = await b.acquire("t1")
    assert new is not None
    assert await stamp(db, "tables", "t1", new.token)
    with pytest.raises(StaleOwner):
        await write_fenced(db, "tables", "t1", old.token, {"$set": {"snapshot": {"stacks": [0]}}})
    doc = await db.tables.find_one({"_id": "t1"})
    assert doc is not None and doc["snapshot"] == {"stacks": [90]} and doc["fence"] == new.token
    await write_fenced(db, "tables", "t1", new.token, {"$set": {"snapshot": {"stacks": [80]}}})
    with pytest.raises(StaleOwner):  # a's late stamp too
        await stamp(db, "tables", "t1", old.token)
    assert not await stamp(db, "tables", "missing", new.token)  # nothing to fence


async def test_a_fenced_filter_matches_a_token_not_below_the_fence_or_no_fence(db) -> None:  # type: ignore[no-untyped-def]
    await db.tables.insert_many([{"_id": "old"}, {"_id": "t3", "fence": 3}])
    assert await db.tables.count_documents(fenced_filter("old", 1)) == 1  # never fenced
    assert await db.tables.count_documents(fenced_filter("t3", 3)) == 1
    assert await db.tables.count_documents(fenced_filter("t3", 4)) == 1
    assert await db.tables.count_documents(fenced_filter("t3", 2)) == 0


def test_a_fenced_filter_is_a_lookup_by_id() -> None:
    # A top-level operator ($or) makes the embedded database scan every document of
    # the collection for each fenced write (twice a hand per table); `_id` beside
    # conditions on fields is looked up by its key
    # (docs/experiments/2026-11-27-bench-cluster-log.md, "What a node cost").
    assert not [key for key in fenced_filter("t1", 7) if key.startswith("$")]


async def test_fenced_writes_travel_in_group_commits_and_fail_alone(db) -> None:  # type: ignore[no-untyped-def]
    for n in range(3):
        await db.tables.insert_one({"_id": f"t{n}", "fence": 5})
    writer = BatchWriter(db)
    try:
        results = await asyncio.gather(
            writer.write("tables", fenced_update("t0", 5, {"$set": {"x": 1}}), journal=True),
            writer.write("tables", fenced_update("t1", 4, {"$set": {"x": 1}}), journal=True),
            writer.write("tables", fenced_update("t2", 6, {"$set": {"x": 1}}), journal=True),
            return_exceptions=True,
        )
    finally:
        await writer.close()
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], BaseException) and refused(results[1])
    docs = {doc["_id"]: doc async for doc in db.tables.find({})}
    assert docs["t0"]["fence"] == 5 and docs["t2"]["fence"] == 6
    assert "x" not in docs["t1"] and docs["t1"]["fence"] == 5


async def test_the_keeper_renews_and_reports_a_lease_taken_over(db) -> None:  # type: ignore[no-untyped-def]
    clock = Clock()
    lost: list[str] = []
    keeper = LeaseKeeper(Leases(db, "a", ttl=10, clock=clock), lost.append)
    other = Leases(db, "b", ttl=10, clock=clock)
    for table_id in ("t1", "t2"):
        assert await keeper.take(table_id) is not None
    clock.advance(6)
    assert await keeper.renew_all() == []
    clock.advance(6)  # 12 s: alive only thanks to the renewal
    assert keeper.token("t1") is not None and await other.acquire("t1") is None
    clock.advance(5)  # 17 s: both run out (a renewal was missed); another node takes t2
    taken = await other.acquire("t2")
    assert taken is not None
    assert keeper.token("t2") is None  # run out on our clock: not acted on any more
    assert await keeper.renew_all() == ["t2"] and lost == ["t2"]
    # t1 ran out but nobody took it (its token unchanged): renewed, still ours.
    assert keeper.token("t1") is not None and set(keeper.held) == {"t1"}
    assert [lease.table_id for lease in await other.held_by("a")] == ["t1"]
    await keeper.stop()
    assert await other.acquire("t1") is not None  # released by the stop


async def test_a_lease_taken_during_a_renewal_is_not_judged_by_it(db) -> None:  # type: ignore[no-untyped-def]
    clock = Clock()
    lost: list[str] = []
    keeper = LeaseKeeper(Leases(db, "a", ttl=10, clock=clock), lost.append)
    assert await keeper.take("t1") is not None
    # The renewal sends t1's lease; t2 is taken while it waits for the database.
    renewal, taken = await asyncio.gather(keeper.renew_all(), keeper.take("t2"))
    assert renewal == [] and lost == [] and taken is not None
    assert set(keeper.held) == {"t1", "t2"} and keeper.token("t2") == taken.token


async def test_a_table_whose_fenced_write_is_refused_writes_nothing_more(db) -> None:  # type: ignore[no-untyped-def]
    repos = Repositories.of(db)
    await repos.tables.insert("t1", {}, {}, {"stacks": [100]}, 1)
    assert await stamp(db, "tables", "t1", 5)  # a later owner took the table over
    persister = Persister("t1", repos)
    persister.fence = 4  # this node's token, older
    stale: list[bool] = []
    persister.on_stale = lambda: stale.append(True)
    try:
        persister.save_state({"stacks": [0]}, 2)
        shown: list[bool] = []
        assert persister.on_stored(lambda: shown.append(True))
        await persister.wait_durable()  # refused: the table is told, not kept waiting
        assert stale == [True] and persister.stale
        assert shown == []  # nothing held for the refused write is sent from its step
        persister.save_state({"stacks": [1]}, 3)  # nothing more is sent
        persister.start_hand(1, 1, {1: 100}, {})
        assert persister.unconfirmed() is None
        await persister.drain()
        doc = await db.tables.find_one({"_id": "t1"})
        assert doc is not None and doc["snapshot"] == {"stacks": [100]} and doc["fence"] == 5
        assert await db.live_hands.find_one({"_id": "t1"}) is None
        # The owner's own writes go through, fenced with its token; an older one's are
        # refused in the live hand's document too.
        await repos.tables.save_state("t1", {"stacks": [90]}, 4, fence=5)
        await repos.hands.start_live("t1", 1, 1, {1: 90}, {}, fence=5)
        with pytest.raises(WriteError) as refusal:
            await repos.hands.start_live("t1", 1, 2, {1: 0}, {}, fence=4)
        assert refused(refusal.value)
        live = await db.live_hands.find_one({"_id": "t1"})
        assert live is not None and live["button"] == 1 and live["fence"] == 5
    finally:
        await persister.close()
        await repos.writer.close()
