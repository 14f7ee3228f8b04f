"""`showdown bench ai-relay`: what a decision query relayed over the bus costs (docs/cluster.md).

Starts `showdown serve --nodes 2 --no-worker` (embedded database, nats-server, two
nodes) and one AI worker on n0's `/ws/ai` (this process, answering each query at
once: check or call, so the figure is the path's, not a search's). Two tables of
two bots (and a free seat) play at the same time, one on each node: n0's bots ask
the worker directly (the anchor); n1 has no worker, so its queries cross the bus
to n0 (`ai.decide`) and the decisions come back. A spectator on each table's owner
times each bot decision: from the state that gives a bot the turn to the state
with its action. Both tables run under the same load, interleaved, so the
difference is the relay's cost.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import secrets
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.asyncio.client import ClientConnection

NODE_LINE = re.compile(r"node (n\d+) \(pid (\d+)\) is running at (\S+)")
DECISIONS = 400  # timed bot decisions per table
WARM_UP = 40
SECRET = secrets.token_urlsafe(16)  # the nodes' and the worker's, for this run


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _worker(url: str, asked: dict[str, int]) -> None:
    """An AI worker answering every query at once with check or call."""
    async with websockets.connect(url, open_timeout=30, max_size=1 << 22) as ws:
        await ws.send(
            json.dumps({"type": "hello", "secret": SECRET, "name": "bench", "capacity": 8})
        )
        async for text in ws:
            message = json.loads(text)
            if message.get("type") != "query":
                continue
            legal = message["legal"]
            action = "check" if legal["can_check"] else "call"
            answer = {"type": "decision", "request_id": message["request_id"], "action": action}
            await ws.send(json.dumps(answer))
            asked[message["table_id"]] = asked.get(message["table_id"], 0) + 1


async def _spectate(ws: ClientConnection, decisions: int) -> list[float]:
    """Milliseconds from each state giving a bot the turn to the next state."""
    times: list[float] = []
    turn_at: float | None = None
    skipped = 0
    while len(times) < decisions:
        message: dict[str, Any] = json.loads(await ws.recv())
        if message.get("type") != "state":
            continue
        now = time.perf_counter()
        if turn_at is not None:
            if skipped < WARM_UP:
                skipped += 1
            else:
                times.append((now - turn_at) * 1000)
        view = message["view"]
        turn_at = now if view["hand_in_progress"] and view["actor"] is not None else None
    return times


async def _start(data: str, port: int) -> tuple[asyncio.subprocess.Process, dict[str, str]]:
    env = {k: v for k, v in os.environ.items() if k not in ("MONGODB_URL", "NATS_URL")}
    env.update(
        LOG_LEVEL="WARNING",
        AI_SHARED_SECRET=SECRET,
        BOTS_PLAY_ALONE="true",
        BOT_DELAY_MS="0",
        SHOWDOWN_HAND_PAUSE_MS="0",
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "showdown.cli", "serve", "--nodes", "2", "--port", str(port),
        "--data-dir", str(Path(data) / "data"), "--no-worker",
        env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    assert process.stdout is not None
    urls: dict[str, str] = {}
    async with asyncio.timeout(120):
        while True:
            line = (await process.stdout.readline()).decode()
            if not line:
                raise RuntimeError("showdown serve --nodes 2 exited")
            if found := NODE_LINE.search(line):
                urls[found[1]] = found[3].rstrip("/")
            elif line.startswith("Showdown ("):
                return process, urls


async def _ready(http: httpx.AsyncClient) -> None:
    """Until the node hears the other node and its worker on the bus."""
    while True:
        cluster = (await http.get("/readyz")).json().get("cluster", {})
        if len(cluster.get("nodes", {})) == 2 and cluster.get("workers_elsewhere", 0):
            return
        await asyncio.sleep(0.1)  # polling the node's view: no event to wait on


async def _measure(decisions: int, port: int) -> int:
    with tempfile.TemporaryDirectory() as data:
        process, urls = await _start(data, port)
        asked: dict[str, int] = {}
        worker: asyncio.Task[None] | None = None
        try:
            ws_of = {n: u.replace("http://", "ws://") for n, u in urls.items()}
            worker = asyncio.create_task(_worker(ws_of["n0"] + "/ws/ai", asked))
            async with httpx.AsyncClient(base_url=urls["n1"], timeout=30) as n1:
                async with asyncio.timeout(60):
                    await _ready(n1)
                async with httpx.AsyncClient(base_url=urls["n0"], timeout=30) as n0:
                    login = (await n0.post("/api/auth/guest", json={"name": "Bench"})).json()
                    auth = {"Authorization": f"Bearer {login['token']}"}
                    body = {"seats": 3, "bots": 2, "small_blind": 5, "big_blind": 10}
                    local = (await n0.post("/api/tables", json=body, headers=auth)).json()
                    remote = (await n0.post("/api/tables", json=body, headers=auth)).json()
                sockets = []
                for node, table in (("n0", local), ("n1", remote)):
                    url = ws_of[node] + f"/ws/tables/{table['table_id']}"
                    ws = await websockets.connect(url, open_timeout=30, max_size=1 << 22)
                    await ws.send(json.dumps({"type": "auth", "token": login["token"]}))
                    sockets.append(ws)
                local_ms, remote_ms = await asyncio.gather(
                    *(_spectate(ws, decisions) for ws in sockets)
                )
                for ws in sockets:
                    await ws.close()
                ai = (await n1.get("/readyz")).json()["ai"]
        finally:
            if worker is not None:
                worker.cancel()
                await asyncio.gather(worker, return_exceptions=True)
            process.terminate()
            await process.wait()
    print(f"bot decision (turn shown -> action shown), {decisions} per table, both at once:")
    for name, times in (
        ("worker on the owner (anchor)", local_ms),
        ("relayed over NATS", remote_ms),
    ):
        print(
            f"  {name:29} p50 {_percentile(times, 0.5):6.2f} ms   "
            f"p90 {_percentile(times, 0.9):6.2f} ms   p99 {_percentile(times, 0.99):6.2f} ms"
        )
    extra = _percentile(remote_ms, 0.5) - _percentile(local_ms, 0.5)
    print(f"  the relay adds {extra:.2f} ms at p50")
    print(
        f"  queries the worker answered: n0's table {asked.get(local['table_id'], 0)}, "
        f"n1's table {asked.get(remote['table_id'], 0)}; n1: relayed {ai.get('relayed', 0)}, "
        f"fallbacks {ai.get('fallbacks', 0)}"
    )
    return 0


def run(args: argparse.Namespace) -> int:
    return asyncio.run(_measure(DECISIONS, 0))  # port 0: each node on a free port
