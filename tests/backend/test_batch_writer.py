"""The shared BatchWriter: many tables' writes in few round trips, each told its own outcome."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from pymongo import AsyncMongoClient, InsertOne, MongoClient, UpdateOne
from pymongo.errors import PyMongoError, WriteError

from backend.db.batch_writer import BatchWriter
from backend.db.embedded import EmbeddedMongo
from backend.db.repositories import Repositories


async def markers(db) -> dict[str, set[str]]:  # type: ignore[no-untyped-def]
    """The marker documents' ids, by collection (one collection per sender)."""
    names = [n for n in await db.list_collection_names() if n.startswith("group_commits")]
    return {name: set(map(str, await db[name].distinct("_id"))) for name in names}


async def marker_ids(db) -> set[str]:  # type: ignore[no-untyped-def]
    return {marker for ids in (await markers(db)).values() for marker in ids}


@pytest.fixture
async def db(mongo_url: str):  # type: ignore[no-untyped-def]
    client: AsyncMongoClient[dict[str, object]] = AsyncMongoClient(mongo_url)
    name = "w" + uuid.uuid4().hex[:12]
    yield client[name]
    await client.drop_database(name)
    await client.close()


async def test_concurrent_writes_share_round_trips(db) -> None:  # type: ignore[no-untyped-def]
    writer = BatchWriter(db)
    try:
        # 100 tables, each writing its state 5 times in order (as a Persister does).
        async def table(number: int) -> None:
            await writer.write("tables", InsertOne({"_id": number, "n": 0}))
            for _ in range(4):
                await writer.write("tables", UpdateOne({"_id": number}, {"$inc": {"n": 1}}))

        await asyncio.gather(*(table(n) for n in range(100)))
    finally:
        await writer.close()
    assert writer.writes == 500
    assert writer.batches < 50  # one round trip per op would be 500
    assert [doc["n"] async for doc in db.tables.find({}).sort("_id", 1)] == [4] * 100


async def test_a_failed_op_fails_alone(db) -> None:  # type: ignore[no-untyped-def]
    await db.ledger.insert_one({"_id": "taken"})
    writer = BatchWriter(db)
    try:
        results = await asyncio.gather(
            writer.write("ledger", InsertOne({"_id": "a"})),
            writer.write("ledger", InsertOne({"_id": "taken"})),  # duplicate key
            writer.write("ledger", InsertOne({"_id": "b"})),
            return_exceptions=True,
        )
    finally:
        await writer.close()
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], WriteError)
    assert sorted([doc["_id"] async for doc in db.ledger.find({})]) == ["a", "b", "taken"]


@contextlib.asynccontextmanager
async def next_insert_fails(mongo_url: str, **how: object) -> AsyncIterator[None]:
    """The database's next insert command fails (or hangs) as `how` says."""
    admin: AsyncMongoClient[dict[str, object]] = AsyncMongoClient(mongo_url)
    await admin.admin.command(
        "configureFailPoint",
        "failCommand",
        mode={"times": 1},
        data={"failCommands": ["insert"], **how},
    )
    try:
        yield
    finally:
        await admin.admin.command("configureFailPoint", "failCommand", mode="off")
        await admin.close()


async def test_a_failed_round_trip_fails_every_op_in_it(mongo_url: str, db) -> None:  # type: ignore[no-untyped-def]
    writer = BatchWriter(db)
    async with next_insert_fails(mongo_url, errorCode=2, errmsg="injected"):
        try:
            results = await asyncio.gather(
                *(writer.write("ledger", InsertOne({"_id": n})) for n in range(3)),
                return_exceptions=True,
            )
            assert all(isinstance(r, PyMongoError) for r in results)
            await writer.write("ledger", InsertOne({"_id": "after"}))  # the writer goes on
        finally:
            await writer.close()
    assert [doc["_id"] async for doc in db.ledger.find({})] == ["after"]


