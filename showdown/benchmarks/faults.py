"""Fault injection: crash the database, the server and the AI workers in a loop under load.

Starts `showdown serve` (embedded database, its fail points on) and a few
`showdown worker` processes, creates tables of bots that deal by themselves, and
watches every table with a spectator that records what players were shown: each
hand dealt and each hand finished, with its result. Then, until the time is up,
it waits for play to go on, picks a fault (SIGKILL the database, which serve
restarts; SIGKILL the server and start it again; SIGKILL a worker and start
another) and waits for the room to recover. At the end the server is killed once
more and the stored data is checked, as the next start would find it:

- chips: each table's stacks equal what its ledger says came in minus went out;
- every hand a spectator saw finish is stored, with the result it was shown;
- no hand number was dealt twice, and none is both filed and voided.

It prints hands played, restarts survived and what it checked; any chip lost or
hand missing makes it exit 1. Optional attributes on `args`: seconds, seed,
fault_tables (4), workers (1).
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
from pathlib import Path
from typing import Any

Message = dict[str, Any]
FAST = {"SHOWDOWN_HAND_PAUSE_MS": "0", "BOT_DELAY_MS": "0", "BOTS_PLAY_ALONE": "true"}
RECOVERY_SECONDS = 60.0  # a fault the room has not recovered from by then is a failure
SILENT_SECONDS = 20.0  # a spectator hearing nothing this long reconnects
LOG_TAIL = 60  # lines of serve's log shown with a failure
POLL_ECHO = ('"uvicorn.access"', '"database ping failed"')  # what each /readyz poll logs


@dataclass
class Seen:
    """What one table's spectator was shown."""

    dealt: list[int] = field(default_factory=list)  # hand numbers, in the order dealt
    finished: dict[int, dict[int, int]] = field(default_factory=dict)  # hand_no -> net by seat


def record(seen: Seen, message: Message) -> bool:
    """Note a state message in `seen`; True if it was one."""
    if message.get("type") != "state":
        return False
    view = message["view"]
    if (message.get("cause") or {}).get("kind") == "hand_start":
        seen.dealt.append(view["hand_no"])
    result = view.get("last_result")
    if not view["hand_in_progress"] and result:
        seen.finished[result["hand_no"]] = {int(s): n for s, n in result["net"].items()}
    return True


@dataclass
class TableCheck:
    hands: int = 0  # stored (filed, or pending with the stacks)
    voided: int = 0
    chips: int = 0  # at the table, stored
    chips_lost: int = 0  # |stacks - (ledger in - ledger out)|
    problems: list[str] = field(default_factory=list)


async def check_table(db: Any, table_id: str, seen: Seen) -> TableCheck:
    """What is stored for `table_id` against what its spectator saw (serve stopped)."""
    check = TableCheck()
    table = await db.tables.find_one({"_id": table_id})
    if table is None:
        check.problems.append(f"{table_id}: not stored")
        return check
    stacks = {s["number"]: s["stack"] for s in table["snapshot"]["seats"]}
    filed = [e async for e in db.ledger.find({"table_id": table_id})]
    hands = {h["hand_no"]: h["record"] async for h in db.hands.find({"table_id": table_id})}
    voided = [v["hand_no"] async for v in db.voided_hands.find({"table_id": table_id})]
    # Ledger entries and the last hand ride along with the stacks; the next start files them.
    entries = {e["_id"]: e for e in table.get("pending_ledger", [])}
    entries.update({e["_id"]: e for e in filed})
    if len({e["_id"] for e in filed}) != len(filed):
        check.problems.append(f"{table_id}: a ledger entry filed twice")
    pending = table.get("pending_record")
    if pending is not None:
        hands.setdefault(pending["hand_no"], pending)
    paid_in = sum(e["amount"] for e in entries.values() if e["kind"] in ("buy_in", "rebuy"))
    paid_out = sum(e["amount"] for e in entries.values() if e["kind"] == "cashout")
    check.chips = sum(stacks.values())
    check.chips_lost = abs(paid_in - paid_out - check.chips)
    if check.chips_lost:
        check.problems.append(f"{table_id}: stacks {check.chips}, ledger {paid_in - paid_out}")
    for hand_no, shown in sorted(seen.finished.items()):
        stored = hands.get(hand_no)
        if stored is None:
            check.problems.append(f"{table_id}: hand {hand_no} shown finished, not stored")
            continue
        net = {s["seat"]: s["final_stack"] - s["starting_stack"] for s in stored["seats"]}
        if {k: v for k, v in net.items() if v} != {k: v for k, v in shown.items() if v}:
            check.problems.append(f"{table_id}: hand {hand_no} stored {net}, shown {shown}")
    for hand_no, stored in hands.items():
        if sum(s["final_stack"] - s["starting_stack"] for s in stored["seats"]):
            check.problems.append(f"{table_id}: hand {hand_no} does not add up")
    twice = sorted(n for n, count in Counter(seen.dealt).items() if count > 1)
    if twice:
        check.problems.append(f"{table_id}: hand numbers dealt twice: {twice}")
    both = sorted(set(voided) & set(hands))
    if both:
        check.problems.append(f"{table_id}: hands both filed and voided: {both}")
    check.hands, check.voided = len(hands), len(voided)
    return check


