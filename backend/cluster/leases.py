"""Table ownership leases in MongoDB: one owner node per table, with a fencing counter.

A lease is a document of `table_leases`: the owner node's id, when the lease
expires, and `token`, a counter raised by every acquisition (never by a
renewal, never lowered: a released lease keeps its document). A node acts for a
table only while it holds an unexpired lease; its writes to the table's
documents carry the token and are refused once a later owner has written
(backend.cluster.fencing), so a node that was paused past its lease (a long
garbage collection, a frozen VM) cannot overwrite the new owner's state.

Expiry is compared on the nodes' clocks: the lease time must exceed their
skew by far (seconds against milliseconds for NTP-synchronised hosts).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from pymongo import ReturnDocument
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError

from backend.db.codec import Document

COLLECTION = "table_leases"
NEVER = datetime(1970, 1, 1, tzinfo=UTC)  # a released lease's expiry

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


def _ms(moment: datetime) -> datetime:
    """To the millisecond, as BSON stores it (so a time read back compares equal)."""
    return moment.replace(microsecond=moment.microsecond // 1000 * 1000)


@dataclass(frozen=True, slots=True)
class Lease:
    table_id: str
    owner: str
    token: int  # the fencing token: higher than every earlier owner's
    expires_at: datetime

    def valid(self, now: datetime) -> bool:
        return now < self.expires_at


def _lease(doc: Document) -> Lease:
    expires = doc["expires_at"]
    if expires.tzinfo is None:  # a client without tz_aware reads naive UTC
        expires = expires.replace(tzinfo=UTC)
    return Lease(str(doc["_id"]), str(doc["owner"]), int(doc["token"]), expires)


class Leases:
    """One node's view of the leases: acquire, renew, release, look up."""

    def __init__(
        self,
        db: AsyncDatabase[Document],
        node_id: str,
        ttl: float = 10.0,
        clock: Clock = utc_now,
        collection: str = COLLECTION,  # a tournament director's leases: their own
    ) -> None:
        self._col = db[collection]
        self.node_id = node_id
        self.ttl = timedelta(seconds=ttl)
        self._clock = clock

    async def acquire(self, table_id: str) -> Lease | None:
        """Take the table if its lease is free (expired, released, never taken) or ours;
        None if another node holds it. Each acquisition raises the token."""
        now = self.now()
        try:
            doc = await self._col.find_one_and_update(
                {
                    "_id": table_id,
                    "$or": [{"expires_at": {"$lte": now}}, {"owner": self.node_id}],
                },
                {
                    "$set": {"owner": self.node_id, "expires_at": now + self.ttl},
                    "$inc": {"token": 1},
                },
                upsert=True,
                return_document=ReturnDocument.AFTER,
            )
        except DuplicateKeyError:
            return None  # held by another node: the upsert found the id taken
        return _lease(doc) if doc is not None else None

    async def renew(self, lease: Lease) -> Lease | None:
        """Extend a lease we hold; None if it is lost (taken over since: the token moved).

        An expired lease nobody took is renewed: no later owner has written."""
        now = self.now()
        expires = now + self.ttl
        result = await self._col.update_one(
            {"_id": lease.table_id, "owner": self.node_id, "token": lease.token},
            {"$set": {"expires_at": expires}},
        )
        if result.matched_count == 0:
            return None
        return Lease(lease.table_id, lease.owner, lease.token, expires)

    async def renew_many(self, leases: list[Lease]) -> dict[str, Lease]:
        """Renew many leases in two round trips (an update, then a read of which are ours
        with their tokens); the renewed ones, by table id. Missing: lost."""
        if not leases:
            return {}
        expires = self.now() + self.ttl
        ids = [lease.table_id for lease in leases]
        await self._col.update_many(
            {"_id": {"$in": ids}, "owner": self.node_id}, {"$set": {"expires_at": expires}}
        )
        tokens = {lease.table_id: lease.token for lease in leases}
        cursor = self._col.find({"_id": {"$in": ids}, "owner": self.node_id})
        renewed: dict[str, Lease] = {}
        async for doc in cursor:
            found = _lease(doc)
            # Ours with the same token, extended just now: not re-acquired by us meanwhile.
            if tokens.get(found.table_id) == found.token and found.expires_at >= expires:
                renewed[found.table_id] = found
        return renewed

    def now(self) -> datetime:
        return _ms(self._clock())

    async def release(self, lease: Lease) -> None:
        """Give the table up (a drain, a clean stop): free at once, the token kept."""
        await self._col.update_one(
            {"_id": lease.table_id, "owner": self.node_id, "token": lease.token},
            {"$set": {"expires_at": NEVER}},
        )

    async def holder(self, table_id: str) -> Lease | None:
        """The table's current lease, if one is unexpired."""
        doc = await self._col.find_one({"_id": table_id})
        if doc is None:
            return None
        lease = _lease(doc)
        return lease if lease.valid(self.now()) else None

    async def held_by(self, node_id: str) -> list[Lease]:
        """Unexpired leases a node holds (its load, for placing new tables)."""
        cursor = self._col.find({"owner": node_id, "expires_at": {"$gt": self.now()}})
        return [_lease(doc) async for doc in cursor]