async def test_closing_mid_batch_answers_its_writers(mongo_url: str, db) -> None:  # type: ignore[no-untyped-def]
    writer = BatchWriter(db)
    async with next_insert_fails(mongo_url, blockConnection=True, blockTimeMS=5000):
        write = asyncio.create_task(writer.write("ledger", InsertOne({"_id": 1})))
        while writer.batches == 0:  # noqa: ASYNC110 - until the batch is sent (and held)
            await asyncio.sleep(0)
        await writer.close()
        with pytest.raises(PyMongoError, match="shutting down"):
            await asyncio.wait_for(write, 1)


async def test_a_round_of_journaled_writes_takes_one_journal_sync(db) -> None:  # type: ignore[no-untyped-def]
    writer = BatchWriter(db)
    try:
        await asyncio.gather(
            *(writer.write("tables", InsertOne({"_id": n}), journal=True) for n in range(20)),
            *(writer.write("hands", InsertOne({"_id": n}), journal=True) for n in range(20)),
        )
    finally:
        await writer.close()
    assert writer.writes == 40
    assert writer.commits <= 2  # a sync per round or per insert command, not per write
    assert await db.tables.count_documents({}) == 20 and await db.hands.count_documents({}) == 20


async def test_many_journaled_updates_share_one_marker(db) -> None:  # type: ignore[no-untyped-def]
    writer = BatchWriter(db)
    try:
        update = {"$set": {"x": 1}}
        await asyncio.gather(
            *(
                writer.write("tables", UpdateOne({"_id": n}, update, upsert=True), journal=True)
                for n in range(30)
            )
        )
    finally:
        await writer.close()
    # The first round may journal its one write directly; the 29 others share a marker.
    assert writer.commits <= 2 and len(await marker_ids(db)) == 1


async def test_a_failed_group_commit_fails_the_journaled_writes_only(mongo_url: str, db) -> None:  # type: ignore[no-untyped-def]
    writer = BatchWriter(db, group_commit_min=0)  # a marker after every journaled round
    admin: AsyncMongoClient[dict[str, object]] = AsyncMongoClient(mongo_url)
    # The marker is the only update: the inserts are stored, their sync is not confirmed.
    await admin.admin.command(
        "configureFailPoint",
        "failCommand",
        mode={"times": 1},
        data={"failCommands": ["update"], "errorCode": 2, "errmsg": "injected"},
    )
    try:
        results = await asyncio.gather(
            writer.write("ledger", InsertOne({"_id": 1}), journal=True),
            writer.write("ledger", InsertOne({"_id": 2})),
            return_exceptions=True,
        )
    finally:
        await admin.admin.command("configureFailPoint", "failCommand", mode="off")
        await admin.close()
        await writer.close()
    assert isinstance(results[0], PyMongoError) and results[1] is None


def test_a_group_commit_survives_the_database_killed(tmp_path: Path) -> None:
    """Writes sent unjournaled, then the round's one journaled marker: all on disk."""
    embedded = EmbeddedMongo(tmp_path / "data").start()

    async def write() -> None:
        client: AsyncMongoClient[dict[str, object]] = AsyncMongoClient(embedded.url)
        writer = BatchWriter(client.showdown)
        try:
            await asyncio.gather(
                *(writer.write("tables", InsertOne({"_id": n}), journal=True) for n in range(50)),
                *(
                    writer.write(
                        "live_hands",
                        UpdateOne({"_id": n}, {"$set": {"n": n}}, upsert=True),
                        journal=True,
                    )
                    for n in range(50)
                ),
            )
            assert writer.commits <= 2
        finally:
            await writer.close()
            await client.close()

    try:
        asyncio.run(write())
        assert embedded.process is not None
        embedded.process.send_signal(signal.SIGKILL)  # no clean shutdown: the journal only
        embedded.process.wait()
        embedded.process = None
        embedded.start()
        sync: MongoClient[dict[str, object]]
        with MongoClient(embedded.url) as sync:
            assert sync.showdown.tables.count_documents({}) == 50
            assert sync.showdown.live_hands.count_documents({"n": {"$gte": 0}}) == 50
    finally:
        embedded.close()


@pytest.fixture
def blocking(mongo_url: str, db):  # type: ignore[no-untyped-def]
    """The test's database through a synchronous client, as `showdown serve` gives it."""
    client: MongoClient[dict[str, object]] = MongoClient(mongo_url)
    yield client[db.name]
    client.close()


