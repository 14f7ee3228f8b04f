"""`showdown bench faults --nodes N`: kill and drain nodes of a cluster under load.

Starts `showdown serve --nodes N` (the launcher, nats-server, N nodes) on an
embedded database, creates tables of bots that deal by themselves (placement
spreads them over the nodes) and watches each with a spectator on a node taken
in turn, which reconnects to another live node whenever its socket is closed
(a killed or drained node, a table between owners), as a browser does. Until the
time is up it alternates two faults, each followed by play going on at every
table:

- kill: SIGKILL a node; its tables are taken over once their leases run out
  (the hand in progress voided and refunded);
- drain: SIGUSR1 a node (a deploy); it hands its tables over between hands, and
  is stopped (SIGTERM) once it holds none.

After each, a new node is started as a supervisor would (the same command and
environment as the launcher's nodes), so the cluster keeps N nodes. At the end
every node is SIGKILLed and the stored data checked as in `bench faults`: chips
(stacks against the ledger), every hand a spectator saw finish stored as shown,
no hand number dealt twice. Printed: hands played, nodes killed and drained,
tables moved (lease acquisitions after each table's first), chips lost, hands
seen finished that are missing, and the longest pause a table's spectator saw
(no state for that long, reconnection included). Exit 1 if a chip or a hand is
lost, or play stops.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from backend.db.embedded import die_with_parent
from showdown.benchmarks.faults import FAST, Seen, check_table, record
from showdown.benchmarks.room import Room

LEASE_TTL = 4.0  # seconds: a killed node's tables wait this long (and a takeover round)
RECOVERY_SECONDS = 60.0  # a fault the room has not recovered from by then is a failure
SILENT_SECONDS = 20.0  # a spectator hearing nothing this long reconnects elsewhere
NODE_READY_WITHIN = 120.0


def _log(message: str) -> None:
    print(f"[bench faults] {message}", file=sys.stderr, flush=True)


@dataclass
class Watch:
    """One table's spectator: what it was shown, and the longest silence it sat through."""

    seen: Seen = field(default_factory=Seen)
    last: float | None = None  # monotonic time of the last state
    longest: float = 0.0
    reconnects: int = 0

    def heard(self) -> None:
        now = time.monotonic()
        if self.last is not None:
            self.longest = max(self.longest, now - self.last)
        self.last = now


class Spectator:
    """Watches one table over a real socket, moving to another live node when closed."""

    def __init__(self, table_id: str, token: str, nodes: list[str], first: int) -> None:
        self.table_id, self.token, self.nodes, self.turn = table_id, token, nodes, first
        self.watch = Watch()
        self.progress = asyncio.Event()
        self._stopping = False
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        import websockets

        while not self._stopping:
            base = self.nodes[self.turn % len(self.nodes)]
            url = base.replace("http://", "ws://") + f"/ws/tables/{self.table_id}"
            try:
                async with websockets.connect(url, max_size=None, open_timeout=10) as ws:
                    await ws.send(json.dumps({"type": "auth", "token": self.token}))
                    while True:
                        async with asyncio.timeout(SILENT_SECONDS):
                            raw = await ws.recv()
                        if record(self.watch.seen, json.loads(raw)):
                            self.watch.heard()
                            self.progress.set()
            except (OSError, websockets.WebSocketException, TimeoutError):
                pass
            self.watch.reconnects += 1
            self.turn += 1  # the next live node
            await asyncio.sleep(0.1)  # back-off before reconnecting, as a browser's

    def finished(self) -> int:
        return len(self.watch.seen.finished)

    async def stop(self) -> None:
        self._stopping = True
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)