class Serve:
    """`showdown serve --no-worker` as a child process, killed and started at will."""

    def __init__(self, data_dir: Path, port: int, log: Path) -> None:
        self.data_dir, self.port, self.log = data_dir, port, log
        self.process: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("MONGODB_URL", "SECRET_KEY")}
        env.update({**FAST, "SHOWDOWN_DB_TEST_COMMANDS": "1"})
        with self.log.open("ab") as log:
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
                stderr=log,
            )
        assert self.process.stdout is not None
        async with asyncio.timeout(RECOVERY_SECONDS):
            while True:  # the URL is printed once the server accepts connections
                line = await self.process.stdout.readline()
                if not line:
                    raise RuntimeError(f"showdown serve exited; see {self.log}")
                if b"running at" in line:
                    return

    async def kill(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.send_signal(signal.SIGKILL)
            # wait() also waits for its stdout to close: bounded, should anything hold it.
            await asyncio.wait_for(self.process.wait(), RECOVERY_SECONDS)

    def kill_database(self) -> int:
        pid = int((self.data_dir / "mongo" / "secantusd.pid").read_text())
        os.kill(pid, signal.SIGKILL)
        return pid

    def secret(self) -> str:
        stored: dict[str, str] = json.loads((self.data_dir / "secrets.json").read_text())
        return stored["ai_shared_secret"]


class Workers:
    """`showdown worker` processes; one is killed and another started as a fault."""

    def __init__(self, url: str, secret: str, log: Path) -> None:
        self.url, self.secret, self.log = url, secret, log
        self.processes: list[asyncio.subprocess.Process] = []

    async def start_one(self) -> None:
        env = {**os.environ, "AI_SHARED_SECRET": self.secret}
        with self.log.open("ab") as log:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "showdown.cli",
                "worker",
                "--server",
                self.url,
                env=env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=log,
            )
        self.processes.append(process)

    async def kill_one(self, rng: random.Random) -> None:
        if not self.processes:
            return
        process = self.processes.pop(rng.randrange(len(self.processes)))
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGKILL)
        await process.wait()
        await self.start_one()

    async def stop(self) -> None:
        for process in self.processes:
            with contextlib.suppress(ProcessLookupError):
                process.terminate()
        for process in self.processes:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), 10)
            if process.returncode is None:
                process.kill()


class Spectator:
    """Watches one table over a real WebSocket, reconnecting whenever the server is gone."""

    def __init__(self, url: str, token: str, progress: asyncio.Condition) -> None:
        self.url, self.token, self.progress = url, token, progress
        self.seen = Seen()
        self._stopping = False
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        import websockets

        # Until stopped, not until cancelled: Python 3.11's wait_for (inside websockets'
        # timeouts) can turn a cancellation into the TimeoutError caught below.
        while not self._stopping:
            try:
                async with websockets.connect(self.url, max_size=None, open_timeout=10) as ws:
                    await ws.send(json.dumps({"type": "auth", "token": self.token}))
                    while True:
                        # Silent this long under a bot load: reconnect, as a browser's
                        # stall detection would.
                        async with asyncio.timeout(SILENT_SECONDS):
                            raw = await ws.recv()
                        if record(self.seen, json.loads(raw)):
                            async with self.progress:
                                self.progress.notify_all()
            except (OSError, websockets.WebSocketException, TimeoutError):
                pass
            await asyncio.sleep(0.1)  # the server is restarting: reconnect shortly

    async def stop(self) -> None:
        self._stopping = True
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)


async def _wait_ready(http: Any) -> str | None:
    """None once /readyz says ready within RECOVERY_SECONDS, else the last thing it said."""
    import httpx

    last = "no answer"
    try:
        async with asyncio.timeout(RECOVERY_SECONDS):
            while True:
                try:
                    response = await http.get("/readyz")
                except (OSError, httpx.TransportError) as error:
                    last = f"{type(error).__name__}: {error}"
                else:
                    if response.status_code == 200:
                        return None
                    last = f"{response.status_code} {response.text[:500]}"
                await asyncio.sleep(0.1)  # polling another process's recovery
    except TimeoutError:
        return last


