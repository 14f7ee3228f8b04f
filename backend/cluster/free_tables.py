"""Which open tables nobody holds: a node's takeover round, read cheaply.

A round used to read every table's id from `tables` (the embedded database decodes
each whole document, snapshot and pending record, to project the id: ~9 ms of its
CPU for 100 tables) and look their leases up with `$in` (~12 ms more), every
LEASE_TTL/5 on every node: on 4 nodes about a third of the database's CPU under
`showdown bench cluster`. Every table a cluster opens is claimed (its lease
written) before its document, so the leases alone say which tables may be free:
a round reads the lease collection (small documents, ~2 ms for 100) and asks
`tables` only about the ids whose lease ran out, to leave out closed tables (each
remembered with its token, so it is asked about once; a table opened again under
that id is claimed with a higher token). Tables with no lease at all (a database a
single process served before) are found by a full read on the first round and
every FULL_EVERY rounds.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC

from pymongo.asynchronous.database import AsyncDatabase

from backend.cluster.leases import COLLECTION, Leases
from backend.db.codec import Document

FULL_EVERY = 15  # rounds between full reads of the tables' ids (30 s at a 10 s lease)


class FreeTables:
    def __init__(
        self, db: AsyncDatabase[Document], leases: Leases, full_every: int = FULL_EVERY
    ) -> None:
        self._db = db
        self._leases = leases
        self._full_every = full_every
        self._rounds = 0
        self._closed: dict[str, int] = {}  # expired leases of tables found closed: token

    async def find(self, here: Callable[[str], bool]) -> tuple[int, list[str]]:
        """(open tables, those free: lease expired, released or never taken, and not
        `here`), in the tables' stored order on a full read."""
        full = self._rounds % self._full_every == 0
        self._rounds += 1
        now = self._leases.now()
        expiry: dict[str, tuple[bool, int]] = {}  # table -> (held, token)
        async for doc in self._db[COLLECTION].find({}, {"expires_at": 1, "token": 1}):
            expires = doc["expires_at"]
            if expires.tzinfo is None:  # a client without tz_aware reads naive UTC
                expires = expires.replace(tzinfo=UTC)
            expiry[str(doc["_id"])] = (expires > now, int(doc.get("token", 0)))
        if full:
            ids = [str(doc["_id"]) async for doc in self._db.tables.find({}, {"_id": 1})]
            free = [t for t in ids if not expiry.get(t, (False, 0))[0] and not here(t)]
            return len(ids), free
        held = sum(1 for is_held, _ in expiry.values() if is_held)
        asked = [
            t
            for t, (is_held, token) in expiry.items()
            if not is_held and self._closed.get(t) != token and not here(t)
        ]
        if not asked:
            return held, []
        found = {
            str(doc["_id"])
            async for doc in self._db.tables.find({"_id": {"$in": asked}}, {"_id": 1})
        }
        for table_id in asked:
            if table_id not in found:
                self._closed[table_id] = expiry[table_id][1]
        free = [t for t in asked if t in found]
        return held + len(free), free
