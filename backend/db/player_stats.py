"""Player statistics kept up to date as hands are filed (holdem.stats counts them).

A maintained summary, not an aggregation over the hands: a profile must answer
in milliseconds for a player with 100,000 hands, and a pass over those hands
costs seconds (measured: `showdown bench stats`). Three collections:

- player_hand_stats: one document per filed hand with every seat's facts (id:
  hand id and its first seat's player id, the id that seat's fact had when
  each seat had a document). Filing it first makes filing again harmless:
  counters are added only for the hands whose document was new.
- player_stats: per player, game type and stakes, the summed counters (cash
  hands only: a tournament's hands, `HandRecord.tournament_id`, are left out).
- table_stats: per table, the lobby's figures: hands, chips pushed to winners
  (the pots), players who saw a flop and hands that had one, first and last hand.
- player_results: the results graph, per player, game and block of
  consecutive hands of that game (1, 10, 100 or 1,000 hands: the finest that
  draws the record in at most 300 points): sums of the winnings lines and the
  block's first and last time. A graph reads at most a few hundred blocks:
  100,000 hands are 100 blocks of 1,000. Blocks of one hand are not stored:
  they are read from the hands' facts (`fact_block`), which hold every line;
  nor is a player's first block of a size while their summary holds all its
  hands (`summary_block`).

Counting is queued (`file_later`) and done by one background task, never on a
table's path (its writes go in the writer's background lane, in commands of
bounded size that wait for the tables' writes). The task counts whatever is
queued together, up to a batch (BATCH_HANDS, BATCH_MAX while it is behind): the
per-hand facts, one read of the players' summaries (they number the hands), the
summed counters (an update per player and game, however many hands) with the
tables' figures (one per table), then the results blocks (one per player, game
and block). Counting hand by hand cost the database about four round trips per
seat and hand, and batches of 200 with every block stored 20 writes a hand: the
counter counted 14 of the 90 hands/s `showdown bench server` deals (2.3 writes a
hand in batches of 1,000: docs/experiments/2026-11-29-stats-counter-batches.md).
A stop (`close`) finishes the batch being counted and keeps the hands still
queued in `stats_backlog`, one document of hand ids, counted first after the next
start (`resume`): counting them at the stop held a busy server's shutdown for
13 s (1,260 hands queued by 100 tables). If the server is killed between a new
player_hand_stats document and its counters, or with hands still queued, those
hands are missing from the summary (a known gap: nothing counts them later).
Once a batch is counted, its listeners (`listen`) hear which tables' hands it
counted and whose statistics changed: the tables tell their seats' HUDs to fetch
again, so a HUD never shows the figures from before the hand it just watched.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pymongo import InsertOne, ReturnDocument, UpdateOne
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import PyMongoError, WriteError
from pymongo.write_concern import WriteConcern

from backend.db.batch_writer import BatchWriter
from backend.db.codec import Document, hand_id, record_from_doc
from holdem.actions import EventKind
from holdem.history import HandRecord
from holdem.stats import COUNTER_NAMES, GameKey, PlayerHand, player_hands

log = logging.getLogger(__name__)

DUPLICATE_KEY = 11000
# Hands waiting to be counted; past this (a database that cannot keep up) a hand is
# left uncounted and logged rather than held in memory without bound.
MAX_QUEUED = 10_000
# Queued hands counted together: a handful of group writes for all, and a player's hands
# in one batch share one update of their summary and of each results block. While the
# queue holds more than a batch (behind), the next takes up to BATCH_MAX at once: a
# hundred tables' 500 players play one or two hands in a batch of 200 (11 writes a hand,
# `showdown bench server`), ten in one of 1,000 (3-4 a hand), and batches growing by
# doubling spent the first minute in the dear ones. Caught up, they shrink back by
# BATCH_HANDS, and a HUD hears sooner.
BATCH_HANDS = 200
BATCH_MAX = 1000
# Seconds the counting waits after a hand is queued for others to count with it: the
# group writes cost round trips per batch, not per hand (a HUD updates this much later).
STATS_LINGER = 0.5
BACKLOG = "stats_backlog"  # hands a stop left uncounted (`PlayerStats.close`)
# Seconds a stop waits for the batch being counted (its facts and counters go together).
CLOSE_WAIT = 10.0
# Hands per point of the results graph, finest first. A graph is drawn with the finest
# size that gives it at most MAX_POINTS points: a 40-hand night has a point per hand
# (with 100 a point, it was one straight line), 100,000 hands have 100 points of 1,000.
BLOCK_SIZES = (1, 10, 100, 1000)
MAX_POINTS = 300
# Blocks of one hand are not stored: each is its hand's facts (player_hand_stats), read as
# a block (`fact_block`). They were five writes per hand of the statistics' nine.
FACT_SIZE = 1
# Set on a summary created since: while it has at most `size` hands, it is its first
# block of that size (`summary_block`), not stored; the block is written once the summary
# has more hands (the summary's sums before then, with the new hands). A room's players
# mostly have fewer than 100 or 1,000 hands of a game: their blocks of 100 and 1,000 were
# two of the 3.5 writes a hand of batches of 1,000 (`showdown bench server`).
SUMMARY_BLOCKS = "blocks_in_summary"
# The winnings lines a results block sums.
SERIES = (
    "won",
    "won_showdown",
    "won_no_showdown",
    "allin_ev",
    "won_bb",
    "won_showdown_bb",
    "won_no_showdown_bb",
    "allin_ev_bb",
)
# What numbering the new hands for the results blocks reads of a summary.
SUMMARY_FIELDS = ("hands", "player_id", "game", SUMMARY_BLOCKS, "first_at", "last_at", *SERIES)


def stats_id(player_id: str, game: GameKey) -> str:
    return f"{player_id}|{game.slug}"


def game_doc(game: GameKey) -> Document:
    return {
        "variant": game.variant,
        "small_blind": game.small_blind,
        "big_blind": game.big_blind,
        "ante": game.ante,
    }


def counter_inc(p: PlayerHand) -> dict[str, float]:
    return {name: value for name, value in p.counts.as_dict().items() if value}


def in_summary(summary: Document, size: int) -> bool:
    """Whether the summary is its first block of `size` hands (not stored)."""
    hands = int(summary.get("hands", 0))
    return bool(summary.get(SUMMARY_BLOCKS)) and size != FACT_SIZE and 0 < hands <= size


def summary_block(summary: Document, size: int) -> Document:
    """The first block of `size` hands of a summary that holds them all (`in_summary`)."""
    return {
        "_id": f"{summary['_id']}|{size}|0",
        "player_id": summary["player_id"],
        "game": summary["game"],
        "size": size,
        "block": 0,
        "hands": int(summary.get("hands", 0)),
        **{name: summary.get(name, 0) for name in SERIES},
        "first_at": summary["first_at"],
        "last_at": summary["last_at"],
    }


def block_size_for(hands: int) -> int:
    """The block size a graph of this many hands is drawn with."""
    return next((size for size in BLOCK_SIZES if hands <= size * MAX_POINTS), BLOCK_SIZES[-1])


def sizes_kept(number: int) -> list[int]:
    """The block sizes a player's `number`-th hand of a game is summed into: a size only
    while some graph may still be drawn with it (its blocks stop at MAX_POINTS), the
    coarsest always; so a long record does not keep a document per hand."""
    return [size for size in BLOCK_SIZES[:-1] if number <= size * MAX_POINTS] + [BLOCK_SIZES[-1]]


class BlockSums:
    """New hands summed per results block (a player's `number`-th hand of a game falls
    in block (number - 1) // size), written as one upsert per block, or an insert for
    a block these hands begin: the embedded database stores a batch of inserts in one
    transaction and spends about six times less on each than on an upsert (measured:
    0.2 ms against 1.4 ms). Blocks of one hand are the facts: none is written here."""

    def __init__(self) -> None:
        self._blocks: dict[str, Document] = {}
        self._new: set[str] = set()  # blocks whose first hand is among these

    def add_summary(self, summary: Document, size: int) -> None:
        """A summary's hands, its first block of `size` until now (`in_summary`): added
        before its new hands."""
        block = summary_block(summary, size)
        self._blocks[block["_id"]] = {
            "$inc": {"hands": block["hands"], **{name: block[name] for name in SERIES}},
            "$min": {"first_at": block["first_at"]},
            "$max": {"last_at": block["last_at"]},
            "$setOnInsert": {k: block[k] for k in ("player_id", "game", "size", "block")},
        }

    def add(
        self, p: PlayerHand, number: int, played_at: datetime, in_summary: Iterable[int] = ()
    ) -> None:
        """Add the player's `number`-th hand of its game, but not to the sizes whose first
        block its summary is (`in_summary`)."""
        counts = p.counts.as_dict()
        for size in sizes_kept(number):
            if size == FACT_SIZE or size in in_summary:  # the facts, the summary are it
                continue
            block = (number - 1) // size
            key = f"{stats_id(p.player_id, p.game)}|{size}|{block}"
            doc = self._blocks.get(key)
            if doc is None:
                if (number - 1) % size == 0:
                    self._new.add(key)
                self._blocks[key] = {
                    "$inc": {"hands": 1, **{name: counts[name] for name in SERIES}},
                    "$min": {"first_at": played_at},
                    "$max": {"last_at": played_at},
                    "$setOnInsert": {
                        "player_id": p.player_id,
                        "game": game_doc(p.game),
                        "size": size,
                        "block": block,
                    },
                }
                continue
            doc["$inc"]["hands"] += 1
            for name in SERIES:
                doc["$inc"][name] += counts[name]
            doc["$min"]["first_at"] = min(doc["$min"]["first_at"], played_at)
            doc["$max"]["last_at"] = max(doc["$max"]["last_at"], played_at)

    def writes(self) -> list[tuple[InsertOne[Document] | UpdateOne, UpdateOne | None]]:
        """Each block's write, with the upsert to send instead if an insert finds the
        block stored already (hands counted before a crash cut their counting short)."""
        out: list[tuple[InsertOne[Document] | UpdateOne, UpdateOne | None]] = []
        for key, doc in self._blocks.items():
            upsert = UpdateOne({"_id": key}, doc, upsert=True)
            if key not in self._new:
                out.append((upsert, None))
                continue
            new = {
                "_id": key,
                **doc["$inc"],
                "first_at": doc["$min"]["first_at"],
                "last_at": doc["$max"]["last_at"],
                **doc["$setOnInsert"],
            }
            out.append((InsertOne(new), upsert))
        return out


# One hand with its seats counted (holdem.stats) and the time it was played.
Counted = tuple[HandRecord, list[PlayerHand], datetime]


def table_updates(hands: Iterable[Counted]) -> list[UpdateOne]:
    """Add hands to their tables' lobby figures: one update per table, however many of
    its hands (a hundred tables' thousand hands are a hundred writes, not a thousand)."""
    updates: dict[str, Document] = {}
    for record, players, played_at in hands:
        pot = sum(e.amount or 0 for e in record.events if e.kind is EventKind.WIN)
        at_flop = sum(p.counts.saw_flop for p in players)
        adds = {"hands": 1, "pots": pot, "flop_players": at_flop, "flops": int(at_flop > 0)}
        update = updates.get(record.table_id)
        if update is None:
            updates[record.table_id] = {
                "$inc": adds,
                "$min": {"first_at": played_at},
                "$max": {"last_at": played_at},
            }
            continue
        for name, value in adds.items():
            update["$inc"][name] += value
        update["$min"]["first_at"] = min(update["$min"]["first_at"], played_at)
        update["$max"]["last_at"] = max(update["$max"]["last_at"], played_at)
    return [UpdateOne({"_id": table}, u, upsert=True) for table, u in updates.items()]


def table_figures(doc: Document) -> dict[str, float | None]:
    """Average pot, hands per hour (first to last hand) and players per flop seen."""
    hands = int(doc.get("hands", 0))
    flops = int(doc.get("flops", 0))
    span = (doc["last_at"] - doc["first_at"]).total_seconds() if hands > 1 else 0.0
    return {
        "average_pot": float(doc.get("pots", 0)) / hands if hands else None,
        "hands_per_hour": 3600 * (hands - 1) / span if span > 0 else None,
        "players_per_flop": float(doc.get("flop_players", 0)) / flops if flops else None,
    }


def fact_query(player_id: str, query: Document | None = None) -> Document:
    """The facts (player_hand_stats) that are the player's blocks of one hand matching a
    blocks query: its game fields ("game.<field>") and time range ("first_at",
    "last_at": a block of one hand begins and ends when it was played). A tournament's
    hands are not in the results graph."""
    seat: Document = {"player_id": player_id}
    played: Document = {}
    for key, value in (query or {}).items():
        if key.startswith("game."):
            seat[key] = value
        elif key in ("first_at", "last_at"):
            played.update(value)
        else:
            raise ValueError(f"a results query on {key!r}")
    out: Document = {"seats": {"$elemMatch": seat}, "tournament": {"$exists": False}}
    if played:
        out["played_at"] = played
    return out


def in_range(block: Document, query: Document) -> bool:
    """Whether a block read from a summary matches a blocks query's time range (its
    "first_at" and "last_at" bounds, "$gte" and "$lte"; the game fields matched)."""
    for key in ("first_at", "last_at"):
        for op, bound in query.get(key, {}).items():
            if op == "$gte" and not block[key] >= bound:
                return False
            if op == "$lte" and not block[key] <= bound:
                return False
            if op not in ("$gte", "$lte"):
                raise ValueError(f"a results query with {op!r}")
    return True


def fact_block(fact: Document, player_id: str) -> Document:
    """The player's block of one hand, from the hand's facts: the sums `BlockSums` would
    store for it (holdem.stats's winnings lines of that hand)."""
    seat = next(s for s in fact["seats"] if s["player_id"] == player_id)
    net, went, ev = seat["net"], bool(seat["showdown"]), seat["allin_ev"]
    big_blind = seat["game"]["big_blind"]
    return {
        "_id": f"{fact['hand_id']}|{player_id}",
        "player_id": player_id,
        "game": seat["game"],
        "size": FACT_SIZE,
        "hands": 1,
        "won": net,
        "won_showdown": net if went else 0,
        "won_no_showdown": 0 if went else net,
        "allin_ev": ev,
        "won_bb": net / big_blind,
        "won_showdown_bb": net / big_blind if went else 0.0,
        "won_no_showdown_bb": 0.0 if went else net / big_blind,
        "allin_ev_bb": ev / big_blind,
        "first_at": fact["played_at"],
        "last_at": fact["played_at"],
    }


def count_hands(hands: list[tuple[Document, datetime]]) -> list[Counted]:
    """holdem.stats on stored hands, in a thread: a batch's hands counted on the event
    loop held it for their whole counting (an all-in's equity enumerates boards: up to
    tens of ms a hand), and one hand at a time in a thread cost a turn of a busy loop
    each. A hand the statistics cannot read is logged and skipped."""
    counted: list[Counted] = []
    for doc, played_at in hands:
        try:
            record = record_from_doc(doc)
            counted.append((record, player_hands(record), played_at))
        except Exception:
            log.exception("statistics skipped a hand", extra={"hand_no": doc.get("hand_no")})
    return counted


@dataclass(frozen=True, slots=True)
class TableCounted:
    """One table's hands in a counted batch: the latest of them and their players."""

    table_id: str
    hand_no: int
    player_ids: tuple[str, ...]


CountedListener = Callable[[list[TableCounted]], None]


def tables_counted(counted: list[Counted]) -> list[TableCounted]:
    """Per table, in order of first appearance: its latest hand counted and the players
    of its counted hands (in seat order of first appearance)."""
    latest: dict[str, int] = {}
    players: dict[str, dict[str, None]] = {}
    for record, seats, _ in counted:
        latest[record.table_id] = max(latest.get(record.table_id, 0), record.hand_no)
        players.setdefault(record.table_id, {}).update(dict.fromkeys(p.player_id for p in seats))
    return [TableCounted(t, latest[t], tuple(players[t])) for t in latest]


# A filed hand's stored record and the time it was played, queued for counting.
Queued = tuple[Document, datetime]


def next_batch_hands(size: int, left: int) -> int:
    """The next batch's most hands, given the hands left queued after taking one."""
    if left >= size:  # behind: the biggest batches, the fewest writes per hand
        return BATCH_MAX
    if left == 0:  # caught up: back towards batches a HUD hears of sooner
        return max(BATCH_HANDS, size - BATCH_HANDS)
    return size


class PlayerStats:
    def __init__(self, db: AsyncDatabase[Document], writer: BatchWriter) -> None:
        self._queue: asyncio.Queue[Queued] = asyncio.Queue(MAX_QUEUED)
        self._task: asyncio.Task[None] | None = None
        self._taken: list[Queued] = []  # taken from the queue, not yet being counted
        self._counting: asyncio.Task[None] | None = None  # the batch being counted
        self._writer = writer
        self._hands = db.hands
        self._per_hand = db.player_hand_stats
        self._summary = db.player_stats
        self._blocks = db.player_results
        self._tables = db.table_stats
        self._backlog = db.get_collection(BACKLOG, write_concern=WriteConcern(j=True))
        self._resumed: list[object] = []  # backlog documents whose hands are queued
        self._resumed_left = 0  # their hands not counted yet (first in the queue)
        self._listeners: list[CountedListener] = []
        self.batch_hands = BATCH_HANDS  # the next batch's most hands (grows while behind)
        self.hands_counted = 0  # hands counted by the background task (the bench's figure)
        self.queue_peak = 0  # most hands ever waiting to be counted
        self.dropped = 0  # hands left uncounted: the queue was full

    @property
    def queued(self) -> int:
        """Hands waiting to be counted now (the batch being counted not included)."""
        return self._queue.qsize() + len(self._taken)

    def listen(self, listener: CountedListener) -> None:
        """Call `listener` (on the event loop, must not block) after each counted batch."""
        self._listeners.append(listener)

    def _tell(self, counted: list[Counted]) -> None:
        if not counted or not self._listeners:
            return
        tables = tables_counted(counted)
        for listener in self._listeners:
            try:
                listener(tables)
            except Exception:
                log.exception("a statistics listener failed")

    # -- filing ------------------------------------------------------------------

    def file_later(self, doc: Document, played_at: datetime) -> None:
        """Queue a filed hand for counting by the background task."""
        if self._task is None:
            # Its own log context: not that of the table whose hand came first.
            self._task = asyncio.create_task(
                self._count_queued(), name="player-stats", context=contextvars.Context()
            )
        try:
            self._queue.put_nowait((doc, played_at))
        except asyncio.QueueFull:
            self.dropped += 1
            log.warning(
                "statistics behind: a hand left uncounted", extra={"hand_no": doc.get("hand_no")}
            )
        self.queue_peak = max(self.queue_peak, self._queue.qsize())

    async def _count_queued(self) -> None:
        while True:
            self._taken.append(await self._queue.get())
            if STATS_LINGER > 0 and self._queue.qsize() < self.batch_hands:
                await asyncio.sleep(STATS_LINGER)  # a pause to gather a batch, not a sync
            while len(self._taken) < self.batch_hands and not self._queue.empty():
                self._taken.append(self._queue.get_nowait())
            batch, self._taken = self._taken, []
            self.batch_hands = next_batch_hands(self.batch_hands, self._queue.qsize())
            # Its own task: a stop cancels this loop, never a batch half counted.
            self._counting = asyncio.create_task(self._count(batch), name="player-stats-batch")
            await asyncio.shield(self._counting)
            self._counting = None

    async def _count(self, batch: list[Queued]) -> None:
        try:
            try:
                counted = await self.file_many(batch)
                self.hands_counted += len(counted)
                self._tell(counted)
            except Exception:
                log.exception("statistics not counted", extra={"hands": len(batch)})
            if self._resumed:
                self._resumed_left -= len(batch)
                if self._resumed_left <= 0:  # the hands of the last stop: all counted
                    await self._forget_resumed()
        finally:
            for _ in batch:
                self._queue.task_done()

    async def drain(self) -> None:
        """Return once every queued hand is counted."""
        await self._queue.join()

    async def resume(self) -> int:
        """Queue the hands a stop left uncounted (`close`), ahead of any other: called at
        start, before the tables file anything. Their backlog is deleted once they are
        counted (a stop before that keeps them again). Returns how many were queued."""
        docs = [doc async for doc in self._backlog.find({}, sort=[("at", 1)])]
        ids = list(dict.fromkeys(str(hand) for doc in docs for hand in doc.get("hands", [])))
        if not ids:
            return 0
        found = {doc["_id"]: doc async for doc in self._hands.find({"_id": {"$in": ids}})}
        filed = [found[hand] for hand in ids if hand in found]
        self._resumed = [doc["_id"] for doc in docs]
        self._resumed_left = len(filed)
        for doc in filed:
            self.file_later(doc["record"], doc["played_at"])
        log.info("statistics resumed from the last stop", extra={"hands": len(filed)})
        if not filed:
            await self._forget_resumed()
        return len(filed)

    async def _forget_resumed(self) -> None:
        resumed, self._resumed = self._resumed, []
        try:
            await self._backlog.delete_many({"_id": {"$in": resumed}})
        except PyMongoError as error:  # counted again after the next start: harmless
            log.warning("statistics backlog not deleted", extra={"error": str(error)[:200]})

    async def close(self, wait: float = CLOSE_WAIT) -> None:
        """Stop counting: the batch being counted is finished, the hands still queued are
        kept in the backlog, counted after the next start (`resume`)."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        counting, self._counting = self._counting, None
        if counting is not None:
            self._writer.tables_stopped()
            try:
                async with asyncio.timeout(wait):
                    await asyncio.shield(counting)
            except TimeoutError:
                # The database does not answer: its facts may be stored without their
                # counters (the known gap of a crash).
                log.error("statistics: a batch not counted by the stop")
                counting.cancel()
                await asyncio.gather(counting, return_exceptions=True)
        left, self._taken = self._taken, []
        while not self._queue.empty():
            left.append(self._queue.get_nowait())
        for _ in left:
            self._queue.task_done()
        kept = await self._keep(left) if left else True
        if self._resumed and kept:  # their hands not counted yet are in `left`, kept anew
            await self._forget_resumed()

    async def _keep(self, left: list[Queued]) -> bool:
        hands = [hand_id(doc["table_id"], doc["hand_no"]) for doc, _ in left]
        try:
            await self._backlog.insert_one(
                {"_id": uuid.uuid4().hex, "hands": hands, "at": datetime.now(UTC)}
            )
        except PyMongoError as error:
            log.error(
                "statistics: hands left uncounted by the stop",
                extra={"hands": len(hands), "error": str(error)[:200]},
            )
            return False
        log.info("statistics kept for the next start", extra={"hands": len(hands)})
        return True

    async def file(self, doc: Document, played_at: datetime) -> None:
        """Count one filed hand (its stored record); counting it again changes nothing."""
        await self.file_many([(doc, played_at)])

    async def file_many(self, hands: list[tuple[Document, datetime]]) -> list[Counted]:
        """Count filed hands, in filing order; a hand counted already changes nothing.

        Three rounds of group writes and one read whatever the number of hands and
        seats: the per-hand facts (the new ones are the hands to count), the players'
        summaries read (they number the hands for the results blocks), every player's
        summed counters with the tables' figures, then the blocks.
        A hand the statistics cannot read is logged and skipped: it must never stop a
        table from filing its hands.
        Returns the hands counted (those counted before included: counting them
        again changed nothing).
        """
        counted = await asyncio.to_thread(count_hands, hands)
        await self.file_counted(counted)
        return counted

    async def file_counted(self, counted: list[Counted]) -> None:
        """File hands counted already (`count_hand` of each record), in filing order.

        `file_many` after its counting; `showdown bench stats` files through it too
        (counting each of a few hundred distinct hands once), so the benchmark's
        documents are the ones the server keeps, whatever this comes to write.
        """
        new = await asyncio.gather(*(self._insert_fact(r, ps, at) for r, ps, at in counted))
        # A tournament's chips are not money: its hands stay out of the per-stakes
        # figures and the results graph (its results are places and prizes).
        fresh = [
            (p, at)
            for (record, players, at), is_new in zip(counted, new, strict=True)
            if is_new and record.tournament_id is None
            for p in players
        ]
        tables = table_updates(hand for hand, is_new in zip(counted, new, strict=True) if is_new)
        # The tables' figures go with the summaries (one round of the writer for both).
        tabled = asyncio.gather(*(self._write(self._tables.name, op) for op in tables))
        try:
            if fresh:
                await self._add_blocks(fresh, await self._add_counts(fresh))
        finally:
            await tabled

    async def _write(self, collection: str, op: InsertOne[Document] | UpdateOne) -> None:
        # Never on a table's path: the writer's background lane.
        await self._writer.write(collection, op, background=True)

    async def _insert_fact(
        self, record: HandRecord, players: list[PlayerHand], played_at: datetime
    ) -> bool:
        """Store the hand's facts, one document for all its seats; False if it was there
        already (counted). Its id is the one the first seat's fact had when each seat
        had its own document, so a hand counted then is not counted again."""
        if not players:
            return False
        hid = hand_id(record.table_id, record.hand_no)
        fact: Document = {
            "_id": f"{hid}|{players[0].player_id}",
            "hand_id": hid,
            "player_ids": [p.player_id for p in players],
            "played_at": played_at,
            "seats": [
                {
                    "player_id": p.player_id,
                    "game": game_doc(p.game),
                    "net": p.net,
                    "showdown": p.showdown,
                    "allin_ev": p.allin_ev,
                }
                for p in players
            ],
        }
        if record.tournament_id is not None:  # no block of the results graph
            fact["tournament"] = True
        try:
            await self._write(self._per_hand.name, InsertOne(fact))
        except WriteError as error:
            if error.code == DUPLICATE_KEY:
                return False
            raise
        return True

    async def _add_counts(self, fresh: list[tuple[PlayerHand, datetime]]) -> dict[str, Document]:
        """Add the new hands' counters, one update per player and game; returns each
        one's summary just before its update (hands, winnings lines, times; none for a
        new one), which numbers the new hands for the results blocks.

        The summaries are read together, and each update applies only if the summary
        still has the hands read: on a cluster another node may count the same player
        in between (both numbered their hands from the same count: a first block of 10
        was added twice, or hands fell in no block). An update that finds the summary
        moved is made again alone, atomically with reading what it was before.
        """
        updates: dict[str, Document] = {}
        for p, played_at in fresh:
            key = stats_id(p.player_id, p.game)
            update = updates.get(key)
            if update is None:
                update = updates[key] = {
                    "$inc": {},
                    "$set": {},
                    "$min": {"first_at": played_at},
                    "$max": {"last_at": played_at},
                    "$setOnInsert": {
                        "player_id": p.player_id,
                        "game": game_doc(p.game),
                        SUMMARY_BLOCKS: True,
                    },
                }
            inc = update["$inc"]
            for name, value in counter_inc(p).items():
                inc[name] = inc.get(name, 0) + value
            update["$set"] = {"name": p.name, "is_bot": p.is_bot, "last_played_at": played_at}
            update["$min"]["first_at"] = min(update["$min"]["first_at"], played_at)
            update["$max"]["last_at"] = max(update["$max"]["last_at"], played_at)
        cursor = self._summary.find(
            {"_id": {"$in": list(updates)}}, projection=list(SUMMARY_FIELDS)
        )
        before: dict[str, Document | None] = {doc["_id"]: doc async for doc in cursor}
        applied = await asyncio.gather(
            *(self._add_if_unmoved(key, u, before.get(key)) for key, u in updates.items())
        )
        for (key, update), done in zip(updates.items(), applied, strict=True):
            if not done:
                before[key] = await self._summary.find_one_and_update(
                    {"_id": key},
                    update,
                    projection=list(SUMMARY_FIELDS),
                    upsert=True,
                    return_document=ReturnDocument.BEFORE,
                )
        return {key: doc for key, doc in before.items() if doc is not None}

    async def _add_if_unmoved(self, key: str, update: Document, old: Document | None) -> bool:
        """The summary's update, if it still has the hands `old` had (or is still not
        there): False when another counter added hands first. The upsert then inserts
        a second document of the same id, which the unique id refuses."""
        hands = {"$exists": False} if old is None else old.get("hands", 0)
        op = UpdateOne({"_id": key, "hands": hands}, update, upsert=True)
        try:
            await self._write(self._summary.name, op)
        except WriteError as error:
            if error.code != DUPLICATE_KEY:
                raise
            return False
        return True

    async def _add_blocks(
        self, fresh: list[tuple[PlayerHand, datetime]], before: dict[str, Document]
    ) -> None:
        """Add the new hands to their results blocks, numbered in filing order (after the
        summary's hands before them): not to the sizes whose first block the summary is
        still, and a summary's hands to the first blocks it stops being."""
        per_player: dict[str, int] = {}
        for p, _ in fresh:
            key = stats_id(p.player_id, p.game)
            per_player[key] = per_player.get(key, 0) + 1
        blocks = BlockSums()
        number: dict[str, int] = {}
        summed: dict[str, list[int]] = {}  # per key, the sizes its summary stays
        for key, n in per_player.items():
            old = before.get(key)
            number[key] = int(old.get("hands", 0)) if old is not None else 0
            lazy = old is None or bool(old.get(SUMMARY_BLOCKS))  # else blocks as before it
            after = {SUMMARY_BLOCKS: lazy, "hands": number[key] + n}
            summed[key] = [size for size in BLOCK_SIZES if in_summary(after, size)]
            for size in BLOCK_SIZES:  # sizes its summary stops being: its hands so far
                if old is not None and in_summary(old, size) and size not in summed[key]:
                    blocks.add_summary(old, size)
        for p, played_at in fresh:
            key = stats_id(p.player_id, p.game)
            number[key] += 1
            blocks.add(p, number[key], played_at, summed[key])
        await asyncio.gather(*(self._write_block(op, fallback) for op, fallback in blocks.writes()))

    async def _write_block(
        self, op: InsertOne[Document] | UpdateOne, fallback: UpdateOne | None
    ) -> None:
        try:
            await self._write(self._blocks.name, op)
        except WriteError as error:
            if fallback is None or error.code != DUPLICATE_KEY:
                raise
            await self._write(self._blocks.name, fallback)

    # -- reading -----------------------------------------------------------------

    async def summaries(self, player_id: str, query: Document | None = None) -> list[Document]:
        """The player's summary per game, most played first."""
        cursor = self._summary.find({"player_id": player_id, **(query or {})})
        return sorted([doc async for doc in cursor], key=lambda d: -int(d.get("hands", 0)))

    async def graph_size(self, player_id: str, summaries: list[Document], games: Document) -> int:
        """The block size to draw these games' graph with: block_size_for their hands, or
        a coarser size whose blocks hold every hand (hands counted before the finer sizes
        existed have no blocks of them, and the graph would miss them)."""
        hands = [int(doc.get("hands", 0)) for doc in summaries]
        size = block_size_for(sum(hands))
        for candidate in BLOCK_SIZES[BLOCK_SIZES.index(size) : -1]:
            expected = sum(-(-count // candidate) for count in hands)
            if candidate == FACT_SIZE:
                # Hands counted before the facts were the blocks (a tournament's facts
                # unmarked then) or facts stored without their counters (a crash) make
                # the facts disagree: the next size is drawn.
                found = await self._per_hand.count_documents(fact_query(player_id, games))
            else:
                query = {"player_id": player_id, "size": candidate, **games}
                found = await self._blocks.count_documents(query)
                found += sum(1 for doc in summaries if in_summary(doc, candidate))
            if found == expected:
                return candidate
        return BLOCK_SIZES[-1]

    async def blocks(
        self, player_id: str, size: int, query: Document | None = None
    ) -> list[Document]:
        """The player's results blocks of one size, oldest first."""
        if size == FACT_SIZE:
            facts = self._per_hand.find(fact_query(player_id, query)).sort("played_at", 1)
            return [fact_block(doc, player_id) async for doc in facts]
        cursor = self._blocks.find({"player_id": player_id, "size": size, **(query or {})})
        stored = [doc async for doc in cursor.sort("first_at", 1)]
        games = {k: v for k, v in (query or {}).items() if k.startswith("game.")}
        held = [
            summary_block(doc, size)
            for doc in await self.summaries(player_id, games)
            if in_summary(doc, size)
        ]
        held = [block for block in held if in_range(block, query or {})]
        return sorted(stored + held, key=lambda block: block["first_at"]) if held else stored

    async def leaderboard(
        self, variant: str, min_hands: int, limit: int, offset: int
    ) -> tuple[list[Document], int]:
        """Players of one game type with at least `min_hands`, by bb/100, best first."""
        grouped: list[Document] = [
            {"$match": {"game.variant": variant}},
            {
                "$group": {
                    "_id": "$player_id",
                    "name": {"$last": "$name"},
                    "is_bot": {"$last": "$is_bot"},
                    "hands": {"$sum": "$hands"},
                    "won_bb": {"$sum": "$won_bb"},
                }
            },
            {"$match": {"hands": {"$gte": min_hands}}},
        ]
        rows = [doc async for doc in await self._summary.aggregate(grouped)]
        for row in rows:
            row["bb_per_100"] = 100 * float(row.get("won_bb", 0)) / int(row["hands"])
        rows.sort(key=lambda r: (-r["bb_per_100"], str(r["_id"])))
        return rows[offset : offset + limit], len(rows)

    async def tables(
        self, table_ids: list[str], limit: int, offset: int
    ) -> tuple[list[Document], int]:
        """One page of the tables' figures (those with hands), by table id; and how many."""
        query: Document = {"_id": {"$in": table_ids}}
        cursor = self._tables.find(query).sort("_id", 1).skip(offset).limit(limit)
        return [doc async for doc in cursor], await self._tables.count_documents(query)

    # -- from scratch ------------------------------------------------------------

    @staticmethod
    def summary_of(players: Iterable[PlayerHand]) -> dict[str, dict[str, Any]]:
        """Summed counters per stats id, as `player_stats` would hold them."""
        out: dict[str, dict[str, Any]] = {}
        for p in players:
            row = out.setdefault(stats_id(p.player_id, p.game), dict.fromkeys(COUNTER_NAMES, 0))
            for name, value in p.counts.as_dict().items():
                row[name] += value
        return out
