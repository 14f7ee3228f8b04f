"""Fault-injection helpers: a real `showdown serve` process, its database, and a watcher.

The watcher is a spectator on a real WebSocket that records what players were
shown: every hand it saw dealt and every hand it saw finish, with the stacks.
The checks compare that with what the database holds after the faults.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from backend_testlib import TIMEOUT, WsClient
from pymongo import AsyncMongoClient

from backend.db.embedded import EmbeddedMongo
from showdown.benchmarks import faults
from showdown.benchmarks.faults import TableCheck, check_table

Message = dict[str, Any]
SILENT_SECONDS = 20.0
FAST = {"SHOWDOWN_HAND_PAUSE_MS": "0", "BOT_DELAY_MS": "0", "BOTS_PLAY_ALONE": "true"}


class ServeProcess:
    """`showdown serve --no-worker` on `port` with `data_dir`; stderr goes to `log`."""

    def __init__(self, data_dir: Path, port: int, log: Path, **env: str) -> None:
        self.data_dir, self.port, self.log, self.env = data_dir, port, log, env
        self.process: asyncio.subprocess.Process | None = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws(self, path: str) -> str:
        return f"ws://127.0.0.1:{self.port}{path}"

    async def start(self) -> ServeProcess:
        env = {k: v for k, v in os.environ.items() if k not in ("MONGODB_URL", "SECRET_KEY")}
        env.update({"SHOWDOWN_DB_TEST_COMMANDS": "1", **self.env})
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "showdown.cli",
            "serve",
            "--port",
            str(self.port),
            "--data-dir",
            str(self.data_dir),
            "--no-worker",
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=self.log.open("ab"),
        )
        assert self.process.stdout is not None
        async with asyncio.timeout(60):
            while True:  # the URL is printed once the server accepts connections
                line = (await self.process.stdout.readline()).decode()
                if not line:
                    code = await self.process.wait()
                    tail = self.log.read_text(encoding="utf-8", errors="replace")[-4000:]
                    raise AssertionError(f"showdown serve exited ({code}); its log ends:\n{tail}")
                if "running at" in line:
                    return self

    async def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        await asyncio.wait_for(self.process.wait(), TIMEOUT)

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.terminate()
            await asyncio.wait_for(self.process.wait(), 30)

    # -- its embedded database ------------------------------------------------------

    @property
    def database_pid(self) -> int:
        return int((self.data_dir / "mongo" / "secantusd.pid").read_text())

    def database_url(self) -> str:
        """Where the embedded database listens (from serve's log), with its credentials."""
        port = None
        for line in self.log.read_text(encoding="utf-8").splitlines():
            if '"starting embedded database"' in line:
                port = json.loads(line)["url"].rsplit(":", 1)[1]
        assert port is not None, "no embedded database in the log"
        password = json.loads((self.data_dir / "mongo" / "credentials.json").read_text())[
            "password"
        ]
        return f"mongodb://showdown:{password}@127.0.0.1:{port}/?authSource=admin"

    @asynccontextmanager
    async def mongo(self) -> AsyncIterator[AsyncMongoClient[Message]]:
        client: AsyncMongoClient[Message] = AsyncMongoClient(
            self.database_url(), serverSelectionTimeoutMS=20000
        )
        try:
            yield client
        finally:
            await client.close()

    async def kill_database(self) -> int:
        """SIGKILL the embedded database; returns the pid it had."""
        pid = self.database_pid
        os.kill(pid, signal.SIGKILL)
        return pid

    async def wait_database_restarted(self, old_pid: int) -> None:
        """Until serve has started a new database process and it answers."""
        async with asyncio.timeout(60), httpx.AsyncClient(base_url=self.http) as http:
            while True:
                ready = await http.get("/readyz")
                if ready.status_code == 200 and self.database_pid != old_pid:
                    return
                await asyncio.sleep(0.1)  # polling a process restart: no event to wait on


@dataclass
class Seen(faults.Seen):
    """What the watcher was shown: deals and finished hands, notices, the last view."""

    notices: list[Message] = field(default_factory=list)
    last_view: Message | None = None


class Watcher:
    """A spectator that records every deal and every finished hand it is shown."""

    def __init__(self, serve: ServeProcess, table_id: str, token: str) -> None:
        self.serve, self.table_id, self.token = serve, table_id, token
        self.seen = Seen()
        self.changed = asyncio.Condition()
        self._stopping = False
        self._task: asyncio.Task[None] | None = None

    def start(self) -> Watcher:
        self._task = asyncio.create_task(self._run())
        return self

    async def _run(self) -> None:
        # Reconnect whenever the server goes away, until stopped (not until cancelled:
        # Python 3.11's wait_for can turn a cancellation into the TimeoutError caught here).
        while not self._stopping:
            try:
                client = await WsClient.connect(self.serve.ws(f"/ws/tables/{self.table_id}"))
            except Exception:  # refused, or a handshake a starting server fails
                await asyncio.sleep(0.1)  # the server is restarting: try again shortly
                continue
            try:
                await client.send({"type": "auth", "token": self.token})  # never in the URL
                # Until stopped, here too: a cancellation 3.11's wait_for swallowed would
                # leave it reading a busy table until stop()'s bound (15 s) ran out.
                while not self._stopping:
                    # A socket silent this long while bots deal with no pause, or a
                    # message not recorded within it, is reconnected, as a browser's
                    # stall detection would (asyncio.timeout: wait_for's race in 3.11).
                    async with asyncio.timeout(SILENT_SECONDS):
                        message = await client._next(SILENT_SECONDS)
                        await self._record(message)
            except Exception:
                await asyncio.sleep(0.1)  # the server is restarting: reconnect shortly
            finally:
                with contextlib.suppress(Exception):
                    async with asyncio.timeout(5):
                        await client.close()

    async def _record(self, message: Message) -> None:
        seen = self.seen
        if message.get("type") == "notice":
            seen.notices.append(message)
        elif faults.record(seen, message):
            seen.last_view = message["view"]
        else:
            return
        async with self.changed:
            self.changed.notify_all()

    async def wait(self, predicate: Any, within: float = 60.0) -> None:
        async with asyncio.timeout(within), self.changed:
            await self.changed.wait_for(lambda: predicate(self.seen))

    async def wait_hands(self, count: int, within: float = 60.0) -> int:
        """Until `count` more hands were seen finished; returns the last hand number."""
        target = len(self.seen.finished) + count
        await self.wait(lambda s: len(s.finished) >= target, within)
        return max(self.seen.finished)

    async def stop(self) -> None:
        self._stopping = True
        if self._task is not None:
            self._task.cancel()
            # Bounded: a test's teardown must never hang on its watcher.
            await asyncio.wait({self._task}, timeout=15)


async def bot_table(serve: ServeProcess, bots: int = 4) -> tuple[str, str]:
    """A table of bots that deals by itself; returns (table_id, a spectator's token)."""
    async with httpx.AsyncClient(base_url=serve.http) as http:
        login = (await http.post("/api/auth/guest", json={"name": "Watcher"})).json()
        auth = {"Authorization": f"Bearer {login['token']}"}
        table = (
            await http.post(
                "/api/tables",
                json={"seats": bots + 1, "bots": bots, "small_blind": 5, "big_blind": 10},
                headers=auth,
            )
        ).json()
    return table["table_id"], login["token"]


@asynccontextmanager
async def stopped_database(serve: ServeProcess) -> AsyncIterator[AsyncMongoClient[Message]]:
    """The stopped server's database, started on its own as the next `showdown serve`
    would find it. A start takes about 2 s: check every table in one."""
    assert serve.process is not None and serve.process.returncode is not None
    database = await asyncio.to_thread(EmbeddedMongo(serve.data_dir / "mongo").start)
    client: AsyncMongoClient[Message] = AsyncMongoClient(database.url)
    try:
        yield client
    finally:
        await client.close()
        await asyncio.to_thread(database.close)


async def check_stored(client: AsyncMongoClient[Message], table_id: str, seen: Seen) -> TableCheck:
    """check_invariants on a stopped server's database already started (stopped_database)."""
    check = await check_table(client.showdown, table_id, seen)
    assert not check.problems, check.problems
    assert check.chips > 0 and check.chips_lost == 0
    return check


async def check_invariants(serve: ServeProcess, table_id: str, seen: Seen) -> TableCheck:
    """Chips conserved, every hand seen finished stored as seen, no hand number dealt twice.

    Run on the stored data once serve has stopped (however): the database is started
    on its own for the check, as the next `showdown serve` would find it. The checks
    are `showdown bench faults`' own.
    """
    async with stopped_database(serve) as client:
        return await check_stored(client, table_id, seen)
