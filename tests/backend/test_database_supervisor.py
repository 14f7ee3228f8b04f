"""`showdown serve` starts its embedded database again however the last start failed.

The fault bench found the room down for good after a database kill: killed just
after it listened, while the restart was signing in, the database made that step
raise a pymongo error, which the supervisor did not expect. Its task ended there,
silently, and nothing started the database again.
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest
from pymongo import MongoClient

from backend.db.embedded import EmbeddedDatabaseError, EmbeddedMongo
from backend.serve import _supervise_database

pytestmark = pytest.mark.slow


def kill_next_when_listening(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """From now on, the next database launched is SIGKILLed the moment it listens:
    before the start that launched it has signed in. Returns the pids killed."""
    killed: list[int] = []
    listening = EmbeddedMongo._wait_until_listening

    def then_killed(self: EmbeddedMongo) -> None:
        listening(self)
        if not killed and self.process is not None:
            killed.append(self.process.pid)
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait()

    monkeypatch.setattr(EmbeddedMongo, "_wait_until_listening", then_killed)
    return killed


def _answers(database: EmbeddedMongo) -> bool:
    client: MongoClient[dict[str, object]]
    with MongoClient(database.url, serverSelectionTimeoutMS=10000) as client:
        return bool(client.admin.command("ping")["ok"])


def test_a_database_killed_while_its_start_signs_in_is_a_failed_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = EmbeddedMongo(tmp_path / "mongo", auth=True)
    database.start()  # provisioned and signed in: the credentials exist from here
    database.stop()
    killed = kill_next_when_listening(monkeypatch)
    with pytest.raises(EmbeddedDatabaseError, match="stopped answering"):
        database.start()
    assert killed
    assert database.process is None  # nothing left half-started
    with database:  # and the next start is a normal one
        assert _answers(database)


def test_the_supervisor_restarts_the_database_after_a_start_that_failed_signing_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        database = EmbeddedMongo(tmp_path / "mongo", auth=True).start()
        supervisor = asyncio.create_task(_supervise_database(database))
        try:
            assert database.process is not None
            killed = kill_next_when_listening(monkeypatch)
            os.kill(database.process.pid, signal.SIGKILL)  # the crash
            async with asyncio.timeout(60):
                while database.restarts == 0:
                    assert not supervisor.done(), supervisor
                    await asyncio.sleep(0.05)  # polling another thread's restart
            assert killed, "the restart's first start was not the one killed"
            assert await asyncio.to_thread(_answers, database)
        finally:
            supervisor.cancel()
            await asyncio.gather(supervisor, return_exceptions=True)
            database.close()

    asyncio.run(scenario())
