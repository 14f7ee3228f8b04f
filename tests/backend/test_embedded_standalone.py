"""The embedded database runs as a standalone server: no oplog beside every write.

A single-node replica set (SecantusDB's default) writes an oplog entry with a diff
of each updated document and keeps a record per retryable write: about a fifth of
its CPU under the server bench's load, for change streams and transactions that
Showdown does not use. Journaled writes stay journaled.
"""

from __future__ import annotations

import uuid

from pymongo import AsyncMongoClient
from pymongo.write_concern import WriteConcern


async def test_the_embedded_database_is_standalone_and_writes_no_oplog(mongo_url: str) -> None:
    client: AsyncMongoClient[dict[str, object]] = AsyncMongoClient(mongo_url)
    try:
        hello = await client.admin.command("hello")
        assert "setName" not in hello  # not a replica set member: the driver sees a standalone
        before = await client.local["oplog.rs"].count_documents({})
        db = client[f"t{uuid.uuid4().hex}"]
        tables = db.get_collection("tables", write_concern=WriteConcern(j=True))
        await tables.insert_one({"_id": "t1", "seq": 1})
        await tables.update_one({"_id": "t1"}, {"$set": {"seq": 2}})
        assert await tables.find_one({"_id": "t1"}) == {"_id": "t1", "seq": 2}
        assert await client.local["oplog.rs"].count_documents({}) == before == 0
    finally:
        await client.close()
