"""Player statistics kept up to date as hands are filed (holdem.stats counts them).

A maintained summary, not an aggregation over the hands: a profile must answer
in milliseconds for a player with 100,000 hands, and a pass over those hands
costs seconds (measured: `showdown bench stats`). Three collections:

- player_hand_stats: one document per player per filed hand (id: hand id and
  player id). Filing it first makes filing again harmless: counters are added
  only for the documents that were new.
- player_stats: per player, game type and stakes, the summed counters.
- table_stats: per table, the lobby's figures: hands, chips pushed to winners
  (the pots), players who saw a flop and hands that had one, first and last hand.
- player_results: the results graph, per player, game and block of
  consecutive hands of that game (100, and 1,000 for long records): sums of the
  winnings lines and the block's first and last time. A graph reads at most a
  few hundred blocks: 100,000 hands are 100 blocks of 1,000.

Counting is queued (`file_later`) and done by one background task, never on a
table's path: it costs the database about four upserts per seat and hand
(measured: `showdown bench server`), which a table must not wait for. If the
server stops between a new player_hand_stats document and its counters, or
with hands still queued, those hands are missing from the summary (a known gap:
nothing counts them later); a clean stop drains the queue (`close`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from pymongo import InsertOne, ReturnDocument, UpdateOne
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError, WriteError

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
BLOCK_SIZES = (100, 1000)  # hands per point of the results graph: fine, coarse
FINE_UP_TO = 30_000  # hands a graph draws at the fine size (at most 300 points)
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


def block_size_for(hands: int) -> int:
    """The block size a graph of this many hands is drawn with."""
    return BLOCK_SIZES[0] if hands <= FINE_UP_TO else BLOCK_SIZES[1]


def block_update(p: PlayerHand, size: int, number: int, played_at: datetime) -> UpdateOne:
    """Add the hand to its block (the player's `number`-th hand of this game, from 1)."""
    counts = p.counts.as_dict()
    block = (number - 1) // size
    return UpdateOne(
        {"_id": f"{stats_id(p.player_id, p.game)}|{size}|{block}"},
        {
            "$inc": {"hands": 1, **{name: counts[name] for name in SERIES}},
            "$min": {"first_at": played_at},
            "$max": {"last_at": played_at},
            "$setOnInsert": {
                "player_id": p.player_id,
                "game": game_doc(p.game),
                "size": size,
                "block": block,
            },
        },
        upsert=True,
    )


def table_update(record: HandRecord, players: list[PlayerHand], played_at: datetime) -> UpdateOne:
    """Add one hand to its table's lobby figures."""
    pot = sum(e.amount or 0 for e in record.events if e.kind is EventKind.WIN)
    at_flop = sum(p.counts.saw_flop for p in players)
    return UpdateOne(
        {"_id": record.table_id},
        {
            "$inc": {"hands": 1, "pots": pot, "flop_players": at_flop, "flops": int(at_flop > 0)},
            "$min": {"first_at": played_at},
            "$max": {"last_at": played_at},
        },
        upsert=True,
    )


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


def _needs_a_thread(record: HandRecord) -> bool:
    # Cards shown before the river: the all-in equity enumerates boards (up to tens of ms).
    return len(record.board) == 5 and any(e.kind is EventKind.SHOW for e in record.events)


async def count_hand(record: HandRecord) -> list[PlayerHand]:
    """holdem.stats on one hand, off the event loop when it may take a while."""
    if _needs_a_thread(record):
        return await asyncio.to_thread(player_hands, record)
    return player_hands(record)


class PlayerStats:
    def __init__(self, db: AsyncDatabase[Document], writer: BatchWriter) -> None:
        self._queue: asyncio.Queue[tuple[Document, datetime]] = asyncio.Queue(MAX_QUEUED)
        self._task: asyncio.Task[None] | None = None
        self._writer = writer
        self._per_hand = db.player_hand_stats
        self._summary = db.player_stats
        self._blocks = db.player_results
        self._tables = db.table_stats

    # -- filing ------------------------------------------------------------------

    def file_later(self, doc: Document, played_at: datetime) -> None:
        """Queue a filed hand for counting by the background task."""
        if self._task is None:
            self._task = asyncio.create_task(self._count_queued(), name="player-stats")
        try:
            self._queue.put_nowait((doc, played_at))
        except asyncio.QueueFull:
            log.warning(
                "statistics behind: a hand left uncounted", extra={"hand_no": doc.get("hand_no")}
            )

    async def _count_queued(self) -> None:
        while True:
            doc, played_at = await self._queue.get()
            try:
                await self.file(doc, played_at)
            except Exception:
                log.exception("statistics not counted", extra={"hand_no": doc.get("hand_no")})
            finally:
                self._queue.task_done()

    async def drain(self) -> None:
        """Return once every queued hand is counted."""
        await self._queue.join()

    async def close(self) -> None:
        await self.drain()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def file(self, doc: Document, played_at: datetime) -> None:
        """Count a filed hand (its stored record); counting it again changes nothing.

        A hand the statistics cannot read is logged and skipped: it must never stop
        a table from filing its hands.
        """
        try:
            record = record_from_doc(doc)
            players = await count_hand(record)
        except Exception:
            log.exception("statistics skipped a hand", extra={"hand_no": doc.get("hand_no")})
            return
        new = await asyncio.gather(*(self._file_one(record, p, played_at) for p in players))
        if new and new[0]:  # the first seat's document was new: the hand is counted once
            await self._writer.write(self._tables.name, table_update(record, players, played_at))

    async def _file_one(self, record: HandRecord, p: PlayerHand, played_at: datetime) -> bool:
        """Count one seat's part; False if it was counted already."""
        hid = hand_id(record.table_id, record.hand_no)
        fact = {
            "_id": f"{hid}|{p.player_id}",
            "player_id": p.player_id,
            "hand_id": hid,
            "game": game_doc(p.game),
            "played_at": played_at,
            "net": p.net,
            "showdown": p.showdown,
            "allin_ev": p.allin_ev,
        }
        try:
            await self._writer.write(self._per_hand.name, InsertOne(fact))
        except WriteError as error:
            if error.code == DUPLICATE_KEY:
                return False  # counted already
            raise
        hands = await self._add_counts(p, played_at)
        await asyncio.gather(
            *(
                self._writer.write(self._blocks.name, block_update(p, size, hands, played_at))
                for size in BLOCK_SIZES
            )
        )
        return True

    async def _add_counts(self, p: PlayerHand, played_at: datetime) -> int:
        """Add the hand's counters; the player's hands of this game so far, this one included."""
        update = {
            "$inc": counter_inc(p),
            "$set": {"name": p.name, "is_bot": p.is_bot, "last_played_at": played_at},
            "$setOnInsert": {"player_id": p.player_id, "game": game_doc(p.game)},
        }
        for attempt in range(2):
            try:
                doc = await self._summary.find_one_and_update(
                    {"_id": stats_id(p.player_id, p.game)},
                    update,
                    upsert=True,
                    return_document=ReturnDocument.AFTER,
                    projection={"hands": 1},
                )
            except DuplicateKeyError:
                if attempt:  # two first hands at once: the other upsert created it
                    raise
                continue
            return int(doc["hands"]) if doc is not None else 1
        raise AssertionError("unreachable")

    # -- reading -----------------------------------------------------------------

    async def summaries(self, player_id: str, query: Document | None = None) -> list[Document]:
        """The player's summary per game, most played first."""
        cursor = self._summary.find({"player_id": player_id, **(query or {})})
        return sorted([doc async for doc in cursor], key=lambda d: -int(d.get("hands", 0)))

    async def blocks(
        self, player_id: str, size: int, query: Document | None = None
    ) -> list[Document]:
        """The player's results blocks of one size, oldest first."""
        cursor = self._blocks.find({"player_id": player_id, "size": size, **(query or {})})
        return [doc async for doc in cursor.sort("first_at", 1)]

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

    async def tables(self, table_ids: list[str]) -> list[Document]:
        return [doc async for doc in self._tables.find({"_id": {"$in": table_ids}})]

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