@dataclass
class Cluster:
    """The room, plus the nodes started here to replace the killed and the drained."""

    room: Room
    live: list[str]  # URLs of the live, not draining nodes (the spectators' list)
    started: list[asyncio.subprocess.Process] = field(default_factory=list)
    next_index: int = 0

    async def start_node(self) -> str:
        """A node started as the launcher starts them (a supervisor's restart)."""
        secrets = json.loads((self.room.data_dir / "serve" / "secrets.json").read_text())
        env = self.room.base_env()
        env.update(
            NATS_URL=self.room.bus_url,
            NODE_ID=f"n{self.next_index}",
            SECRET_KEY=secrets["secret_key"],
            AI_SHARED_SECRET=secrets["ai_shared_secret"],
        )
        command = [sys.executable, "-m", "showdown.cli", "serve", "--host", "127.0.0.1"]
        command += ["--port", "0", "--data-dir", str(self.room.data_dir / "serve"), "--no-worker"]
        with self.room.log.open("ab") as log:
            process = await asyncio.create_subprocess_exec(
                *command, env=env, stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE, stderr=log, preexec_fn=die_with_parent,
            )  # fmt: skip
        self.started.append(process)
        assert process.stdout is not None
        async with asyncio.timeout(NODE_READY_WITHIN):
            while True:
                line = (await process.stdout.readline()).decode()
                if not line:
                    raise RuntimeError(f"a new node exited ({await process.wait()})")
                if "running at" in line:
                    url = line.rsplit(" ", 1)[1].strip().rstrip("/")
                    break
        name = f"n{self.next_index}"
        self.next_index += 1
        self.room.urls[name], self.room.pids[name] = url, process.pid
        self.live.append(url)
        await self.room.wait_for_each_other()
        return name

    def forget(self, node: str) -> None:
        url = self.room.urls.pop(node)
        with contextlib.suppress(ValueError):
            self.live.remove(url)

    async def held_by(self, db: Any, node: str) -> int:
        """Tables whose lease `node` holds now."""
        now = datetime.now(UTC)
        count: int = await db.table_leases.count_documents(
            {"owner": node, "expires_at": {"$gt": now}}
        )
        return count

    async def kill_all(self) -> None:
        for node, pid in list(self.room.pids.items()):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            self.room.pids.pop(node)
        for process in self.started:
            await process.wait()


