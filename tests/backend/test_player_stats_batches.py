"""Statistics counted in batches: the same documents and graphs as hand by hand, in a
handful of bounded write commands per batch (the counter kept up with 14 of the 90
hands/s `showdown bench server` deals when every hand cost ~18 writes)."""

from __future__ import annotations

import asyncio
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import pytest
from pymongo import AsyncMongoClient, MongoClient, UpdateOne
from pymongo.monitoring import CommandListener, CommandStartedEvent

from backend.db import player_stats
from backend.db.batch_writer import BatchWriter
from backend.db.client import Mongo
from backend.db.codec import Document, record_to_doc
from backend.db.player_stats import BLOCK_SIZES, SERIES, PlayerStats
from showdown.benchmarks.stats import GAMES, PLAYER, bench_hands

COLLECTIONS = ("player_stats", "player_results", "table_stats", "player_hand_stats")
WRITES = {
    "insert": "documents",
    "update": "updates",
    "delete": "deletes",
    "findAndModify": "update",
}


@dataclass
class Writes(CommandListener):
    """The write commands sent: (collection, command, operations) each."""

    sent: list[tuple[str, str, Any]] = field(default_factory=list)

    def started(self, event: CommandStartedEvent) -> None:
        if event.command_name in WRITES:
            ops = event.command.get(WRITES[event.command_name], [])
            self.sent.append((event.command[event.command_name], event.command_name, ops))

    def succeeded(self, event: Any) -> None:
        pass

    def failed(self, event: Any) -> None:
        pass


@dataclass
class Db:
    stats: PlayerStats
    db: Any
    writes: Writes


@pytest.fixture
async def databases(mongo_url: str) -> AsyncIterator[Iterator[Db]]:
    """Fresh databases, each counted by a PlayerStats whose writer sends through a
    blocking client as the server's does, with the write commands recorded."""
    clients: list[Any] = []
    writers: list[BatchWriter] = []

    async def one() -> Db:
        name = "s" + uuid.uuid4().hex[:12]
        writes = Writes()
        client: AsyncMongoClient[Document] = AsyncMongoClient(
            mongo_url, tz_aware=True, event_listeners=[writes]
        )
        blocking: MongoClient[Document] = MongoClient(
            mongo_url, tz_aware=True, event_listeners=[writes]
        )
        clients.extend([client, blocking])
        mongo = Mongo(mongo_url, name)  # the server's indexes (a graph reads the facts)
        await mongo.ensure_indexes()
        await mongo.close()
        writer = BatchWriter(client[name], blocking=blocking[name])
        writers.append(writer)
        writes.sent.clear()
        return Db(PlayerStats(client[name], writer), client[name], writes)

    made = [await one() for _ in range(2)]
    yield iter(made)
    for writer in writers:
        await writer.close()
    for client in clients:
        if isinstance(client, AsyncMongoClient):
            await client.close()
        else:
            client.close()


def hands(count: int) -> list[tuple[Document, datetime]]:
    """`count` hands of the stats bench's four games; the 5th a tournament's."""
    out = []
    for n, (record, _, played) in enumerate(bench_hands(count, seed=7, per_game=count)):
        if n == 4:
            record = record.model_copy(update={"tournament_id": "t1"})
        out.append((record_to_doc(record), played))
    return out


def one_table(count: int) -> list[tuple[Document, datetime]]:
    """`count` hands of one game at one table of six players, as `showdown bench server`
    deals them (the bench's hands of one of its games, each seat one player)."""
    games = len(GAMES)
    made = bench_hands(count * games, seed=7, per_game=count)
    out = []
    for record, _, played in list(made)[::games]:
        seats = [s.model_copy(update={"player_id": f"p{s.seat}"}) for s in record.seats]
        out.append((record_to_doc(record.model_copy(update={"seats": seats})), played))
    return out


def approx(doc: Document) -> Document:
    return {k: pytest.approx(v) if isinstance(v, float) else v for k, v in doc.items()}


@pytest.mark.parametrize("table", [False, True], ids=["many-players", "one-table"])
async def test_a_batch_counts_as_its_hands_counted_one_at_a_time(
    databases: Iterator[Db], table: bool
) -> None:
    """The same documents, and every graph size reads the same blocks adding up to the
    summaries: the blocks of one hand (the facts) and those a summary still is (a
    table's six players pass 10 and 100 hands, one hand at a time or in one batch)."""
    one_by_one, batch = next(databases), next(databases)
    filed = one_table(120) if table else hands(40)
    for doc, played in filed:
        await one_by_one.stats.file(doc, played)
    await batch.stats.file_many(filed)
    for name in COLLECTIONS:
        a = [doc async for doc in one_by_one.db[name].find({}).sort("_id", 1)]
        b = [doc async for doc in batch.db[name].find({}).sort("_id", 1)]
        assert len(a) == len(b), name  # no block stored of ten hands or fewer
        assert a or (name == "player_results" and not table), name
        assert all(x == approx(y) for x, y in zip(a, b, strict=True)), name
    players = [f"p{seat}" for seat in range(1, 7)] if table else [PLAYER]
    for player in players:
        summaries = await batch.stats.summaries(player)
        total = sum(s["hands"] for s in summaries)
        assert total == (120 if table else 40 - 1)  # a tournament's hand left out
        for size in BLOCK_SIZES:
            blocks = await batch.stats.blocks(player, size)
            assert blocks == await one_by_one.stats.blocks(player, size)
            for summary in summaries:
                mine = [b for b in blocks if b["game"] == summary["game"]]
                assert sum(b["hands"] for b in mine) == summary["hands"], size
                for line in SERIES:
                    assert sum(b[line] for b in mine) == pytest.approx(summary[line]), line
        games = {f"game.{k}": v for k, v in summaries[0]["game"].items()}
        size = await batch.stats.graph_size(player, summaries[:1], games)
        assert size == (1 if summaries[0]["hands"] <= 300 else 10)
    if table:  # 120 hands: blocks of 10 and 100 stored, that of 1,000 is the summary
        sizes = Counter([doc["size"] async for doc in batch.db.player_results.find({})])
        assert sizes == {10: 6 * 12, 100: 6 * 2}


