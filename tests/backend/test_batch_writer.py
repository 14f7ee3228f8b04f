"""The shared BatchWriter: many tables' writes in few round trips, each told its own outcome."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator

import pytest
from pymongo import AsyncMongoClient, InsertOne, UpdateOne
from pymongo.errors import PyMongoError, WriteError

from backend.db.batch_writer import BatchWriter


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