async def test_an_urgent_round_reaches_the_database_while_the_loop_is_busy(db, blocking) -> None:  # type: ignore[no-untyped-def]
    # A loop busy with tables' work gives the asynchronous driver no turn to send, nor
    # a task of the writer a turn to start a round: the writes a player waits for are
    # handed to a worker thread in the writer's own step, and need no turn after it.
    writer = BatchWriter(db, blocking=blocking)
    try:
        write = asyncio.create_task(
            writer.write("live_hands", InsertOne({"_id": "t1"}), journal=True, urgent=True)
        )
        await asyncio.sleep(0)  # one step of the write: then the loop is held
        # The loop held: nothing else of it runs while the database is polled.
        stored = False
        for _ in range(5000):
            if blocking.live_hands.find_one({"_id": "t1"}) is not None:
                stored = True
                break
        assert stored
        await write
    finally:
        await writer.close()
    assert writer.urgent_writes == 1 and writer.commits == 1


async def test_urgent_rounds_from_the_thread_keep_the_group_commit_and_each_outcome(
    db, blocking
) -> None:  # type: ignore[no-untyped-def]
    await db.live_hands.insert_one({"_id": "taken"})
    writer = BatchWriter(db, blocking=blocking)
    try:
        update = {"$set": {"x": 1}}
        results = await asyncio.gather(
            *(
                writer.write(
                    "tables", UpdateOne({"_id": n}, update, upsert=True), journal=True, urgent=True
                )
                for n in range(30)
            ),
            writer.write("live_hands", InsertOne({"_id": "taken"}), journal=True, urgent=True),
            writer.write("live_hands", InsertOne({"_id": "new"}), journal=True, urgent=True),
            return_exceptions=True,
        )
    finally:
        await writer.close()
    assert all(result is None for result in results[:30]) and results[31] is None
    assert isinstance(results[30], WriteError)  # a duplicate key fails alone
    # A round journals its one write directly or its writes share a marker: one sync
    # per round at most (two threads take what is queued: how many rounds is theirs).
    assert writer.commits <= writer.table_rounds < 32
    found = await marker_ids(db)
    assert found and found <= {"node.urgent0", "node.urgent1"}
    assert writer.urgent_writes == writer.writes == 32
    # Counted by lane and collection as the asynchronous rounds are (`bench cluster`).
    assert writer.by_kind == {"urgent.tables": 30, "urgent.live_hands": 2}
    assert await db.tables.count_documents({"x": 1}) == 30


async def test_an_urgent_writer_is_told_in_the_step_that_learns_of_its_round(db, blocking) -> None:  # type: ignore[no-untyped-def]
    # Each hop between the round's answer and whoever waits for it is a whole turn of a
    # busy loop: `stored` runs in the step that learns of the round, before any task does.
    writer = BatchWriter(db, blocking=blocking)
    seen: list[int] = []
    try:
        await writer.write(
            "live_hands",
            InsertOne({"_id": "t1"}),
            journal=True,
            urgent=True,
            stored=lambda: seen.append(writer.table_rounds),
        )
    finally:
        await writer.close()
    assert seen == [1]  # told once, in the step that counted its round


async def test_rounds_in_flight_together_mark_different_documents(db, blocking) -> None:  # type: ignore[no-untyped-def]
    # Two journaled updates of one document at once conflict in the embedded database
    # (one is retried): each lane and each urgent thread marks a document of its own.
    writer = BatchWriter(db, group_commit_min=0, blocking=blocking)
    try:
        await asyncio.gather(
            writer.write("tables", InsertOne({"_id": 1}), journal=True),
            writer.write("live_hands", InsertOne({"_id": 1}), journal=True, urgent=True),
        )
    finally:
        await writer.close()
    found = await marker_ids(db)
    assert "node.table" in found and len(found) == 2