async def _run(args: argparse.Namespace, nodes: int) -> int:
    import httpx
    from pymongo import AsyncMongoClient

    seconds = float(getattr(args, "seconds", 30.0))
    rng = random.Random(int(getattr(args, "seed", 1)))
    table_count = int(getattr(args, "fault_tables", 4))
    env = {**FAST, "LEASE_TTL": str(LEASE_TTL), "SHOWDOWN_LOG_LEVEL": "WARNING"}
    env["SHOWDOWN_ACTION_TIMEOUT"] = "60"
    failures: list[str] = []
    counts: Counter[str] = Counter()
    spectators: dict[str, Spectator] = {}
    with tempfile.TemporaryDirectory(prefix="showdown-node-faults-") as tmp:
        room = Room(Path(tmp) / "data", nodes, env, Path(tmp) / "serve.log")
        cluster: Cluster | None = None
        client: AsyncMongoClient[dict[str, Any]] | None = None
        try:
            _log(f"starting {nodes} nodes and the bus")
            await room.start()
            cluster = Cluster(room, [room.urls[n] for n in sorted(room.urls)], next_index=nodes)
            client = AsyncMongoClient(room.database_url)
            db = client.showdown
            async with httpx.AsyncClient(base_url=cluster.live[0], timeout=30) as http:
                login = (await http.post("/api/auth/guest", json={"name": "Watcher"})).json()
                auth = {"Authorization": f"Bearer {login['token']}"}
                for number in range(table_count):
                    body = {"name": f"faults {number}", "seats": 5, "bots": 4}
                    response = await http.post("/api/tables", json=body, headers=auth)
                    response.raise_for_status()
                    table_id = str(response.json()["table_id"])
                    spectators[table_id] = Spectator(table_id, login["token"], cluster.live, number)

            async def play_goes_on(what: str) -> None:
                """Every table finishes another hand (seen by its spectator)."""
                targets = {t: s.finished() + 1 for t, s in spectators.items()}
                try:
                    async with asyncio.timeout(RECOVERY_SECONDS):
                        for table_id, spectator in spectators.items():
                            while spectator.finished() < targets[table_id]:
                                spectator.progress.clear()
                                await spectator.progress.wait()
                except TimeoutError:
                    stuck = [t for t, s in spectators.items() if s.finished() < targets[t]]
                    failures.append(f"play did not go on after {what}: {stuck}")

            await play_goes_on("the start")
            for spectator in spectators.values():  # pauses count from here
                spectator.watch.longest = 0.0
            started = time.monotonic()
            fault = "kill"
            while not failures and (
                time.monotonic() - started < seconds or min(counts["kill"], counts["drain"]) == 0
            ):
                # A node holding tables, so each fault moves some (any node, if none does).
                holding = [n for n in sorted(room.urls) if await cluster.held_by(db, n)]
                victim = rng.choice(holding or sorted(room.urls))
                if fault == "kill":
                    held = await cluster.held_by(db, victim)
                    _log(f"SIGKILL {victim} (holding {held} tables)")
                    cluster.forget(victim)
                    room.signal(victim, signal.SIGKILL)
                else:
                    held = await cluster.held_by(db, victim)
                    _log(f"drain {victim} (SIGUSR1, holding {held} tables)")
                    url = room.urls[victim]
                    with contextlib.suppress(ValueError):
                        cluster.live.remove(url)  # spectators no longer come to it
                    room.signal(victim, signal.SIGUSR1)
                    try:
                        async with asyncio.timeout(RECOVERY_SECONDS):
                            while await cluster.held_by(db, victim):  # noqa: ASYNC110
                                await asyncio.sleep(0.2)  # polling its leases: no event
                    except TimeoutError:
                        failures.append(f"{victim} still held tables after its drain")
                        break
                    room.signal(victim, signal.SIGTERM)  # the deploy stops it, now empty
                    cluster.forget(victim)
                counts[fault] += 1
                await play_goes_on(f"the {fault} of {victim}")
                replacement = await cluster.start_node()
                _log(f"started {replacement} in its place")
                fault = "drain" if fault == "kill" else "kill"
            elapsed = time.monotonic() - started
            moved = 0
            async for lease in db.table_leases.find({"_id": {"$in": list(spectators)}}):
                moved += int(lease["token"]) - 1  # each acquisition after the first is a move
            for spectator in spectators.values():
                await spectator.stop()
            await cluster.kill_all()  # the last crash: what is stored must add up
            checks = [
                await check_table(db, table_id, spectator.watch.seen)
                for table_id, spectator in spectators.items()
            ]
        finally:  # whatever happened, no process of ours outlives the run
            for spectator in spectators.values():
                await spectator.stop()
            if cluster is not None:
                await cluster.kill_all()
            if client is not None:
                await client.close()
            await room.stop()
            log_tail = room.log.read_text(errors="replace")[-4000:] if room.log.exists() else ""
    problems = failures + [p for c in checks for p in c.problems]
    missing = sum(1 for p in problems if "shown finished, not stored" in p)
    seen = sum(s.finished() for s in spectators.values())
    worst = max(spectators.items(), key=lambda item: item[1].watch.longest)
    figures = {
        "seconds": round(elapsed, 1),
        "nodes": nodes,
        "tables": table_count,
        "lease_ttl_s": LEASE_TTL,
        "hands_played": sum(c.hands for c in checks),
        "hands_seen_finished": seen,
        "hands_voided": sum(c.voided for c in checks),
        "nodes_killed": counts["kill"],
        "nodes_drained": counts["drain"],
        "tables_moved": moved,
        "chips_at_tables": sum(c.chips for c in checks),
        "chips_lost": sum(c.chips_lost for c in checks),
        "hands_seen_finished_missing": missing,
        "longest_pause_s": round(worst[1].watch.longest, 2),
        "longest_pause_table": worst[0],
        "spectator_reconnects": sum(s.watch.reconnects for s in spectators.values()),
        "problems": problems,
    }
    if getattr(args, "json", False):
        print(json.dumps(figures, indent=2))
    else:
        print(f"node faults: {elapsed:.0f} s, {nodes} nodes, {table_count} tables of bots, "
              f"lease {LEASE_TTL:.0f} s")  # fmt: skip
        print(f"  hands played (stored):        {figures['hands_played']}")
        print(f"  hands seen finished:          {seen}, missing {missing}")
        print(f"  hands voided (killed nodes):  {figures['hands_voided']}")
        print(f"  nodes killed / drained:       {counts['kill']} / {counts['drain']}")
        print(f"  tables moved:                 {moved}")
        print(f"  chips at the tables:          {figures['chips_at_tables']}")
        print(f"  chips lost:                   {figures['chips_lost']}")
        print(f"  longest pause a table saw:    {figures['longest_pause_s']} s")
        for problem in problems:
            print(f"  PROBLEM: {problem}")
        if problems:
            print("  the log ends:\n" + log_tail)
    return 1 if problems else 0


def run(args: argparse.Namespace) -> int:
    text = str(getattr(args, "nodes", "") or "")
    try:
        nodes = int(text)
    except ValueError:
        raise SystemExit(f"faults --nodes: one node count (2 or more), not {text!r}") from None
    if not 2 <= nodes <= 8:
        raise SystemExit(f"faults --nodes: 2 to 8 nodes, not {nodes}")
    return asyncio.run(_run(args, nodes))
