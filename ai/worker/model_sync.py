"""Keeping a decision process on the current model version and the players' stored statistics.

Each process that answers queries reads MongoDB directly (blocking is fine
there: it is not the worker's event loop): the pointer to the current model
version at most every POINTER_EVERY seconds, and the statistics of the players
at the table at most every STATS_EVERY seconds per player. After a failure it
leaves the database alone for BACKOFF seconds and plays on with what it has,
so a database outage never delays a decision by more than one short timeout.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from typing import Any

from pymongo import MongoClient
from pymongo.errors import PyMongoError

from ai.models.model import use_models
from ai.models.stats import PlayerStats
from ai.models.store import POINTER, model_set_of

log = logging.getLogger("showdown.worker")

POINTER_EVERY = 0.0  # a find by _id per query: the next query uses a new version
STATS_EVERY = 5.0
BACKOFF = 10.0
TIMEOUT_MS = 300


class ModelSync:
    def __init__(self, url: str, clock: Callable[[], float] = time.monotonic) -> None:
        self._client: MongoClient[dict[str, Any]] = MongoClient(
            url, serverSelectionTimeoutMS=TIMEOUT_MS, connectTimeoutMS=TIMEOUT_MS,
            socketTimeoutMS=2000, tz_aware=True,
        )  # fmt: skip
        self._db = self._client.get_default_database("showdown")
        self._clock = clock
        self.version: str | None = None
        self._pointer_at = -1e9
        self._stats_at: dict[str, float] = {}
        self._quiet_until = -1e9

    def refresh(
        self, players: Iterable[str], remember: Callable[[dict[str, PlayerStats]], None]
    ) -> None:
        """Switch to a newer model version and load stale players' statistics."""
        now = self._clock()
        if now < self._quiet_until:
            return
        try:
            if now - self._pointer_at >= POINTER_EVERY:
                self._pointer_at = now
                pointer = self._db.model_pointer.find_one({"_id": POINTER})
                version = None if pointer is None else str(pointer["version"])
                if version is not None and version != self.version:
                    doc = self._db.models.find_one({"_id": version})
                    if doc is not None:
                        use_models(model_set_of(doc))
                        self.version = version
                        log.info("opponent model version %s loaded", version)
            stale = [p for p in players if now - self._stats_at.get(p, -1e9) >= STATS_EVERY]
            if stale:
                found = {
                    str(doc["_id"]): PlayerStats.from_doc(doc)
                    for doc in self._db.opponent_stats.find({"_id": {"$in": stale}})
                }
                for player in stale:
                    self._stats_at[player] = now
                if found:
                    remember(found)
        except PyMongoError as error:
            self._quiet_until = now + BACKOFF
            log.warning("model database unavailable (%s): playing on", str(error)[:120])

    def close(self) -> None:
        self._client.close()