async def test_two_nodes_writers_journal_their_own_marker_documents(db, blocking) -> None:  # type: ignore[no-untyped-def]
    """Nodes of one room share the database: each journals its own markers (one document
    updated by two nodes at once conflicts in the embedded database)."""
    nodes = [Repositories.of(db, blocking, marker) for marker in ("n0", "n1")]
    try:
        await asyncio.gather(
            *(
                repos.writer.write("t", UpdateOne({"_id": n}, {"$set": {"x": 1}}), journal=True)
                for n in range(20)
                for repos in nodes
            )
        )
    finally:
        for repos in nodes:
            await repos.writer.close()
    prefixes = {marker.split(".")[0] for marker in await marker_ids(db)}
    assert prefixes <= {"n0", "n1"} and prefixes


async def test_a_filing_reaches_the_database_while_the_loop_is_busy(db, blocking) -> None:  # type: ignore[no-untyped-def]
    # A table's next hand's end waits for the last hand's filing: through the
    # asynchronous driver it waited for turns of the busy loop, behind every table's
    # action pushes (the held states' tail). It goes by threads of its own.
    repos = Repositories.of(db, blocking)
    try:
        filed = asyncio.create_task(
            repos.hands.insert(
                {"table_id": "t1", "hand_no": 1, "seats": [{"player_id": "a"}], "played_at": None}
            )
        )
        await asyncio.sleep(0)  # one step of the filing: then the loop is held
        stored = False
        for _ in range(5000):
            if blocking.hands.find_one({"hand_no": 1}) is not None:
                stored = True
                break
        assert stored
        await filed
    finally:
        await repos.writer.close()
    assert repos.writer.by_kind == {"filing.hands": 1} and repos.writer.urgent_writes == 0


async def test_filing_rounds_mark_documents_of_their_own(db, blocking) -> None:  # type: ignore[no-untyped-def]
    # A filing round beside an urgent one and a table-lane one: three markers, none shared.
    repos = Repositories.of(db, blocking)
    writer = BatchWriter(db, group_commit_min=0, blocking=blocking)
    entry = repos.ledger.entry("a", "t1", "buy_in", 100, 1, "e1")
    try:
        await asyncio.gather(
            writer.write("ledger", InsertOne(entry), journal=True, filing=True),
            writer.write("live_hands", InsertOne({"_id": 1}), journal=True, urgent=True),
            writer.write(
                "live_hands", UpdateOne({"_id": 2}, {"$set": {"n": 1}}, upsert=True), journal=True
            ),
        )
    finally:
        await writer.close()
        await repos.writer.close()
    found = await marker_ids(db)
    assert len(found) == 3 and "node.table" in found
    assert {marker.rstrip("01") for marker in found} == {
        "node.table",
        "node.urgent",
        "node.filing",
    }


async def test_each_sender_journals_its_marker_in_a_collection_of_its_own(db, blocking) -> None:  # type: ignore[no-untyped-def]
    # The embedded database holds a collection's lock through a journaled commit's sync:
    # markers in one collection were synced one after the other, whoever sent them.
    nodes = [BatchWriter(db, group_commit_min=0, blocking=blocking, marker=m) for m in ("n0", "n1")]
    try:
        for node, writer in enumerate(nodes):
            await asyncio.gather(
                writer.write("ledger", InsertOne({"_id": f"{node}f"}), journal=True, filing=True),
                writer.write(
                    "live_hands",
                    InsertOne({"_id": f"{node}u"}),
                    journal=True,
                    urgent=True,
                ),
                writer.write(
                    "live_hands",
                    UpdateOne({"_id": f"{node}t"}, {"$set": {"n": 1}}, upsert=True),
                    journal=True,
                ),
            )
    finally:
        for writer in nodes:
            await writer.close()
    found = await markers(db)
    # Three senders on each of two nodes: six collections, one marker document each.
    assert len(found) == 6 and all(len(ids) == 1 for ids in found.values())
    for name, ids in found.items():
        (marker,) = ids
        assert name == f"group_commits.{marker}"
    # Each journal sync asked for is one marker's update: counted on the server.
    synced = [int(document["n"]) for name in found async for document in db[name].find({})]
    assert sum(synced) == sum(writer.commits for writer in nodes) == 6
