"""The AI worker against the real backend: the FastAPI app under uvicorn on a loopback port,
with the embedded MongoDB-wire server (secantusd-py), as tests/backend starts it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import sys
import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
import uvicorn
import websockets

from ai.worker import Backoff, WorkerClient
from backend.app import create_app
from backend.db.codec import hand_id
from backend.db.embedded import EmbeddedMongo
from backend.settings import Settings

SECRET = "worker-test-secret"
TIMEOUT = 60.0


@pytest.fixture(scope="module")
def mongo_url() -> Iterator[str]:
    with EmbeddedMongo(None, test_commands=True) as db:
        yield db.url


class Server:
    def __init__(self, settings: Settings) -> None:
        self.app = create_app(settings)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(128)
        self.port: int = self.sock.getsockname()[1]
        config = uvicorn.Config(
            self.app, log_level="warning", lifespan="on", ws="websockets-sansio"
        )
        self.server = uvicorn.Server(config)
        self.task: asyncio.Task[None] | None = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ai_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/ai"

    async def start(self) -> Server:
        self.task = asyncio.create_task(self.server.serve(sockets=[self.sock]))
        async with httpx.AsyncClient(base_url=self.http) as client:
            (await client.get("/healthz")).raise_for_status()
        return self

    async def stop(self) -> None:
        self.server.should_exit = True
        if self.task is not None:
            await asyncio.wait_for(self.task, 20)
        self.sock.close()

    async def stats(self) -> dict[str, Any]:
        async with httpx.AsyncClient(base_url=self.http) as client:
            body: dict[str, Any] = (await client.get("/api/stats")).json()
            return body

    async def guest_and_table(self, **fields: Any) -> tuple[str, dict[str, Any]]:
        async with httpx.AsyncClient(base_url=self.http) as client:
            token = (await client.post("/api/auth/guest", json={"name": "Tester"})).json()["token"]
            response = await client.post(
                "/api/tables", json=fields, headers={"Authorization": f"Bearer {token}"}
            )
            assert response.status_code == 201, response.text
            return token, response.json()


@pytest.fixture
async def server(mongo_url: str) -> AsyncIterator[Server]:
    settings = Settings(
        mongodb_url=mongo_url,
        mongodb_db="w" + uuid.uuid4().hex[:12],
        secret_key="worker-test-key-with-enough-bytes-for-hs256",
        ai_shared_secret=SECRET,
        action_timeout=20.0,
        time_bank=0.0,
        hand_pause_ms=0,
        bot_delay_ms=0,
        bots_play_alone=True,
        ai_deadline_ms=4000,
        frontend_dir=None,
        log_format="text",
        log_level="WARNING",
    )
    running = await Server(settings).start()
    yield running
    await running.stop()


def ai_counter(stats: dict[str, Any], name: str) -> int:
    """One of the AI gateway's counters in /api/stats."""
    return int(stats["ai"].get(name, 0))


async def wait_until(predicate: Any, seconds: float = TIMEOUT) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not await predicate():
        if loop.time() > deadline:
            raise TimeoutError("condition not reached")
        await asyncio.sleep(0.1)


@contextlib.asynccontextmanager
async def running_worker(url: str, secret: str = SECRET) -> AsyncIterator[WorkerClient]:
    client = WorkerClient(url, secret, concurrency=2, threads=True, backoff=Backoff(0.05, 0.2))
    stop = asyncio.Event()
    task = asyncio.create_task(client.run(stop))
    try:
        yield client
    finally:
        stop.set()
        await asyncio.wait_for(task, 20)


async def test_worker_plays_every_bot_seat_of_a_real_table(server: Server) -> None:
    async with running_worker(server.ai_url) as worker:
        styles = ["loki", "poki", "rational", "calling-station", "aggressive"]
        await server.guest_and_table(
            variant="limit", seats=6, bots=5, bot_styles=styles, small_blind=1, big_blind=2
        )

        async def enough() -> bool:
            return ai_counter(await server.stats(), "answered") >= 25

        await wait_until(enough)
        stats = await server.stats()
        assert ai_counter(stats, "invalid_answers") == 0
        assert worker.answered >= 25
        assert worker.connections == 1


