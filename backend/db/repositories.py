"""Every read and write of the database, one small class per collection.

Collections: players, tables (config, options and the snapshot of seats and
stacks), live_hands (the actions of each table's hand in progress), hands
(finished HandRecords), voided_hands (hands cut short by a restart) and ledger
(every buy-in, rebuy and cashout). Each write is a single-document atomic update.

The writes a table makes while it plays go through the shared BatchWriter, which
sends many tables' writes in one round trip; the rest go straight to the driver.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from pymongo import ASCENDING, DESCENDING, InsertOne, ReplaceOne, UpdateOne
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.database import Database
from pymongo.errors import DuplicateKeyError, WriteError

from backend.cluster.fencing import fenced_filter, fenced_update
from backend.db.batch_writer import BatchWriter
from backend.db.codec import Document, hand_id, record_to_doc
from backend.db.player_stats import PlayerStats
from backend.names import lookalike_keys, name_key
from holdem.actions import HandEvent
from holdem.history import HandRecord

DUPLICATE_KEY = 11000  # MongoDB's error code


def now() -> datetime:
    return datetime.now(UTC)


class NameTaken(Exception):
    """Another player already protects this name with a password."""


class Players:
    """Guest accounts; one with a password owns its name (`name_key`, unique among those)."""

    def __init__(self, db: AsyncDatabase[Document]) -> None:
        self._col = db.players

    async def ensure_indexes(self) -> None:
        # Unique among protected names only: unprotected guests may share a name, as before.
        await self._col.create_index(
            "name_key",
            unique=True,
            name="protected_name",
            partialFilterExpression={"password_hash": {"$exists": True}},
        )
        await self._col.create_index("lookalike_keys", name="protected_lookalikes")
        # Protected before look-alikes were checked: give them their keys once.
        async for doc in self._col.find(
            {"password_hash": {"$exists": True}, "lookalike_keys": {"$exists": False}},
            ["name"],
        ):
            await self._col.update_one(
                {"_id": doc["_id"]}, {"$set": {"lookalike_keys": lookalike_keys(doc["name"])}}
            )

    async def create_guest(self, player_id: str, name: str) -> None:
        await self._col.insert_one(
            {
                "_id": player_id,
                "name": name,
                "name_key": name_key(name),
                "kind": "guest",
                "created_at": now(),
            }
        )

    async def get(self, player_id: str) -> Document | None:
        return await self._col.find_one({"_id": player_id})

    async def protected(self, name: str) -> Document | None:
        """The player who protects `name` (any case) with a password, if any."""
        return await self._col.find_one(
            {"name_key": name_key(name), "password_hash": {"$exists": True}}
        )

    async def protected_lookalike(self, name: str, player_id: str | None = None) -> Document | None:
        """Another player (not `player_id`) whose protected name looks like `name`
        (backend.names.lookalike_keys; the same name, in any case, included)."""
        query: Document = {
            "lookalike_keys": {"$in": lookalike_keys(name)},
            "password_hash": {"$exists": True},
        }
        if player_id is not None:
            query["_id"] = {"$ne": player_id}
        return await self._col.find_one(query)

    async def set_password(self, player_id: str, name: str, password_hash: str) -> None:
        """Protect the player's name with a password; NameTaken if another player holds it
        or a name that looks like it. (Two look-alikes protected at the same instant could
        both pass the look-alike check; the same name cannot: the index is unique.)"""
        other = await self.protected_lookalike(name, player_id)
        if other is not None:
            raise NameTaken(str(other["name"]))
        try:
            await self._col.update_one(
                {"_id": player_id},
                {
                    "$set": {
                        "password_hash": password_hash,
                        "name_key": name_key(name),
                        "lookalike_keys": lookalike_keys(name),
                        "password_set_at": now(),
                    }
                },
            )
        except DuplicateKeyError as error:
            raise NameTaken(name) from error


class Tables:
    def __init__(self, db: AsyncDatabase[Document], writer: BatchWriter) -> None:
        self._col = db.tables
        self._closed = db.closed_tables
        self._writer = writer

    async def names(self, table_ids: set[str]) -> dict[str, str]:
        """The names of these tables, open or closed (a closed table's is in closed_tables)."""
        ids = list(table_ids)
        names: dict[str, str] = {}
        async for doc in self._closed.find({"_id": {"$in": ids}}, {"name": 1}):
            names[str(doc["_id"])] = str(doc.get("name", ""))
        async for doc in self._col.find({"_id": {"$in": ids}}, {"options.name": 1}):
            names[str(doc["_id"])] = str(doc.get("options", {}).get("name", ""))
        return {table_id: name for table_id, name in names.items() if name}

    async def insert(
        self,
        table_id: str,
        config: Document,
        options: Document,
        snapshot: Document,
        seq: int,
        ledger: list[Document] | None = None,
    ) -> None:
        """A new table; `ledger` (the bots' buy-ins) rides along as its pending ledger, so
        the chips on the table and their entries are stored in one write (the table's
        persister files them, again after a crash)."""
        stamp = now()
        await self._col.insert_one(
            {
                "_id": table_id,
                "config": config,
                "options": options,
                "snapshot": snapshot,
                "seq": seq,
                "created_at": stamp,
                "updated_at": stamp,
                "pending_ledger": ledger or [],
            }
        )

    async def all(self) -> list[Document]:
        return [doc async for doc in self._col.find({}).sort("created_at", 1)]

    async def one(self, table_id: str) -> Document | None:
        return await self._col.find_one({"_id": table_id})

    def save_state(
        self,
        table_id: str,
        snapshot: Document,
        seq: int,
        pending_record: Document | None = None,
        ledger: list[Document] | None = None,
        fence: int | None = None,
        stored: Callable[[], None] | None = None,
    ) -> asyncio.Future[None]:
        """Seats and stacks, and (at a hand's end) its record in the same atomic update.

        The record rides along so that stacks and the hand that produced them are
        never out of step; `Hands.insert` then files it and `clear_pending` drops it.
        So do the ledger entries of the chips that came or went (`Ledger.file` files
        them; the next update replaces them). `stored`: called as soon as the write is
        known stored (BatchWriter.write). Queued in the caller's step (BatchWriter.submit):
        the future is its outcome.
        """
        update: dict[str, Any] = {
            "$set": {"snapshot": snapshot, "updated_at": now(), "pending_ledger": ledger or []},
            "$max": {"seq": seq},
        }
        if pending_record is not None:
            update["$set"]["pending_record"] = pending_record
        # On a cluster's node, fenced: refused once a later owner of the table wrote.
        saved = (
            UpdateOne({"_id": table_id}, update)
            if fence is None
            else fenced_update(table_id, fence, update)
        )
        # The table waits for it: it goes first.
        return self._writer.submit(self._col.name, saved, journal=True, urgent=True, stored=stored)

    async def set_options(self, table_id: str, options: Document) -> None:
        """The table's options changed (its invite, its host, its settings)."""
        await self._col.update_one({"_id": table_id}, {"$set": {"options": options}})

    async def set_access(self, table_id: str, access: Document) -> None:
        """Who the invite admitted and who waits for a seat (kept across restarts)."""
        await self._col.update_one({"_id": table_id}, {"$set": {"access": access}})

    async def set_config(self, table_id: str, config: Document) -> None:
        """The host changed the stakes (from the next hand)."""
        await self._col.update_one({"_id": table_id}, {"$set": {"config": config}})

    async def pending_ledger(self, table_id: str) -> list[Document]:
        doc = await self._col.find_one({"_id": table_id}, {"pending_ledger": 1})
        entries = doc.get("pending_ledger") if doc is not None else None
        return list(entries) if isinstance(entries, list) else []

    async def clear_pending(self, table_id: str, hand_no: int) -> None:
        await self._col.update_one(
            {"_id": table_id, "pending_record.hand_no": hand_no},
            {"$unset": {"pending_record": ""}},
        )


class Hands:
    def __init__(self, db: AsyncDatabase[Document], writer: BatchWriter) -> None:
        self._writer = writer
        self._col = db.hands
        self._live = db.live_hands
        self._voided = db.voided_hands
        self.stats = PlayerStats(db, writer)

    async def insert(self, record: HandRecord | Document) -> None:
        """File a finished hand (idempotent: a hand filed already is left as it is).

        An insert, not an upsert: the embedded database spends about 40% less on
        it, and a hand number is never given to two hands of a table.
        """
        doc = record_to_doc(record) if isinstance(record, HandRecord) else record
        played_at = doc.get("played_at")
        played = datetime.fromisoformat(played_at) if isinstance(played_at, str) else played_at
        played = played or now()
        filed = InsertOne(
            {
                "_id": hand_id(doc["table_id"], doc["hand_no"]),
                "table_id": doc["table_id"],
                "hand_no": doc["hand_no"],
                "played_at": played,
                "player_ids": [s["player_id"] for s in doc["seats"]],
                "record": doc,
            }
        )
        try:
            # Journaled: the next hand's record replaces the pending copy of this one,
            # so that waits for it (the filing lane: a deal never does).
            await self._writer.write(self._col.name, filed, journal=True, filing=True)
        except WriteError as error:
            # Filed already (a restart files its pending record again): only its
            # statistics may still be missing, and counting them again is harmless.
            if error.code != DUPLICATE_KEY:
                raise
        self.stats.file_later(doc, played)  # counted in the background: the table goes on

    async def add_show(self, table_id: str, hand_no: int, event: HandEvent) -> None:
        """A winner's cards shown after the hand was filed (idempotent: one SHOW a seat)."""
        await self._col.update_one(
            {
                "_id": hand_id(table_id, hand_no),
                "record.events": {"$not": {"$elemMatch": {"kind": "show", "seat": event.seat}}},
            },
            {"$push": {"record.events": event.model_dump(mode="json")}},
        )

    async def set_rabbit(self, table_id: str, hand_no: int, cards: tuple[str, ...]) -> None:
        """A rabbit hunt after the hand was filed: kept apart from its board (idempotent)."""
        await self._col.update_one(
            {"_id": hand_id(table_id, hand_no)}, {"$set": {"record.rabbit": list(cards)}}
        )

    async def get(self, hand_id_: str) -> Document | None:
        return await self._col.find_one({"_id": hand_id_})

    async def last_of(self, table_id: str) -> Document | None:
        """The table's last filed hand (the highest number: voided hands are not filed)."""
        return await self._col.find_one({"table_id": table_id}, sort=[("hand_no", DESCENDING)])

    async def for_player(
        self, player_id: str, limit: int, offset: int, table_id: str | None = None
    ) -> tuple[list[Document], int]:
        query: Document = {"player_ids": player_id}
        if table_id is not None:
            query["table_id"] = table_id
        total = await self._col.count_documents(query)
        cursor = self._col.find(query).sort("played_at", DESCENDING).skip(offset).limit(limit)
        return [doc async for doc in cursor], total

    async def for_export(
        self,
        player_id: str,
        table_id: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> AsyncIterator[Document]:
        """Every hand the player was dealt into, oldest first: a table's, a time range's
        (since inclusive, until exclusive), or all; read as it streams out."""
        query: Document = {"player_ids": player_id}
        if table_id is not None:
            query["table_id"] = table_id
        window: Document = {}
        if since is not None:
            window["$gte"] = since
        if until is not None:
            window["$lt"] = until
        if window:
            query["played_at"] = window
        async for doc in self._col.find(query).sort([("played_at", ASCENDING), ("_id", ASCENDING)]):
            yield doc

    # -- the hand in progress ------------------------------------------------

    def start_live(
        self,
        table_id: str,
        hand_no: int,
        button: int,
        stacks: dict[int, int],
        players: Document,
        fence: int | None = None,
        stored: Callable[[], None] | None = None,
    ) -> asyncio.Future[None]:
        """`stored`: called as soon as the write is known stored (BatchWriter.write).
        Queued in the caller's step (BatchWriter.submit): the future is its outcome."""
        fenced: Document = {} if fence is None else {"fence": fence}
        started = ReplaceOne(
            {"_id": table_id} if fence is None else fenced_filter(table_id, fence),
            {
                **fenced,
                "hand_no": hand_no,
                "button": button,
                "started_at": now(),
                "starting_stacks": {str(k): v for k, v in stacks.items()},
                "players": players,
                "events": [],
                "n": 0,  # events stored: a push sent again after a lost answer is a no-op
            },
            upsert=True,
        )
        # The deal waits for it: it goes first.
        return self._writer.submit(
            self._live.name, started, journal=True, urgent=True, stored=stored
        )

    async def push_live(
        self, table_id: str, hand_no: int, events: list[HandEvent], stored_before: int
    ) -> None:
        """Append `events`, which follow the first `stored_before` (idempotent)."""
        pushed = UpdateOne(
            {"_id": table_id, "hand_no": hand_no, "n": stored_before},
            {
                "$push": {"events": {"$each": [e.model_dump(mode="json") for e in events]}},
                "$inc": {"n": len(events)},
            },
        )
        await self._writer.write(self._live.name, pushed)

    async def end_live(self, table_id: str, hand_no: int) -> None:
        await self._live.delete_one({"_id": table_id, "hand_no": hand_no})

    async def get_live(self, table_id: str) -> Document | None:
        return await self._live.find_one({"_id": table_id})

    async def void_live(self, table_id: str) -> Document | None:
        """After a restart: move an unfinished hand to voided_hands (its chips were returned)."""
        doc = await self._live.find_one_and_delete({"_id": table_id})
        if doc is not None:
            doc["table_id"] = doc.pop("_id")
            doc["voided_at"] = now()
            await self._voided.insert_one(doc)
        return doc


class Ledger:
    """Chips entering and leaving tables; guests' buy-ins come from nowhere, but are kept."""

    def __init__(self, db: AsyncDatabase[Document], writer: BatchWriter) -> None:
        self._col = db.ledger
        self._writer = writer

    async def record(
        self,
        player_id: str,
        table_id: str,
        kind: str,
        amount: int,
        seat: int,
        *,
        entry_id: str | None = None,
    ) -> None:
        """One entry; with `entry_id`, sending it again stores it once."""
        entry: Document = {
            "player_id": player_id,
            "table_id": table_id,
            "kind": kind,
            "amount": amount,
            "seat": seat,
            "at": now(),
        }
        if entry_id is not None:
            entry["_id"] = entry_id
        try:
            await self._writer.write(self._col.name, InsertOne(entry))
        except WriteError as error:
            if entry_id is None or error.code != DUPLICATE_KEY:
                raise  # else stored already by an attempt whose answer was lost

    @staticmethod
    def entry(
        player_id: str, table_id: str, kind: str, amount: int, seat: int, entry_id: str
    ) -> Document:
        return {
            "_id": entry_id,
            "player_id": player_id,
            "table_id": table_id,
            "kind": kind,
            "amount": amount,
            "seat": seat,
            "at": now(),
        }

    async def file(self, entries: list[Document]) -> None:
        """Store entries that have their ids; one stored already is left as it is."""

        async def one(entry: Document) -> None:
            try:  # journaled: the next snapshot replaces the pending copy (and waits)
                await self._writer.write(
                    self._col.name, InsertOne(dict(entry)), journal=True, filing=True
                )
            except WriteError as error:
                if error.code != DUPLICATE_KEY:
                    raise

        await asyncio.gather(*(one(entry) for entry in entries))

    async def entries(self, table_id: str) -> list[Document]:
        return [doc async for doc in self._col.find({"table_id": table_id}).sort("at", 1)]


@dataclass(frozen=True)
class Repositories:
    players: Players
    tables: Tables
    hands: Hands
    ledger: Ledger
    writer: BatchWriter

    @classmethod
    def of(
        cls,
        db: AsyncDatabase[Document],
        blocking: Database[Document] | None = None,
        marker: str = "node",
    ) -> Repositories:
        """`blocking`: the same database through a synchronous client, for the writes
        a player waits for (BatchWriter). `marker`: this process's group-commit marker
        documents' prefix (a node's id: no two nodes journal the same document)."""
        writer = BatchWriter(db, blocking=blocking, marker=marker)
        return cls(Players(db), Tables(db, writer), Hands(db, writer), Ledger(db, writer), writer)
