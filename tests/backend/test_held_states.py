"""A change shown only once stored (a deal, a hand's end, a seat change) is sent in the
step the database writer learns it is stored, not when the table's task next runs: on
a busy server each hop of a task waits for a whole turn of the event loop, every
table's ready work. On the real embedded database, with the writer's threads."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator, Callable

import pytest
from pymongo import AsyncMongoClient, MongoClient
from pymongo.asynchronous.database import AsyncDatabase
from starlette.websockets import WebSocketState

from backend.ai_gateway import AIGateway
from backend.db.codec import Document
from backend.db.repositories import Repositories
from backend.realtime.inbox import Client, Command, Join
from backend.realtime.outbox import Outbox
from backend.realtime.runtime import TableRuntime
from backend.schemas import TableOptions
from backend.settings import Settings
from holdem.config import TableConfig, Variant
from holdem.table import Table
from protocol.messages import SitCommand


class RecordingSocket:
    """The network boundary: every send completes at once and is kept."""

    def __init__(self) -> None:
        self.client_state = WebSocketState.CONNECTED
        self.sent: list[str] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(text)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.client_state = WebSocketState.DISCONNECTED


@pytest.fixture
async def db(mongo_url: str) -> AsyncIterator[AsyncDatabase[Document]]:
    client: AsyncMongoClient[Document] = AsyncMongoClient(mongo_url)
    name = "hs" + uuid.uuid4().hex[:12]
    yield client[name]
    await client.drop_database(name)
    await client.close()


def _client(player_id: str) -> tuple[Client, RecordingSocket]:
    socket = RecordingSocket()
    outbox = Outbox(socket, 16, player_id)  # type: ignore[arg-type]
    return Client(player_id, player_id.upper(), outbox), socket


def _seat_changes(sent: list[str]) -> list[int]:
    """The sequence numbers of the states sent for a seat taken."""
    messages = [json.loads(text) for text in sent]
    return [
        m["seq"]
        for m in messages
        if m["type"] == "state" and (m.get("cause") or {}).get("kind") == "sit"
    ]


async def test_a_seat_change_is_sent_in_the_step_its_write_is_confirmed(
    mongo_url: str, db: AsyncDatabase[Document], make_settings: Callable[..., Settings]
) -> None:
    sync: MongoClient[Document] = MongoClient(mongo_url)
    repos = Repositories.of(db, sync[db.name])
    config = TableConfig(variant=Variant.NO_LIMIT, seats=2, small_blind=1, big_blind=2)
    runtime = TableRuntime(
        Table("t1", config, seed=3),
        TableOptions(name="held", action_timeout=30, time_bank=0),
        settings=make_settings(),
        repos=repos,
        gateway=AIGateway("secret", 16),
        seq=0,
    )
    watcher, watched = _client("watcher")
    player, _ = _client("player")
    try:
        runtime.start()
        runtime.post(Join(watcher, None))
        runtime.post(Join(player, None))
        runtime.post(Command(player, SitCommand(seat=1, buy_in=100)))
        # Each pass is one turn of the loop: the table takes the seat in one of them and
        # queues the snapshot, a durable write; its state is held until stored.
        for _ in range(1000):
            if runtime.persister.unconfirmed() is not None:
                break
            await asyncio.sleep(0)
        assert runtime.persister.unconfirmed() is not None
        assert _seat_changes(watched.sent) == []
        seen: list[list[int]] = []
        # Called after the table's own call in the writer's step: nothing between them.
        assert runtime.persister.on_stored(lambda: seen.append(_seat_changes(watched.sent)))
        await runtime.persister.wait_durable()
        assert len(seen) == 1 and len(seen[0]) == 1  # sent in that very step
        assert _seat_changes(watched.sent) == seen[0]  # and not again by the table's task
        assert not runtime.persister.on_stored(lambda: None)  # stored: nothing to wait for
    finally:
        await runtime.stop()
        await repos.writer.close()
        sync.close()