async def test_the_bots_learn_from_every_finished_hand(server: Server) -> None:
    """Each hand's end reaches the search bot in its table's lane: it reads the holdings the
    always-raisers showed (only a finished hand's shown cards can teach it that)."""
    async with running_worker(server.ai_url) as worker:
        _, table = await server.guest_and_table(
            variant="limit", seats=4, bots=3, bot_styles=["mcts", "always-raise", "always-raise"],
            small_blind=1, big_blind=2,
        )  # fmt: skip
        table_id = table["table_id"]
        lane = worker.lanes.lane_of(table_id)
        loop = asyncio.get_running_loop()

        def reads() -> dict[str, int]:
            bots = worker.lanes.deciders[lane].bots_at(table_id)
            return next((dict(b.reliability.counts) for _, b in bots if b.style == "mcts"), {})

        async def read_both() -> bool:
            # Two entries, one per always-raiser: its own shows are never read.
            counts = await loop.run_in_executor(worker.lanes.executor_for(table_id), reads)
            return len(counts) == 2 and min(counts.values()) >= 3

        await wait_until(read_both)
        stats = await server.stats()
        assert ai_counter(stats, "hands_sent") > 0 and ai_counter(stats, "hands_dropped") == 0


async def test_advice_and_let_ai_decide_for_a_human(server: Server) -> None:
    """Ask for advice on one turn (then follow it), let the AI decide the next one."""
    async with running_worker(server.ai_url):
        token, table = await server.guest_and_table(
            variant="no-limit", seats=3, bots=2, bot_styles=["rational"], small_blind=1, big_blind=2
        )
        url = f"ws://127.0.0.1:{server.port}/ws/tables/{table['table_id']}"
        advice: dict[str, Any] | None = None
        applied: dict[str, Any] | None = None
        asked: set[tuple[int, int]] = set()
        async with websockets.connect(url, open_timeout=10) as ws:
            await ws.send(json.dumps({"type": "auth", "token": token}))  # never in the URL
            await ws.send(json.dumps({"type": "sit", "seat": 3, "buy_in": table["max_buy_in"]}))
            while applied is None:
                message = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
                if message["type"] == "state":
                    view = message["view"]
                    turn = (view["hand_no"], len(view["events"]))
                    mine = view["hand_in_progress"] and view["actor"] == view["viewer_seat"]
                    if mine and turn not in asked:
                        asked.add(turn)
                        ask = "advice" if advice is None else "ai_decide"
                        await ws.send(json.dumps({"type": ask}))
                elif message["type"] == "advice":
                    assert message["source"] == "worker", message
                    if message["applied"]:
                        applied = message
                    else:
                        advice = message
                        act = {"type": "act", "action": message["advice"]["action"]}
                        if message["advice"].get("amount") is not None:
                            act["amount"] = message["advice"]["amount"]
                        await ws.send(json.dumps(act))
                elif message["type"] == "error":
                    raise AssertionError(message)
        assert advice is not None
        body = advice["advice"]
        assert body["reason"], body
        assert body["values"] and body["action"] in {v["action"] for v in body["values"]}
        assert body["equity"] is not None
        assert [o["seat"] for o in body["opponents"]]
        assert applied["advice"]["reason"]


async def test_wrong_secret_stops_the_worker(server: Server) -> None:
    client = WorkerClient(server.ai_url, "wrong", concurrency=1, threads=True)
    assert await asyncio.wait_for(client.run(), 20) == 3


async def test_worker_reconnects_after_the_server_restarts(mongo_url: str) -> None:
    """Backoff while nobody listens, then connect as soon as the server is up."""
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    client = WorkerClient(
        f"ws://127.0.0.1:{port}/ws/ai",
        SECRET,
        concurrency=1,
        threads=True,
        backoff=Backoff(0.05, 0.2),
    )
    stop = asyncio.Event()
    task = asyncio.create_task(client.run(stop))
    await asyncio.sleep(0.5)  # a few refused attempts
    assert client.connections == 0
    settings = Settings(
        mongodb_url=mongo_url,
        mongodb_db="r" + uuid.uuid4().hex[:12],
        secret_key="worker-test-key-with-enough-bytes-for-hs256",
        ai_shared_secret=SECRET,
        frontend_dir=None,
        log_format="text",
        log_level="WARNING",
    )
    server = Server(settings)
    server.sock.close()
    server.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.sock.bind(("127.0.0.1", port))
    server.sock.listen(16)
    server.port = port
    await server.start()
    try:

        async def connected() -> bool:
            return client.connections >= 1

        await wait_until(connected, 20)
    finally:
        stop.set()
        await asyncio.wait_for(task, 20)
        await server.stop()


