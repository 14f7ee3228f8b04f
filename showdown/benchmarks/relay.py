"""`showdown bench relay`: what crossing the bus costs a command (docs/cluster.md).

Starts `showdown serve --nodes 2` (embedded database, nats-server, two nodes),
creates a table on each node, and times `ping` -> `pong` round trips at one
table: from a socket on its owner (the anchor), and from a socket on the other
node, whose command goes to the owner over NATS and whose answer comes back the
same way. A ping goes through the table's inbox like any command, so the
difference is the relay's cost on the table's path, both ways.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path

import httpx
import websockets

NODE_LINE = re.compile(r"node (n\d+) \(pid (\d+)\) is running at (\S+)")
ROUNDS = 400


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _round_trips(url: str, token: str, rounds: int) -> list[float]:
    async with websockets.connect(url, open_timeout=30) as ws:
        await ws.send(json.dumps({"type": "auth", "token": token}))
        while json.loads(await ws.recv()).get("type") != "state":
            pass
        times: list[float] = []
        for n in range(rounds):
            started = time.perf_counter()
            await ws.send(json.dumps({"type": "ping", "ref": f"p{n}"}))
            while json.loads(await ws.recv()).get("ref") != f"p{n}":
                pass
            times.append((time.perf_counter() - started) * 1000)
        return times


async def _measure(rounds: int, port: int) -> int:
    with tempfile.TemporaryDirectory() as data:
        env = {k: v for k, v in os.environ.items() if k not in ("MONGODB_URL", "NATS_URL")}
        env["LOG_LEVEL"] = "WARNING"
        # Sequential pings as fast as they come back: over a client's rate limit.
        env["MESSAGES_PER_SECOND"] = env["MESSAGE_BURST"] = "100000"
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "showdown.cli", "serve", "--nodes", "2", "--port", str(port),
            "--data-dir", str(Path(data) / "data"), "--no-worker",
            env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
        )  # fmt: skip
        assert process.stdout is not None
        urls: dict[str, str] = {}
        try:
            async with asyncio.timeout(120):
                while True:
                    line = (await process.stdout.readline()).decode()
                    if not line:
                        print("showdown serve --nodes 2 exited", flush=True)
                        return 1
                    if found := NODE_LINE.search(line):
                        urls[found[1]] = found[3].rstrip("/")
                    elif line.startswith("Showdown ("):
                        break
            async with httpx.AsyncClient(base_url=urls["n0"], timeout=30) as http:
                while True:  # n0 must hear n1 before it places a table there
                    ready = (await http.get("/readyz")).json()
                    if len(ready.get("cluster", {}).get("nodes", {})) == 2:
                        break
                    await asyncio.sleep(0.1)  # polling the node's view: no event to wait on
                login = (await http.post("/api/auth/guest", json={"name": "Bench"})).json()
                auth = {"Authorization": f"Bearer {login['token']}"}
                body = {"seats": 6}
                await http.post("/api/tables", json=body, headers=auth)  # n0's
                table = (await http.post("/api/tables", json=body, headers=auth)).json()  # n1's
            path = f"/ws/tables/{table['table_id']}"
            owner = urls["n1"].replace("http://", "ws://") + path
            relayed = urls["n0"].replace("http://", "ws://") + path
            await _round_trips(owner, login["token"], 50)  # warm up both paths
            await _round_trips(relayed, login["token"], 50)
            local = await _round_trips(owner, login["token"], rounds)
            remote = await _round_trips(relayed, login["token"], rounds)
        finally:
            process.terminate()
            await process.wait()
    print(f"ping -> pong at one table, {rounds} sequential round trips each:")
    for name, times in (("on the owner (anchor)", local), ("relayed over NATS", remote)):
        print(
            f"  {name:24} p50 {_percentile(times, 0.5):6.2f} ms   "
            f"p99 {_percentile(times, 0.99):6.2f} ms"
        )
    extra = _percentile(remote, 0.5) - _percentile(local, 0.5)
    print(f"  the relay adds {extra:.2f} ms at p50 (both ways across the bus)")
    return 0


def run(args: argparse.Namespace) -> int:
    return asyncio.run(_measure(ROUNDS, 0))  # port 0: each node on a free port
