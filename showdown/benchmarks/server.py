"""The server under load: N tables of fast bots and M spectator clients over loopback.

Starts `showdown serve` (embedded database, no AI worker: the built-in fallback
policy plays the bots) in a child process, creates the tables, connects the
spectators and measures for a fixed time:

- hands/s over all tables,
- messages/s received by the spectators,
- action-to-broadcast latency: from the moment the server applied a change
  (the state's `at`) to the moment a spectator received it, p50 and p99, and
  apart for the states shown at once (an action within a hand) and those held
  until the database stored them (a deal, a hand's end, a seat change): the
  first measure the server's own queueing, the second the durable write too;
- states a spectator never received (sequence gaps) and spectators that
  received nothing, so a fast figure cannot hide lost or stalled sockets;
- the server's own event-loop lag (from /api/stats), which separates time lost
  in the server from time lost in the kernel or in this client;
- CPU used while measuring by the server, its database and this client (Linux
  /proc), and the server's CPU per hand: the figure that shows a change made the
  server cheaper even when the latency moves with the host's load.

The client is measurement, not the thing measured: it runs on uvloop and keeps
its garbage collector off while measuring, so its own pauses add little.

Figures are printed, not asserted. Optional attributes on `args`: tables (100),
clients (500), bot_delay_ms (50), hand_pause_ms (200), seconds (from `bench`),
profile (a path: the server's CPU sampled over the measurement window, see
`showdown.benchmarks.cpu_sampler`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import re
import signal
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_AT = re.compile(rb'"at":([0-9.]+)')
_SEQ = re.compile(rb'"seq":([0-9]+)')
# Only an action within a hand is shown before it is stored (docs/protocol.md,
# "When the database cannot store changes"): every other change is held for it.
_ACT = b'"cause":{"kind":"act"'
_LIVE = b'"hand_in_progress":true'


def held_for_storage(state: bytes) -> bool:
    """Whether the server held this state until the database stored its change."""
    return not (_ACT in state and _LIVE in state)


@dataclass
class Tally:
    messages: int = 0
    gaps: int = 0  # state messages a spectator never received (seq jumped)
    per_client: list[int] = field(default_factory=list)  # messages per spectator
    latencies: list[float] = field(default_factory=list)
    # The same latencies apart: states held until stored, and those shown at once.
    held: list[float] = field(default_factory=list)
    at_once: list[float] = field(default_factory=list)
    measuring: bool = False


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process so far, from /proc (None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


@dataclass
class CpuMeter:
    """CPU seconds used by the server, its child processes and this client over a window."""

    server: int
    start: dict[str, float] = field(default_factory=dict)
    used: dict[str, float] = field(default_factory=dict)

    def _read(self) -> dict[str, float]:
        children = [c for c in (_cpu_seconds(p) for p in _children(self.server)) if c is not None]
        readings = {"server": _cpu_seconds(self.server), "database": sum(children)}
        found = {name: value for name, value in readings.items() if value is not None}
        return {**found, "client": time.process_time()}

    def begin(self) -> None:
        self.start = self._read()

    def end(self) -> None:
        self.used = {name: value - self.start[name] for name, value in self._read().items()}


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def start_server(
    data_dir: Path,
    port: int,
    env: dict[str, str],
    worker: bool = False,
    profile: Path | None = None,
) -> asyncio.subprocess.Process:
    """`showdown serve` in a child process (with its AI worker or not), once it listens.

    With `profile`, under the CPU sampler (SIGUSR1 starts it, SIGUSR2 writes `profile`)."""
    sampler = ["-m", "showdown.benchmarks.cpu_sampler", str(profile), "--"] if profile else []
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        *sampler,
        "-m",
        "showdown.cli",
        "serve",
        "--port",
        str(port),
        "--data-dir",
        str(data_dir),
        *([] if worker else ["--no-worker"]),
        env={**os.environ, **env},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    assert process.stdout is not None
    async with asyncio.timeout(60):
        while True:
            line = await process.stdout.readline()
            if not line:
                raise RuntimeError("showdown serve exited during start-up")
            if b"running at" in line:
                return process


async def open_table(url: str, token: str) -> tuple[Any, bytes]:
    """A table socket, signed in, and its first message. A socket opened with `?follow=1`
    on a node that does not own the table is closed with 4010 and the owner's address
    (docs/cluster.md §3): opened there once more, as the frontend's client would."""
    import websockets
    from websockets.exceptions import ConnectionClosed

    from protocol.messages import CloseCode

    for _ in range(2):
        ws = await websockets.connect(url, max_size=None, open_timeout=60)
        await ws.send(json.dumps({"type": "auth", "token": token}))  # tokens never in URLs
        try:
            return ws, await ws.recv(decode=False)
        except ConnectionClosed as closed:
            await ws.close()
            moved = closed.rcvd
            if moved is None or moved.code != CloseCode.MOVED:
                raise
            path = url.split("://", 1)[1].split("/", 1)[1].split("?", 1)[0]
            url = moved.reason.replace("http://", "ws://").replace("https://", "wss://")
            url = url.rstrip("/") + "/" + path
    raise RuntimeError(f"moved more than once: {url}")