@pytest.mark.slow
async def test_the_worker_command_serves_from_processes(server: Server) -> None:
    """`showdown worker` as a subprocess: process pool, secret from the environment."""
    env = {**os.environ, "AI_SHARED_SECRET": SECRET}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "showdown.cli", "worker", "--server", server.http,
        "--concurrency", "1",
        env=env,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        await server.guest_and_table(
            variant="limit", seats=4, bots=3, bot_styles=["loki", "rational"],
            small_blind=1, big_blind=2,
        )  # fmt: skip

        async def answered() -> bool:
            stats = await server.stats()
            return ai_counter(stats, "answered") >= 4 and ai_counter(stats, "hands_sent") >= 2

        await wait_until(answered, 90)
        # Later queries go through the table's lane after the finished hands sent so far.
        later = ai_counter(await server.stats(), "answered") + 3

        async def answered_later() -> bool:
            return ai_counter(await server.stats(), "answered") >= later

        await wait_until(answered_later, 90)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            _, stderr = await asyncio.wait_for(process.communicate(), 20)
        except TimeoutError:
            process.kill()
            _, stderr = await process.communicate()
    assert process.returncode == 0, stderr.decode()
    assert b"not learned from" not in stderr and b"cannot read" not in stderr, stderr.decode()


async def test_bots_play_a_run_it_twice_and_rabbit_hunt_table(server: Server) -> None:
    """Home-game rules the AI plays (#34): always all-in, the bots agree to run it twice,
    and every hand is played to the end, its pots split per run."""
    async with running_worker(server.ai_url):
        _, table = await server.guest_and_table(
            seats=4, bots=3, bot_styles=["always-raise"], run_it_max=2, rabbit_hunt=True,
            small_blind=1, big_blind=2,
        )  # fmt: skip
        table_id = table["table_id"]
        showdown = server.app.state.showdown
        twice: list[Any] = []

        async def run_twice() -> bool:
            runtime = showdown.tables.get(table_id)
            if runtime is None or runtime.hands_played < 2:
                return False
            twice.clear()  # the hands filed so far
            for number in range(1, runtime.hands_played + 1):
                doc = await showdown.repos.hands.get(hand_id(table_id, number))
                if doc is not None and len(doc["record"]["boards"]) == 2:
                    twice.append(doc["record"])
            return len(twice) >= 2

        await wait_until(run_twice)
        for record in twice:
            won = sum(e["amount"] for e in record["events"] if e["kind"] == "win")
            start = sum(s["starting_stack"] for s in record["seats"])
            assert sum(s["final_stack"] for s in record["seats"]) == start
            assert won > 0 and any(e["kind"] == "runouts" for e in record["events"])


@pytest.mark.slow
async def test_the_worker_command_stops_through_its_own_shutdown(server: Server) -> None:
    """SIGTERM: the worker closes its socket with the handshake completed, ends its lanes'
    processes (a search in flight is abandoned, not waited for: the server's deadline
    answers it), says it stopped, and exits 0 by itself, leaving no process behind."""
    env = {**os.environ, "AI_SHARED_SECRET": SECRET}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "showdown.cli", "worker", "--server", server.http,
        "--concurrency", "2", "--no-train", "--verbose",
        env=env,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip

    async def connected() -> bool:
        return int((await server.stats())["workers"]) >= 1

    try:
        await wait_until(connected, 300)  # a fresh clone compiles its kernels first
        lanes = _children(process.pid)
        assert len(lanes) >= 2, lanes  # the two lanes' processes
    finally:
        process.send_signal(signal.SIGTERM)
        try:  # a guard against a hung test only: the assertions are on what it did
            _, stderr = await asyncio.wait_for(process.communicate(), 120)
        except TimeoutError:
            process.kill()
            _, stderr = await process.communicate()
    text = stderr.decode()
    assert process.returncode == 0, text
    assert "> CLOSE 1000" in text and "< CLOSE 1000" in text, text  # the handshake, both ways
    assert "worker: stopped" in text and "Traceback" not in text, text
    assert not [pid for pid in lanes if _running(pid)], "a lane's process outlived the worker"


def _children(pid: int) -> list[int]:
    """The pool processes of `pid` (not multiprocessing's resource tracker, which leaves
    by itself once the worker's end of its pipe is closed)."""
    found: list[int] = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as children:
            found += [int(child) for child in children.read().split()]
    return [child for child in found if b"spawn_main" in _cmdline(child)]


def _cmdline(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            return cmdline.read()
    except FileNotFoundError:
        return b""


def _running(pid: int) -> bool:
    """Alive and not a zombie waiting to be reaped by init."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
