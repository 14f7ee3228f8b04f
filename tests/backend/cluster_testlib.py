"""A real `showdown serve --nodes N`: the processes, their URLs and pids, and waits on them."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path
from typing import Any

import httpx
from backend_testlib import TIMEOUT, WsClient

Message = dict[str, Any]
# A cluster's settings for tests: no pause between hands, bots at once, short leases.
FAST = {
    "SHOWDOWN_HAND_PAUSE_MS": "0",
    "BOT_DELAY_MS": "0",
    "ACTION_TIMEOUT": "60",
    "LEASE_TTL": "2",
    "LOG_FORMAT": "text",
}
NODE_LINE = re.compile(r"node (n\d+) \(pid (\d+)\) is running at (\S+)")


class Cluster:
    """`showdown serve --nodes N --no-worker`, each node on a free port below the ephemeral
    range (`--port 0`: consecutive ports probed from that range were taken by the nodes'
    own outgoing connections before the next node bound them); stderr goes to `log`."""

    def __init__(self, data_dir: Path, log: Path, nodes: int, **env: str) -> None:
        self.data_dir, self.log, self.nodes, self.env = data_dir, log, nodes, env
        self.process: asyncio.subprocess.Process | None = None
        self.urls: dict[str, str] = {}
        self.pids: dict[str, int] = {}

    async def start(self) -> Cluster:
        drop = ("MONGODB_URL", "SECRET_KEY", "NATS_URL", "NODE_ID")
        env = {k: v for k, v in os.environ.items() if k not in drop}
        env.update(self.env)
        command = [sys.executable, "-m", "showdown.cli", "serve", "--nodes", str(self.nodes)]
        command += ["--port", "0", "--data-dir", str(self.data_dir)]
        self.process = await asyncio.create_subprocess_exec(
            *command, "--no-worker", env=env, stdout=asyncio.subprocess.PIPE,
            stderr=self.log.open("ab"),
        )  # fmt: skip
        assert self.process.stdout is not None
        async with asyncio.timeout(90):
            while True:  # each node's line, then the cluster's once all run
                line = (await self.process.stdout.readline()).decode()
                if not line:
                    tail = self.log.read_text(encoding="utf-8", errors="replace")[-4000:]
                    raise AssertionError(f"serve --nodes exited; its log ends:\n{tail}")
                found = NODE_LINE.search(line)
                if found:
                    self.pids[found[1]] = int(found[2])
                    self.urls[found[1]] = found[3].rstrip("/")
                elif line.startswith("Showdown ("):
                    break
        for node in self.urls:
            await self.wait_ready(node, self.nodes)
        return self

    def ws(self, node: str, path: str) -> str:
        return self.urls[node].replace("http://", "ws://") + path

    async def readyz(self, node: str) -> Message:
        async with httpx.AsyncClient(base_url=self.urls[node]) as http:
            body: Message = (await http.get("/readyz")).json()
            return body

    async def wait_ready(self, node: str, nodes: int) -> None:
        """Until the node hears `nodes` live nodes (itself included) on the bus."""
        async with asyncio.timeout(30):
            while len((await self.readyz(node)).get("cluster", {}).get("nodes", {})) != nodes:  # noqa: ASYNC110
                await asyncio.sleep(0.1)  # polling the node's view: it has no event to wait on

    async def tables_of(self, node: str) -> set[str]:
        """The tables the node owns (its lobby lists the whole cluster's)."""
        return set((await self.readyz(node))["cluster"]["owns"])

    def kill(self, node: str) -> None:
        os.kill(self.pids[node], signal.SIGKILL)

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.terminate()
            await asyncio.wait_for(self.process.wait(), 60)


async def reconnect(url: str, token: str, within: float = 30.0) -> WsClient:
    """Connect until the table answers with a welcome (a table between owners closes the
    socket with "try again", as for a browser, which reconnects by itself)."""
    async with asyncio.timeout(within):
        while True:
            client = await WsClient.connect(url)
            await client.send({"type": "auth", "token": token})
            try:
                await client.wait_type("welcome", within=TIMEOUT)
                return client
            except Exception:  # closed: the table has no owner yet
                await client.close()
                await asyncio.sleep(0.1)  # back-off before reconnecting, as a browser's
