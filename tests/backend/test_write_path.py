"""The writes a player waits for go first: a deal or a result is never held behind
writes nobody waits for (another table's action pushes, the last hand's filing),
and the order a crash needs is kept (a hand is filed before the next one's end
replaces its pending copy)."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator

import pytest
from pymongo import AsyncMongoClient, InsertOne, MongoClient, UpdateOne

from backend.db.batch_writer import BatchWriter
from backend.db.codec import snapshot_to_doc
from backend.db.repositories import Repositories
from backend.realtime.persister import Persister
from holdem.actions import Action
from holdem.config import TableConfig, Variant
from holdem.history import HandRecord
from holdem.table import Table

BLOCK_MS = 5000  # a blocked command's hold: far longer than any unblocked write takes


@pytest.fixture
async def db(mongo_url: str):  # type: ignore[no-untyped-def]
    client: AsyncMongoClient[dict[str, object]] = AsyncMongoClient(mongo_url)
    name = "p" + uuid.uuid4().hex[:12]
    yield client[name]
    await client.drop_database(name)
    await client.close()


@contextlib.asynccontextmanager
async def blocked(mongo_url: str, command: str, times: int) -> AsyncIterator[None]:
    """The database's next `times` commands named `command` hang BLOCK_MS each."""
    admin: AsyncMongoClient[dict[str, object]] = AsyncMongoClient(mongo_url)
    await admin.admin.command(
        "configureFailPoint",
        "failCommand",
        mode={"times": times},
        data={"failCommands": [command], "blockConnection": True, "blockTimeMS": BLOCK_MS},
    )
    try:
        yield
    finally:
        await admin.admin.command("configureFailPoint", "failCommand", mode="off")
        await admin.close()


async def first_done(*tasks: asyncio.Task[None]) -> set[asyncio.Task[None]]:
    done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    return done


async def test_a_write_a_player_waits_for_passes_the_table_lanes_rounds(mongo_url: str, db) -> None:  # type: ignore[no-untyped-def]
    writer = BatchWriter(db)
    async with blocked(mongo_url, "update", times=2):
        try:
            # Both table-lane rounds in flight, each held by the database.
            first = asyncio.create_task(
                writer.write("live_hands", UpdateOne({"_id": 1}, {"$set": {"n": 1}}, upsert=True))
            )
            while writer.table_batches < 1:  # noqa: ASYNC110 - until the round is sent
                await asyncio.sleep(0)
            second = asyncio.create_task(
                writer.write("live_hands", UpdateOne({"_id": 2}, {"$set": {"n": 1}}, upsert=True))
            )
            while writer.table_batches < 2:  # noqa: ASYNC110 - until the round is sent
                await asyncio.sleep(0)
            deal = asyncio.create_task(
                writer.write("tables", InsertOne({"_id": "t"}), journal=True, urgent=True)
            )
            assert await first_done(first, second, deal) == {deal}
            await asyncio.gather(first, second)
        finally:
            await writer.close()
    assert writer.urgent_writes == 1 and writer.table_writes == 3


def finished_hand(table_id: str) -> tuple[Table, HandRecord]:
    config = TableConfig(variant=Variant.NO_LIMIT, seats=2, small_blind=1, big_blind=2)
    table = Table(table_id, config, seed=7)
    table.sit(1, "a", "A", 100)
    table.sit(2, "b", "B", 100)
    table.start_hand()
    hand = table.hand
    assert hand is not None and hand.actor is not None
    table.act(hand.actor, Action.fold())
    assert table.last_record is not None
    return table, table.last_record


async def test_the_deal_does_not_wait_for_the_last_hands_filing(mongo_url: str, db) -> None:  # type: ignore[no-untyped-def]
    repos = Repositories.of(db)
    table, record = finished_hand("t1")
    snapshot = snapshot_to_doc(table.snapshot())
    await repos.tables.insert("t1", {}, {}, snapshot, 1)
    persister = Persister("t1", repos)
    try:
        await persister.drain()
        async with blocked(mongo_url, "insert", times=1):  # the hand's filing hangs
            persister.save_state(snapshot, 2, record)
            await persister.wait_durable()  # the result: stacks and record stored together
            persister.start_hand(2, 1, {1: 99, 2: 101}, {})
            deal = asyncio.create_task(persister.wait_durable())
            filing = asyncio.create_task(persister.drain(2 * BLOCK_MS / 1000))
            assert await first_done(deal, filing) == {deal}
            # The next hand's end replaces the pending copy: the filing goes first.
            persister.save_state(snapshot, 3, record.model_copy(update={"hand_no": 2}))
            await persister.wait_durable()
            assert await db.hands.count_documents({"hand_no": 1}) == 1
            await filing
    finally:
        await persister.close()
    assert await db.hands.count_documents({}) == 2
    live = await db.live_hands.find_one({"_id": "t1"})
    assert live is not None and live["hand_no"] == 2


async def test_the_table_is_told_in_the_turn_its_deal_is_known_stored(mongo_url: str, db) -> None:  # type: ignore[no-untyped-def]
    # On a busy server every hop (a task woken, a future chained to another) waits for
    # a whole turn of the event loop: no turn may see the deal's round answered while
    # the table's wait for it is not over.
    sync: MongoClient[dict[str, object]] = MongoClient(mongo_url)
    repos = Repositories.of(db, sync[db.name])
    persister = Persister("t1", repos)
    try:
        await persister.drain()
        persister.start_hand(1, 1, {1: 100, 2: 100}, {})
        confirmed = persister.confirmation()
        assert confirmed is not None
        turns: list[tuple[int, bool]] = []  # per turn: the rounds answered, the table told
        while not confirmed.done():  # each pass is one turn of the loop
            turns.append((repos.writer.table_rounds, confirmed.done()))
            await asyncio.sleep(0)
        turns.append((repos.writer.table_rounds, confirmed.done()))
        assert not [turn for turn in turns if turn[0] >= 1 and not turn[1]]
        assert turns[-1] == (1, True)
        await persister.wait_durable()
    finally:
        await persister.close()
        await repos.writer.close()
        sync.close()