async def _spectate(url: str, token: str, tally: Tally, index: int, stop: asyncio.Event) -> None:
    ws, raw = await open_table(url, token)
    async with ws:
        # No timeout per message (a timer per receive is client CPU the server's
        # figures would pay for): the task is cancelled when the measurement ends.
        last_seq = -1
        while not stop.is_set():
            received = time.time() * 1000
            seq = _SEQ.search(raw) if raw.startswith(b'{"type":"state"') else None
            if seq is not None:
                number = int(seq.group(1))
                if tally.measuring and last_seq >= 0 and number > last_seq + 1:
                    tally.gaps += number - last_seq - 1
                last_seq = number
            if tally.measuring:
                tally.messages += 1
                tally.per_client[index] += 1
                if seq is not None:
                    match = _AT.search(raw)
                    if match:
                        latency = received - float(match.group(1))
                        tally.latencies.append(latency)
                        (tally.held if held_for_storage(raw) else tally.at_once).append(latency)
            raw = await ws.recv(decode=False)


async def _bench(args: argparse.Namespace) -> int:
    import httpx

    from backend.db.embedded import free_port

    tables = int(getattr(args, "tables", 100))
    clients = int(getattr(args, "clients", 500))
    seconds = float(getattr(args, "seconds", 10.0))
    env = {
        "SHOWDOWN_BOTS_PLAY_ALONE": "1",
        "SHOWDOWN_BOT_DELAY_MS": str(getattr(args, "bot_delay_ms", 50)),
        "SHOWDOWN_HAND_PAUSE_MS": str(getattr(args, "hand_pause_ms", 200)),
        "SHOWDOWN_LOG_LEVEL": "WARNING",
        "SHOWDOWN_SEND_QUEUE_SIZE": "4096",
        # One client signs in every viewer and creates every table.
        "SHOWDOWN_SIGNIN_BURST": str(clients + 10),
        "SHOWDOWN_TABLE_CREATE_BURST": str(tables + 10),
    }
    env.pop("MONGODB_URL", None)
    port = free_port()
    profile: Path | None = getattr(args, "profile_path", None)
    with tempfile.TemporaryDirectory(prefix="showdown-bench-") as tmp:
        process = await start_server(Path(tmp), port, env, profile=profile)
        stop = asyncio.Event()
        tally = Tally()
        cpu = CpuMeter(process.pid)
        tasks: list[asyncio.Task[None]] = []
        try:
            base = f"http://127.0.0.1:{port}"
            async with httpx.AsyncClient(base_url=base, timeout=300) as http:
                login = (await http.post("/api/auth/guest", json={"name": "bench"})).json()
                headers = {"Authorization": f"Bearer {login['token']}"}
                limit = asyncio.Semaphore(16)

                async def post(path: str, body: dict[str, object], auth: bool) -> str:
                    async with limit:
                        response = await http.post(path, json=body, headers=headers if auth else {})
                        response.raise_for_status()
                        value: str = response.json()["table_id" if auth else "token"]
                        return value

                # Viewers sign in first: once the tables run, the server is busy.
                viewers = await asyncio.gather(
                    *(post("/api/auth/guest", {"name": f"v{i}"}, False) for i in range(clients))
                )
                table: dict[str, object] = {
                    "seats": 6,
                    "bots": 5,
                    "small_blind": 5,
                    "big_blind": 10,
                }
                table_ids = await asyncio.gather(
                    *(post("/api/tables", table, True) for _ in range(tables))
                )
                for i, token in enumerate(viewers):
                    table_id = table_ids[i % len(table_ids)]
                    url = f"ws://127.0.0.1:{port}/ws/tables/{table_id}"
                    tally.per_client.append(0)
                    tasks.append(asyncio.create_task(_spectate(url, token, tally, i, stop)))
                await asyncio.sleep(2.0)  # warm-up: connections settle, hands under way
                hands_before = sum(t["hand_no"] for t in (await http.get("/api/tables")).json())
                database_before = (await http.get("/api/stats")).json()["database"]
                # The client's own garbage collections would pause every receive and
                # count as server latency: none while measuring.
                gc.collect()
                gc.disable()
                tally.measuring = True
                if profile is not None:
                    process.send_signal(signal.SIGUSR1)
                cpu.begin()
                started = time.perf_counter()
                await asyncio.sleep(seconds)  # the measurement window
                cpu.end()
                if profile is not None:
                    process.send_signal(signal.SIGUSR2)
                tally.measuring = False
                gc.enable()
                elapsed = time.perf_counter() - started
                listing = (await http.get("/api/tables")).json()
                hands_after = sum(t["hand_no"] for t in listing)
                stats = (await http.get("/api/stats")).json()
                if profile is not None:
                    await _written(profile)
        finally:
            stop.set()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            process.terminate()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), 30)
    hands = hands_after - hands_before
    lat = tally.latencies
    print(
        f"server: {tables} tables of 5 bots, {clients} spectators, {elapsed:.1f} s "
        f"({stats['connections']} connected)"
    )
    print(f"  hands/s             {hands / elapsed:10.1f}")
    print(
        f"  messages/s          {tally.messages / elapsed:10.1f}  (received by spectators; "
        f"{tally.gaps} states never arrived)"
    )
    silent = sum(1 for count in tally.per_client if count == 0)
    print(f"  silent spectators   {silent:10d}  (received nothing while measuring)")
    print(
        f"  action->broadcast   p50 {percentile(lat, 0.5):.1f} ms   "
        f"p99 {percentile(lat, 0.99):.1f} ms   mean {statistics.fmean(lat) if lat else 0:.1f} ms"
        f"   (n={len(lat)}, target p99 < 50 ms)"
    )
    print(
        f"                      p90 {percentile(lat, 0.9):.1f} ms   "
        f"p95 {percentile(lat, 0.95):.1f} ms   p99.9 {percentile(lat, 0.999):.1f} ms   "
        f"max {max(lat, default=float('nan')):.1f} ms"
    )
    held, at_once = tally.held, tally.at_once
    print(
        f"    shown at once     p50 {percentile(at_once, 0.5):.1f} ms   "
        f"p99 {percentile(at_once, 0.99):.1f} ms   (n={len(at_once)}: actions within a hand)"
    )
    print(
        f"    held until stored p50 {percentile(held, 0.5):.1f} ms   "
        f"p99 {percentile(held, 0.99):.1f} ms   (n={len(held)}: deals, hands' ends, seat changes)"
    )
    lag = stats["loop_lag"]
    print(
        f"  server loop lag     p50 {lag['p50_ms']:.1f} ms   p99 {lag['p99_ms']:.1f} ms   "
        f"max {lag['max_ms']:.1f} ms   (its last {lag['seconds']:.0f} s)"
    )
    if "server" in cpu.used:
        share = "   ".join(f"{name} {100 * used / elapsed:.0f}%" for name, used in cpu.used.items())
        per_hand = 1000 * cpu.used["server"] / hands if hands else float("nan")
        print(f"  CPU (of one core)   {share}   server {per_hand:.2f} ms per hand")
        if "database" in cpu.used and hands:
            # Apart from the host's load: what a hand costs the database.
            database_ms = 1000 * cpu.used["database"] / hands
            print(f"{'':22}database {database_ms:.2f} ms per hand")
    database = {k: v - database_before.get(k, 0) for k, v in stats["database"].items()}
    if hands and database["batches"]:
        print(
            f"  database writes     {database['writes'] / hands:.2f} per hand   "
            f"{database['writes'] / database['batches']:.1f} per round trip   "
            f"{database['failed']} failed"
        )
    if hands and database.get("table_batches"):
        # The writes a table waits for (or that wait in its queue), apart from statistics.
        print(
            f"    on tables' path   {database['table_writes'] / hands:.2f} per hand   "
            f"{database['table_writes'] / database['table_batches']:.1f} per round trip   "
            f"{database['commits'] / hands:.2f} journal syncs per hand"
        )
    if hands and database.get("urgent_batches"):
        # Of those, the writes a player waits for (a deal, a hand's end, a seat change).
        print(
            f"    players wait for  {database['urgent_writes'] / hands:.2f} per hand   "
            f"{database['urgent_writes'] / database['urgent_batches']:.1f} per round trip"
        )
    if database.get("table_rounds"):
        round_ms = database["table_round_us"] / 1000 / database["table_rounds"]
        print(
            f"    tables' rounds    mean {round_ms:.1f} ms   "
            f"max {stats['database']['table_round_max_us'] / 1000:.1f} ms (since start)"
        )
    if database.get("durable_waits"):
        # From queued to stored: what a player's deal or result waited for.
        wait_ms = database["durable_wait_us"] / 1000 / database["durable_waits"]
        print(
            f"    waited-for write  mean {wait_ms:.1f} ms   "
            f"max {stats['database']['durable_wait_max_us'] / 1000:.1f} ms (since start)"
        )
    if "stats_hands" in database:
        # The statistics counter keeps up if it counts as many hands as the tables deal.
        counted = database["stats_hands"]
        stats_writes = sum(v for k, v in database.items() if k.startswith("writes.background."))
        print(
            f"  stats: counted {counted / elapsed:.1f} hands/s, "
            f"{stats_writes / counted if counted else float('nan'):.2f} writes per counted hand, "
            f"queue peak {stats['database']['stats_queue_peak']} "
            f"(at the end {stats['database']['stats_queued']}, "
            f"{database['stats_dropped']} left uncounted)"
        )
    if profile is not None:
        print(f"  server CPU profile  {profile} (collapsed stacks), {profile}.summary")
    return 0


async def _written(profile: Path) -> None:
    """Wait (a few seconds at most) for the sampler to write its profile."""
    summary = profile.with_name(profile.name + ".summary")
    for _ in range(100):
        if summary.exists():
            return
        await asyncio.sleep(0.1)


def run(args: argparse.Namespace) -> int:
    import uvloop

    if getattr(args, "profile", None):
        args.profile_path = Path(args.profile).resolve()
        args.profile_path.unlink(missing_ok=True)
    return uvloop.run(_bench(args))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--clients", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--bot-delay-ms", type=int, default=50)
    parser.add_argument("--hand-pause-ms", type=int, default=200)
    parser.add_argument("--profile", default=None)
    sys.exit(run(parser.parse_args()))
