"""Backend fixtures: one real secantusd-py for the session, a fresh database per test."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import pytest
from backend_testlib import AI_SECRET, RunningServer

from backend.db.embedded import EmbeddedMongo
from backend.settings import Settings


@pytest.fixture(scope="session")
def mongo_url() -> Iterator[str]:
    with EmbeddedMongo(None, test_commands=True) as db:
        yield db.url


@pytest.fixture
def make_settings(mongo_url: str) -> Callable[..., Settings]:
    database = "t" + uuid.uuid4().hex[:12]

    def make(**overrides: Any) -> Settings:
        values: dict[str, Any] = {
            "mongodb_url": mongo_url,
            "mongodb_db": database,
            "secret_key": "test-secret-key-with-enough-bytes-for-hs256",
            "ai_shared_secret": AI_SECRET,
            "action_timeout": 10.0,
            "time_bank": 0.0,
            "hand_pause_ms": 0,
            "bot_delay_ms": 0,
            "ai_deadline_ms": 2000,
            "disconnect_grace": 30.0,
            "frontend_dir": None,
            "log_format": "text",
        }
        values.update(overrides)
        return Settings(**values)

    return make


@pytest.fixture
async def server_factory(
    make_settings: Callable[..., Settings],
) -> AsyncIterator[Callable[..., Any]]:
    started: list[RunningServer] = []

    async def start(**overrides: Any) -> RunningServer:
        server = await RunningServer(make_settings(**overrides)).start()
        started.append(server)
        return server

    yield start
    for server in reversed(started):
        await server.stop()


@pytest.fixture
async def server(server_factory: Callable[..., Any]) -> RunningServer:
    running: RunningServer = await server_factory()
    return running
