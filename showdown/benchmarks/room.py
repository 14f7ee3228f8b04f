"""A room for the cluster benches: `showdown serve` alone, or `serve --nodes N`, on a database
the bench starts itself (so it can read the table leases and count the database's CPU).

Both run as real processes, started as a user would: `serve` (one process, no bus)
or `serve --nodes N` (the launcher, nats-server and N node processes). The
database is the embedded one (`EmbeddedMongo`), handed to either by MONGODB_URL.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from backend.db.embedded import EmbeddedMongo, free_port

NODE_LINE = re.compile(r"node (n\d+) \(pid (\d+)\) is running at (\S+)")
BUS_LINE = re.compile(r"Showdown \(\d+ nodes, bus (\S+)\)")
SINGLE = "serve"  # the node name of the one process of plain `serve`
START_WITHIN = 180.0  # N nodes import and open the database together on a shared host
# What the parent's environment must not hand down: the room sets its own.
DROP = ("MONGODB_URL", "SECRET_KEY", "NATS_URL", "NODE_ID", "SHOWDOWN_DB_TEST_COMMANDS")


@dataclass
class Room:
    """The processes of one room and the URL of each node (one, `serve`, when not a cluster)."""

    data_dir: Path
    nodes: int  # 0: plain `serve`, one process and no bus
    env: dict[str, str]
    log: Path
    database: EmbeddedMongo | None = None
    process: asyncio.subprocess.Process | None = None
    urls: dict[str, str] = field(default_factory=dict)
    pids: dict[str, int] = field(default_factory=dict)
    bus_url: str = ""
    _drain: asyncio.Task[None] | None = None

    @property
    def roots(self) -> list[int]:
        """The processes whose trees are the server's cost: serve or the launcher, and the db."""
        roots = [self.process.pid] if self.process is not None else []
        if self.database is not None and self.database.process is not None:
            roots.append(self.database.process.pid)
        return roots

    @property
    def database_url(self) -> str:
        assert self.database is not None
        return self.database.url

    def base_env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in DROP}
        env.update(self.env)
        env["MONGODB_URL"] = self.database_url
        return env

    async def start(self) -> Room:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.database = await asyncio.to_thread(EmbeddedMongo(self.data_dir / "mongo").start)
        command = [sys.executable, "-m", "showdown.cli", "serve", "--no-worker"]
        command += ["--data-dir", str(self.data_dir / "serve")]
        if self.nodes:
            command += ["--nodes", str(self.nodes), "--port", "0"]
        else:
            command += ["--port", str(free_port())]
        with self.log.open("ab") as log:
            self.process = await asyncio.create_subprocess_exec(
                *command,
                env=self.base_env(),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=log,
            )
        stdout = self.process.stdout
        assert stdout is not None
        async with asyncio.timeout(START_WITHIN):
            while True:
                line = (await stdout.readline()).decode()
                if not line:
                    raise RuntimeError(f"showdown serve exited during start-up; see {self.log}")
                if found := NODE_LINE.search(line):
                    self.urls[found[1]] = found[3].rstrip("/")
                    self.pids[found[1]] = int(found[2])
                elif found := BUS_LINE.search(line):
                    self.bus_url = found[1]
                    break
                elif not self.nodes and "running at" in line:
                    self.urls[SINGLE] = line.rsplit(" ", 1)[1].strip().rstrip("/")
                    self.pids[SINGLE] = self.process.pid
                    break
        # What the nodes print later must not fill the pipe and stall the launcher.
        self._drain = asyncio.create_task(_discard(stdout))
        await self.wait_for_each_other()
        return self

    async def wait_for_each_other(self, within: float = 60.0) -> None:
        """Until every node hears all the others on the bus (placement needs their loads)."""
        if not self.nodes:
            return
        live = set(self.urls)
        async with httpx.AsyncClient(timeout=10) as http, asyncio.timeout(within):
            for url in self.urls.values():
                while True:
                    ready = (await http.get(f"{url}/readyz")).json()
                    if set(ready.get("cluster", {}).get("nodes", {})) >= live:
                        break
                    await asyncio.sleep(0.1)  # polling the node's view: no event to wait on

    async def owners(self, table_ids: list[str]) -> dict[str, str]:
        """Each table's owner node, from the leases (every table is `serve`'s when alone)."""
        if not self.nodes:
            return dict.fromkeys(table_ids, SINGLE)
        from pymongo import AsyncMongoClient

        client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(self.database_url)
        try:
            leases = client.showdown.table_leases.find({"_id": {"$in": table_ids}})
            return {str(lease["_id"]): str(lease["owner"]) async for lease in leases}
        finally:
            await client.close()

    def signal(self, node: str, sig: int) -> None:
        os.kill(self.pids[node], sig)

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.terminate()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.process.wait(), 60)
            if self.process.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    self.process.send_signal(signal.SIGKILL)
                await self.process.wait()
        if self._drain is not None:
            self._drain.cancel()
            await asyncio.gather(self._drain, return_exceptions=True)
        if self.database is not None:
            await asyncio.to_thread(self.database.close)


async def _discard(stream: asyncio.StreamReader) -> None:
    while await stream.readline():
        pass