@contextlib.asynccontextmanager
async def held_for(mongo_url: str, app: str, command: str, times: int) -> AsyncIterator[None]:
    """The next `times` commands named `command` of clients named `app` hang BLOCK_MS."""
    admin: AsyncMongoClient[dict[str, object]] = AsyncMongoClient(mongo_url)
    await admin.admin.command(
        "configureFailPoint",
        "failCommand",
        mode={"times": times},
        data={
            "failCommands": [command],
            "blockConnection": True,
            "blockTimeMS": BLOCK_MS,
            "appName": app,
        },
    )
    try:
        yield
    finally:
        await admin.admin.command("configureFailPoint", "failCommand", mode="off")
        await admin.close()


async def test_a_deal_does_not_wait_behind_a_filing_the_database_holds(mongo_url: str, db) -> None:  # type: ignore[no-untyped-def]
    # With the threads of `showdown serve`: a filing held by the database holds its own
    # sender's round, never the urgent threads' (a deal's live hand goes at once).
    sync: MongoClient[dict[str, object]] = MongoClient(mongo_url)
    repos = Repositories.of(db, sync[db.name])
    table, record = finished_hand("t1")
    snapshot = snapshot_to_doc(table.snapshot())
    await repos.tables.insert("t1", {}, {}, snapshot, 1)
    persister = Persister("t1", repos)
    try:
        await persister.drain()
        async with blocked(mongo_url, "insert", times=1):  # the hand's filing hangs
            persister.save_state(snapshot, 2, record)
            await persister.wait_durable()
            persister.start_hand(2, 1, {1: 99, 2: 101}, {})
            deal = asyncio.create_task(persister.wait_durable())
            filing = asyncio.create_task(persister.drain(2 * BLOCK_MS / 1000))
            assert await first_done(deal, filing) == {deal}
            await filing
    finally:
        await persister.close()
        await repos.writer.close()
        sync.close()
    assert await db.hands.count_documents({"hand_no": 1}) == 1


async def test_a_hands_end_does_not_wait_behind_other_tables_action_pushes(mongo_url: str) -> None:
    # The next hand's end waits for the last hand's filing (it replaces its pending
    # copy), and only for that: not for the table lane's rounds of action pushes, which
    # the database holds here (it was the held states' tail in `bench server`).
    pushes: AsyncMongoClient[dict[str, object]] = AsyncMongoClient(mongo_url, appname="pushes")
    sync: MongoClient[dict[str, object]] = MongoClient(mongo_url)
    name = "p" + uuid.uuid4().hex[:12]
    db = pushes[name]
    repos = Repositories.of(db, sync[name])
    table, record = finished_hand("t1")
    snapshot = snapshot_to_doc(table.snapshot())
    await repos.tables.insert("t1", {}, {}, snapshot, 1)
    persister = Persister("t1", repos)
    try:
        await persister.drain()
        async with held_for(mongo_url, "pushes", "update", times=2):
            # Both table-lane rounds in flight (other tables' action pushes), held.
            held = [
                asyncio.create_task(
                    repos.writer.write(
                        "live_hands", UpdateOne({"_id": n}, {"$set": {"n": 1}}, upsert=True)
                    )
                )
                for n in ("t2", "t3")
            ]
            while repos.writer.table_batches < 1:  # noqa: ASYNC110 - until the round is sent
                await asyncio.sleep(0)
            held.append(
                asyncio.create_task(
                    repos.writer.write(
                        "live_hands", UpdateOne({"_id": "t4"}, {"$set": {"n": 1}}, upsert=True)
                    )
                )
            )
            while repos.writer.table_batches < 2:  # noqa: ASYNC110 - until the round is sent
                await asyncio.sleep(0)
            persister.save_state(snapshot, 2, record)  # hand 1's end, then its filing
            persister.save_state(snapshot, 3, record.model_copy(update={"hand_no": 2}))
            end = asyncio.create_task(persister.wait_durable())  # hand 2's end
            assert await first_done(end, *held) == {end}
            assert await db.hands.count_documents({"hand_no": 1}) == 1
            await asyncio.gather(*held)
    finally:
        await persister.close()
        await repos.writer.close()
        await pushes.drop_database(name)
        await pushes.close()
        sync.close()


async def test_a_deal_is_sent_in_the_tables_own_step(mongo_url: str, db) -> None:  # type: ignore[no-untyped-def]
    # Nothing queued before it: the deal's write is handed to the writer's threads in
    # the step that deals, not a turn of the busy loop later when the writer task wakes.
    sync: MongoClient[dict[str, object]] = MongoClient(mongo_url)
    repos = Repositories.of(db, sync[db.name])
    persister = Persister("t1", repos)
    try:
        await persister.drain()
        persister.start_hand(1, 1, {1: 100, 2: 100}, {})
        # The loop held from here: nothing else of it runs while the database is polled.
        stored = False
        for _ in range(5000):
            if sync[db.name].live_hands.find_one({"_id": "t1"}) is not None:
                stored = True
                break
        assert stored
        await persister.wait_durable()
    finally:
        await persister.close()
        await repos.writer.close()
        sync.close()