async def _faults(args: argparse.Namespace) -> int:
    import httpx
    from pymongo import AsyncMongoClient

    from backend.db.embedded import EmbeddedMongo, free_port

    seconds = float(getattr(args, "seconds", 30.0))
    rng = random.Random(int(getattr(args, "seed", 1)))
    table_count = int(getattr(args, "fault_tables", 4))
    worker_count = int(getattr(args, "workers", 1))
    with tempfile.TemporaryDirectory(prefix="showdown-faults-") as tmp:
        root = Path(tmp)
        port = free_port()
        serve = Serve(root / "data", port, root / "serve.log")
        spectators: dict[str, Spectator] = {}
        workers: Workers | None = None
        try:
            await serve.start()
            base = f"127.0.0.1:{port}"
            workers = Workers(f"ws://{base}/ws/ai", serve.secret(), root / "workers.log")
            for _ in range(worker_count):
                await workers.start_one()
            progress = asyncio.Condition()
            restarts: Counter[str] = Counter()
            failures: list[str] = []
            async with httpx.AsyncClient(base_url=f"http://{base}", timeout=10) as http:
                login = (await http.post("/api/auth/guest", json={"name": "Watcher"})).json()
                auth = {"Authorization": f"Bearer {login['token']}"}
                for number in range(table_count):
                    table = (
                        await http.post(
                            "/api/tables",
                            json={"name": f"faults {number}", "seats": 5, "bots": 4},
                            headers=auth,
                        )
                    ).json()
                    url = f"ws://{base}/ws/tables/{table['table_id']}"
                    spectators[table["table_id"]] = Spectator(url, login["token"], progress)

                def finished() -> int:
                    return sum(len(s.seen.finished) for s in spectators.values())

                async def play_goes_on(what: str) -> None:
                    target = finished() + table_count
                    try:
                        async with asyncio.timeout(RECOVERY_SECONDS), progress:
                            await progress.wait_for(lambda: finished() >= target)
                    except TimeoutError:
                        failures.append(f"play did not go on after {what}")

                kinds = ["database", "server"] + (["worker"] if worker_count else [])
                started = time.monotonic()
                await play_goes_on("the start")
                while time.monotonic() - started < seconds and not failures:
                    fault = rng.choice(kinds)
                    if fault == "database":
                        serve.kill_database()
                    elif fault == "server":
                        await serve.kill()
                        await serve.start()
                    else:
                        await workers.kill_one(rng)
                    unready = await _wait_ready(http)
                    if unready is not None:
                        failures.append(f"not ready again after a {fault} crash: {unready}")
                        break
                    restarts[fault] += 1
                    await play_goes_on(f"a {fault} crash")
                elapsed = time.monotonic() - started
        finally:  # whatever happened, no process of ours outlives the run
            for spectator in spectators.values():
                await spectator.stop()
            if workers is not None:
                await workers.stop()
            await serve.kill()  # the last crash: what is stored must add up at any moment
        database = await asyncio.to_thread(EmbeddedMongo(serve.data_dir / "mongo").start)
        client: AsyncMongoClient[Message] = AsyncMongoClient(database.url)
        try:
            checks = [
                await check_table(client.showdown, table_id, spectator.seen)
                for table_id, spectator in spectators.items()
            ]
        finally:
            await client.close()
            await asyncio.to_thread(database.close)
        # The temporary directory goes with the run: what serve logged, for a failure,
        # less the echo of the bench's own readiness polls.
        logged = (root / "serve.log").read_text(errors="replace").splitlines()
        serve_log = [line for line in logged if not any(p in line for p in POLL_ECHO)]
        serve_log = serve_log[-LOG_TAIL:]
    problems = failures + [p for c in checks for p in c.problems]
    seen_finished = finished()
    print(f"fault injection: {elapsed:.0f} s, {table_count} tables of bots, {worker_count} workers")
    print(f"  hands played (stored):        {sum(c.hands for c in checks)}")
    print(f"  hands seen finished:          {seen_finished}, every one stored as shown")
    print(f"  hands voided by crashes:      {sum(c.voided for c in checks)}")
    print(
        f"  restarts survived:            {sum(restarts.values())} "
        f"(database {restarts['database']}, server {restarts['server']}, "
        f"worker {restarts['worker']})"
    )
    print(f"  chips at the tables:          {sum(c.chips for c in checks)}")
    print(f"  chips lost:                   {sum(c.chips_lost for c in checks)}")
    dealt = sum(len(s.seen.dealt) for s in spectators.values())
    twice = sum(1 for p in problems if "dealt twice" in p)
    print(f"  hand numbers dealt twice:     {twice} tables (of {dealt} deals seen)")
    for problem in problems:
        print(f"  PROBLEM: {problem}")
    if problems:
        print(f"  the last {len(serve_log)} lines serve logged:")
        print("\n".join(f"    {line}" for line in serve_log))
    return 1 if problems else 0


def run(args: argparse.Namespace) -> int:
    return asyncio.run(_faults(args))