async def test_counting_a_batch_takes_a_handful_of_bounded_write_commands(
    databases: Iterator[Db],
) -> None:
    """50 hands of a table of six: at most two write commands per collection, fewer
    than three operations per hand, and no command longer than the background lane's
    bound (ten updates, or four inserts for an update): a table's write waits behind
    at most that. Before, the blocks alone took 14 commands, 9 operations a hand."""
    db = next(databases)
    await db.stats.file_many(one_table(50))
    assert await db.db.player_stats.count_documents({}) == 6
    per_collection = Counter(name for name, _, _ in db.writes.sent)
    assert set(per_collection) == set(COLLECTIONS)
    assert max(per_collection.values()) <= 2, per_collection
    operations = sum(len(ops) for _, _, ops in db.writes.sent)
    assert operations < 3 * 50, operations
    # Many players (each hand's five others new): commands full, never per hand.
    db.writes.sent.clear()
    await db.stats.file_many(hands(50))
    weights: Counter[str] = Counter()
    for name, command, ops in db.writes.sent:
        weight = len(ops) if command == "insert" else 4 * len(ops)
        assert weight <= 4 * 10, (name, command, len(ops))
        weights[name] += weight
    per_collection = Counter(name for name, _, _ in db.writes.sent)
    for name, weight in weights.items():  # each command but the last nearly full
        assert per_collection[name] <= weight // (4 * 10 - 4) + 1, name


def test_batches_grow_while_the_counter_is_behind_and_shrink_once_it_caught_up() -> None:
    # Behind (more queued than a batch): the biggest batches at once.
    assert player_stats.next_batch_hands(200, left=200) == 1000
    assert player_stats.next_batch_hands(1000, left=5000) == 1000
    assert player_stats.next_batch_hands(1000, left=10) == 1000  # catching up
    assert player_stats.next_batch_hands(1000, left=0) == 800  # caught up
    assert player_stats.next_batch_hands(200, left=0) == 200


async def test_the_statistics_pause_between_commands_while_the_tables_write(
    databases: Iterator[Db], monkeypatch: pytest.MonkeyPatch
) -> None:
    """25 background updates while the tables' lanes have work: three commands of at
    most ten, each after the first sent after a pause (as long as the last took):
    the statistics take at most half of the database's time from busy tables. Once
    the tables stopped, the rest goes whole, with no pause."""
    db = next(databases)
    writer = db.stats._writer
    pauses: list[float] = []
    pause = BatchWriter._pause

    def record(self: BatchWriter, took: float) -> None:
        pauses.append(took)
        pause(self, took)

    monkeypatch.setattr(BatchWriter, "_pause", record)
    monkeypatch.setattr(BatchWriter, "_busy_ahead", lambda self: True)

    def updates(prefix: str) -> list[Any]:
        return [
            writer.submit(
                "bg",
                UpdateOne({"_id": f"{prefix}{n}"}, {"$inc": {"n": 1}}, upsert=True),
                background=True,
            )
            for n in range(25)
        ]

    await asyncio.gather(*updates("a"))
    sent = [ops for name, _, ops in db.writes.sent if name == "bg"]
    assert [len(ops) for ops in sent] == [10, 10, 5]
    assert len(pauses) == 2 and all(took > 0 for took in pauses)
    db.writes.sent.clear()
    writer.tables_stopped()
    await asyncio.gather(*updates("b"))
    assert [len(ops) for name, _, ops in db.writes.sent if name == "bg"] == [25]


async def test_two_nodes_counting_one_player_at_once_count_each_hand_once(
    databases: Iterator[Db], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two nodes (two counters on one database) count a table's players at the same
    moment as they pass 10 hands: every graph size's blocks add up to the summary."""
    first = next(databases)
    writer = BatchWriter(first.db, marker="other")
    second = PlayerStats(first.db, writer)
    filed = one_table(14)
    await first.stats.file_many(filed[:6])
    # Both read the summaries (6 hands) before either adds its hands: 6 + 3 + 5 = 14.
    read: set[int] = set()
    both_read = asyncio.Event()
    for stats in (first.stats, second):
        monkeypatch.setattr(stats, "_add_if_unmoved", held(stats, read, both_read))
    try:
        await asyncio.gather(first.stats.file_many(filed[6:9]), second.file_many(filed[9:]))
    finally:
        await writer.close()
    # One counter found the summaries moved by the other and added alone.
    moved = [name for name, command, _ in first.writes.sent if command == "findAndModify"]
    assert moved == ["player_stats"] * 6
    for player in (f"p{seat}" for seat in range(1, 7)):
        (summary,) = await first.stats.summaries(player)
        assert summary["hands"] == 14
        for size in BLOCK_SIZES:
            blocks = await first.stats.blocks(player, size)
            assert sum(b["hands"] for b in blocks) == 14, size
            for line in SERIES:
                total = sum(b[line] for b in blocks)
                assert total == pytest.approx(summary[line]), (size, line)


def held(stats: PlayerStats, read: set[int], both_read: asyncio.Event) -> Any:
    """The counter's summary update, held until both counters have read the summaries."""
    add = stats._add_if_unmoved

    async def add_when_both_read(key: str, update: Document, old: Document | None) -> bool:
        read.add(id(stats))
        if len(read) == 2:
            both_read.set()
        await both_read.wait()
        return await add(key, update, old)

    return add_when_both_read
