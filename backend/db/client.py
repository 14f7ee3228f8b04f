"""The MongoDB connection (PyMongo's asyncio API) and the indexes the queries rely on."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from pymongo import ASCENDING, DESCENDING, AsyncMongoClient, MongoClient
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.database import Database
from pymongo.errors import PyMongoError
from pymongo.uri_parser import parse_uri

log = logging.getLogger(__name__)

Document = dict[str, Any]
PING_TIMEOUT = 0.5  # seconds a health check waits for the database
BLOCKING_TIMEOUT = 30.0  # seconds a write from the worker thread waits for its answer


class Mongo:
    """One client per process; `db` is the Showdown database."""

    def __init__(self, url: str, default_db: str = "showdown") -> None:
        self.url = url
        parsed = parse_uri(url)
        database = parsed.get("database") or default_db
        # Acknowledged means on disk unless the URL says otherwise: a killed database
        # keeps journaled writes only. The table writes that need no wait opt out
        # (backend.db.batch_writer).
        journal: dict[str, Any] = {} if "journal" in parsed["options"] else {"journal": True}
        options: dict[str, Any] = {
            "serverSelectionTimeoutMS": 5000,
            "connectTimeoutMS": 5000,
            "tz_aware": True,
            **journal,
        }
        self.client: AsyncMongoClient[Document] = AsyncMongoClient(url, **options)
        self.db: AsyncDatabase[Document] = self.client[database]
        # The same database for the writes a player waits for, sent from a worker
        # thread (backend.db.batch_writer): no turns of the event loop on their way.
        # A thread cannot be cancelled: a write the database holds for BLOCKING_TIMEOUT
        # fails instead (the table's persister sends it again), so no thread waits
        # for ever and a shutdown is not held by one.
        self.blocking_client: MongoClient[Document] = MongoClient(
            url, connect=False, socketTimeoutMS=int(BLOCKING_TIMEOUT * 1000), **options
        )
        self.blocking_db: Database[Document] = self.blocking_client[database]

    async def ping(self, within: float = PING_TIMEOUT) -> bool:
        return await self.check(within) is None

    async def check(self, within: float = PING_TIMEOUT) -> str | None:
        """None if the database answers a ping within `within` seconds, else what is wrong.

        Short, unlike the driver's server selection (seconds): health checks must
        report an outage at once.
        """
        try:
            async with asyncio.timeout(within):
                await self.client.admin.command("ping")
        except TimeoutError:
            problem = f"no answer within {within:g} s"
        except PyMongoError as error:
            problem = str(error).split(",")[0][:200]
        else:
            return None
        log.warning("database ping failed", extra={"error": problem})
        return problem

    async def ensure_indexes(self) -> None:
        db = self.db
        await db.hands.create_index([("table_id", ASCENDING), ("hand_no", ASCENDING)])
        await db.hands.create_index([("player_ids", ASCENDING), ("played_at", DESCENDING)])
        await db.hands.create_index([("played_at", DESCENDING)])
        await db.ledger.create_index([("player_id", ASCENDING), ("at", DESCENDING)])
        await db.ledger.create_index([("table_id", ASCENDING), ("at", DESCENDING)])
        await db.voided_hands.create_index([("table_id", ASCENDING), ("hand_no", ASCENDING)])
        await db.player_stats.create_index([("player_id", ASCENDING)])
        await db.player_stats.create_index([("game.variant", ASCENDING), ("hands", ASCENDING)])
        # A player's facts: their blocks of one hand (results graphs of up to 300 hands).
        await db.player_hand_stats.create_index(
            [("seats.player_id", ASCENDING), ("played_at", ASCENDING)]
        )
        await db.player_results.create_index(
            [("player_id", ASCENDING), ("size", ASCENDING), ("first_at", ASCENDING)]
        )

    async def close(self) -> None:
        await self.client.close()
        await asyncio.to_thread(self.blocking_client.close)
