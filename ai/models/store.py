"""Model versions, player statistics and the training lease, in MongoDB.

Collections:
- `models`: one document per accepted version: the population network and the
  per-player networks (npz blobs) with the held-out metrics it was accepted with;
- `model_pointer` (`_id: "current"`): the version every worker uses, switched
  atomically by the trainer once a new version is no worse on held-out data;
- `opponent_stats`: each player's statistics over every stored hand (the reads);
- `training` (`_id: "lease"`): which process trains; any number of workers may
  offer to train, the lease lets one at a time.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

from pymongo import ASCENDING, ReturnDocument
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError

from ai.models.inference import NumpyNet
from ai.models.model import ModelSet, PlayerNet
from ai.models.public import PublicHand, from_record_doc
from ai.models.stats import PlayerStats, StatsBook
from ai.models.weights import NetWeights

Document = dict[str, Any]
POINTER = "current"


def now() -> datetime:
    return datetime.now(UTC)


class ModelStore:
    def __init__(self, db: AsyncDatabase[Document]) -> None:
        self.db = db

    # -- versions ---------------------------------------------------------------

    async def current_version(self) -> str | None:
        doc = await self.db.model_pointer.find_one({"_id": POINTER})
        return None if doc is None else str(doc["version"])

    async def load(self, version: str | None = None) -> ModelSet | None:
        """The given version, or the current one; None when no version was accepted yet."""
        version = version or await self.current_version()
        if version is None:
            return None
        doc = await self.db.models.find_one({"_id": version})
        if doc is None:
            return None
        return model_set_of(doc)

    async def metrics(self, version: str) -> Mapping[str, Any]:
        doc = await self.db.models.find_one({"_id": version}, {"metrics": 1})
        return {} if doc is None else dict(doc.get("metrics", {}))

    async def publish(
        self,
        generic: NetWeights,
        players: Mapping[str, tuple[NetWeights, int]],
        metrics: Mapping[str, Any],
        replaces: str | None,
    ) -> str | None:
        """Store a version and make it current, unless another one became current since
        `replaces` was read (then the new version is kept but not used; None)."""
        version = f"{now():%Y%m%dT%H%M%S}-{uuid.uuid4().hex[:8]}"
        await self.db.models.insert_one(
            {
                "_id": version,
                "created_at": now(),
                "generic": generic.to_bytes(),
                "players": {
                    pid: {"weights": w.to_bytes(), "decisions": n}
                    for pid, (w, n) in players.items()
                },
                "metrics": dict(metrics),
            }
        )
        if replaces is None:
            try:
                await self.db.model_pointer.insert_one({"_id": POINTER, "version": version})
            except DuplicateKeyError:
                return None
            return version
        switched = await self.db.model_pointer.find_one_and_update(
            {"_id": POINTER, "version": replaces}, {"$set": {"version": version}}
        )
        return version if switched is not None else None

    # -- statistics ---------------------------------------------------------------

    async def save_stats(self, book: StatsBook, players: Iterable[str]) -> None:
        for player in players:
            stats = book.get(player)
            await self.db.opponent_stats.replace_one(
                {"_id": player}, {**stats.to_doc(), "updated_at": now()}, upsert=True
            )

    async def stats(self, players: Iterable[str]) -> dict[str, PlayerStats]:
        wanted = list(dict.fromkeys(players))
        found = {}
        async for doc in self.db.opponent_stats.find({"_id": {"$in": wanted}}):
            found[str(doc["_id"])] = PlayerStats.from_doc(doc)
        return found

    # -- hands ---------------------------------------------------------------------

    async def hands(self, after: Any = None) -> list[tuple[Any, PublicHand]]:
        """Stored hands in play order as (position, PublicHand); `after` a position."""
        query: Document = {}
        if after is not None:
            played_at, hand_id = after
            query = {
                "$or": [
                    {"played_at": {"$gt": played_at}},
                    {"played_at": played_at, "_id": {"$gt": hand_id}},
                ]
            }
        cursor = self.db.hands.find(query, {"record": 1, "played_at": 1}).sort(
            [("played_at", ASCENDING), ("_id", ASCENDING)]
        )
        out = []
        async for doc in cursor:
            out.append(((doc["played_at"], doc["_id"]), from_record_doc(doc["record"])))
        return out

    # -- who trains ------------------------------------------------------------------

    async def take_lease(self, owner: str, seconds: float) -> bool:
        """True when `owner` holds the training lease for the next `seconds`."""
        stamp = now()
        until = stamp + timedelta(seconds=seconds)
        try:
            doc = await self.db.training.find_one_and_update(
                {"_id": "lease", "$or": [{"owner": owner}, {"until": {"$lt": stamp}}]},
                {"$set": {"owner": owner, "until": until}},
                upsert=True,
                return_document=ReturnDocument.AFTER,
            )
        except DuplicateKeyError:  # held by someone else (the upsert found no match)
            return False
        return doc is not None and doc.get("owner") == owner


def model_set_of(doc: Mapping[str, Any]) -> ModelSet:
    generic = NumpyNet(NetWeights.from_bytes(bytes(doc["generic"])))
    players = {
        pid: PlayerNet(NumpyNet(NetWeights.from_bytes(bytes(p["weights"]))), int(p["decisions"]))
        for pid, p in doc.get("players", {}).items()
    }
    return ModelSet(str(doc["_id"]), generic, players, dict(doc.get("metrics", {})))
