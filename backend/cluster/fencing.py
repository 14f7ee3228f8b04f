"""Fenced writes: a table's documents refuse a writer with an older lease token.

Each fenced document keeps `fence`, the highest token that wrote it. A fenced
write is an upsert whose filter asks for `fence` at most the writer's token:
when a later owner has written, the filter matches nothing, the upsert tries to
insert the same `_id`, and the database refuses it with a duplicate key error,
reported for that operation alone, so fenced writes still travel in group
commits (backend.db.batch_writer). A new owner stamps the table's documents
with its token (`stamp`) before it reads them and acts: from then on the old
owner's writes are refused, and whatever it wrote before is what the new owner
reads.
"""

from __future__ import annotations

from typing import Any

from pymongo import UpdateOne
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError, WriteError

from backend.db.codec import Document

DUPLICATE_KEY = 11000


class StaleOwner(Exception):
    """A write refused: another node owns the table now (a later lease token wrote)."""


def fenced_filter(doc_id: str, token: int, **conditions: Any) -> Document:
    """Matches the document only while no later token has written it (or none yet).

    `fence` not above the token also matches a document with no fence. Written as a
    condition on the field, not a top-level `$or`: the embedded database looks a
    filter with a top-level operator up by scanning the whole collection (every
    table's document, twice a hand), where `_id` beside field conditions is a point
    lookup; measured on 100 tables' documents, 2.2 against 1.1 ms of its CPU per
    fenced update."""
    return {"_id": doc_id, "fence": {"$not": {"$gt": token}}, **conditions}


def fenced_doc(token: int, update: Document) -> Document:
    """`update`, also setting the document's fence to the writer's token."""
    return {**update, "$set": {**update.get("$set", {}), "fence": token}}


def fenced_update(doc_id: str, token: int, update: Document) -> UpdateOne:
    """`update` of the document, carrying the token; refused for a stale token (a missing
    document is created, as by any upsert)."""
    return UpdateOne(fenced_filter(doc_id, token), fenced_doc(token, update), upsert=True)


def refused(error: BaseException) -> bool:
    """The error of a fenced write refused for its stale token."""
    return isinstance(error, WriteError) and error.code == DUPLICATE_KEY


async def write_fenced(
    db: AsyncDatabase[Document], collection: str, doc_id: str, token: int, update: Document
) -> None:
    """One fenced write, sent by itself; StaleOwner if refused."""
    try:
        await db[collection].update_one(
            fenced_filter(doc_id, token), fenced_doc(token, update), upsert=True
        )
    except DuplicateKeyError as error:
        raise StaleOwner(f"{collection} {doc_id}: a later owner wrote it") from error


async def stamp(db: AsyncDatabase[Document], collection: str, doc_id: str, token: int) -> bool:
    """A new owner's first write to a document: from now on older tokens are refused.

    False if the document does not exist (nothing to fence: the owner's own writes
    create it with its token); StaleOwner if an even later owner stamped it already.
    """
    col = db[collection]
    result = await col.update_one(fenced_filter(doc_id, token), {"$set": {"fence": token}})
    if result.matched_count:
        return True
    if await col.find_one({"_id": doc_id}, {"_id": 1}) is not None:
        raise StaleOwner(f"{collection} {doc_id}: a later owner stamped it")
    return False
