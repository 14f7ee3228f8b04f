"""The process tree of `showdown serve`: embedded database, uvicorn, one AI worker child.

The embedded database is supervised: when it exits (crash, kill) it is started
again on the same port and data, and the server's driver reconnects by itself.
Meanwhile tables pause between hands (backend.realtime.runtime) and resume.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import signal
import socket
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import uvicorn

from backend import gc_policy
from backend.app import create_app
from backend.db.embedded import (
    EmbeddedMongo,
    die_with_parent,
    make_private,
    write_private,
)
from backend.settings import Settings

log = logging.getLogger(__name__)

WORKER_HEALTHY_AFTER = 10.0  # a worker that ran this long is restarted when it exits
DATABASE_BACKOFF_MAX = 5.0  # seconds between attempts to start the database again, at most
# Fault-injection runs (tests, `showdown bench faults`) arm the database's fail points;
# only its password-protected root user can.
DB_TEST_COMMANDS = "SHOWDOWN_DB_TEST_COMMANDS"
MAX_WS_MESSAGE = 256 * 1024  # the app enforces its own smaller limit on table sockets


class _Server(uvicorn.Server):
    """uvicorn, minus re-raising SIGINT/SIGTERM once it has shut down.

    uvicorn raises the signal again after its graceful shutdown, so the default
    handler ends the process there, before `serve` stops the worker and the
    database. The database was then left to its parent-death signal, with no
    one waiting for it to exit (and a second signal could hang its shutdown).
    Here the signal only asks uvicorn to exit, and `serve` returns normally.
    """

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield  # signals reach the main thread only
            return
        handled = (signal.SIGINT, signal.SIGTERM)
        previous = {sig: signal.signal(sig, self.handle_exit) for sig in handled}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


@dataclass(frozen=True)
class ServeOptions:
    host: str
    port: int
    data_dir: Path
    worker: bool = True


def _persistent_secrets(settings: Settings, data_dir: Path) -> Settings:
    """Secrets not configured are generated once and kept in the data directory.

    So tokens stay valid, and the local worker keeps its secret, across restarts.
    """
    if settings.secret_key and settings.ai_shared_secret:
        return settings
    path = data_dir / "secrets.json"
    stored: dict[str, str] = {}
    if path.exists():
        stored = json.loads(path.read_text(encoding="utf-8"))
    for key in ("secret_key", "ai_shared_secret"):
        stored.setdefault(key, secrets.token_urlsafe(32))
    make_private(data_dir)
    write_private(path, json.dumps(stored))
    return settings.model_copy(
        update={
            "secret_key": settings.secret_key or stored["secret_key"],
            "ai_shared_secret": settings.ai_shared_secret or stored["ai_shared_secret"],
        }
    )


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(False)
    return sock


async def _supervise_worker(url: str, settings: Settings) -> None:
    """Run `showdown worker`; restart it if it crashes after running a while."""
    env = {**os.environ, "AI_SHARED_SECRET": settings.ai_shared_secret}
    if settings.mongodb_url:
        env["MONGODB_URL"] = settings.mongodb_url
    command = [sys.executable, "-m", "showdown.cli", "worker", "--server", url]
    backoff = 1.0
    while True:
        started = time.monotonic()
        process = await asyncio.create_subprocess_exec(
            *command, env=env, stdin=asyncio.subprocess.DEVNULL, preexec_fn=die_with_parent
        )
        log.info("AI worker started", extra={"pid": process.pid})
        try:
            code = await process.wait()
        except asyncio.CancelledError:
            if process.returncode is None:
                process.terminate()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(process.wait(), 10)
                if process.returncode is None:
                    process.kill()
            raise
        ran = time.monotonic() - started
        if ran < WORKER_HEALTHY_AFTER:
            log.warning(
                "AI worker exited at once: the built-in fallback policy plays",
                extra={"code": code, "seconds": round(ran, 2)},
            )
            return
        log.warning("AI worker exited; restarting", extra={"code": code, "backoff": backoff})
        await asyncio.sleep(backoff)  # back-off before restarting a crashed worker
        backoff = min(backoff * 2, 30.0)


async def _supervise_database(database: EmbeddedMongo) -> None:
    """Start the embedded database again whenever it exits, until serve stops it."""
    while True:
        process = database.process
        if process is None:
            return
        code = await asyncio.to_thread(process.wait)
        if database.process is not process:
            return  # stopped on purpose
        log.error("embedded database exited: restarting it", extra={"code": code})
        backoff = 0.1
        while True:
            try:
                await asyncio.to_thread(database.start)
            except Exception as error:
                # Whatever stopped this start, the room needs its database: a supervisor
                # that died here (it once did, on a pymongo error) left it down for good.
                log.error(
                    "embedded database did not start",
                    extra={"error": f"{type(error).__name__}: {error}"},
                )
                await asyncio.sleep(backoff)  # back-off before the next attempt
                backoff = min(backoff * 2, DATABASE_BACKOFF_MAX)
                continue
            database.restarts += 1
            log.warning("embedded database restarted", extra={"restarts": database.restarts})
            break


async def serve(settings: Settings, options: ServeOptions) -> int:
    database: EmbeddedMongo | None = None
    settings = _persistent_secrets(settings, options.data_dir)
    if not settings.mongodb_url:
        database = EmbeddedMongo(
            options.data_dir / "mongo", test_commands=os.environ.get(DB_TEST_COMMANDS) == "1"
        ).start()
        settings = settings.model_copy(update={"mongodb_url": database.url})
    worker: asyncio.Task[None] | None = None
    collections: asyncio.Task[None] | None = None
    supervisor: asyncio.Task[None] | None = None
    if database is not None:
        supervisor = asyncio.create_task(_supervise_database(database))
    try:
        app = create_app(settings)
        if gc_policy.apply(settings.gc_full_every):
            collections = asyncio.create_task(gc_policy.full_collections(settings.gc_full_every))
        sock = _listen(options.host, options.port)
        port = sock.getsockname()[1]
        config = uvicorn.Config(
            app,
            log_config=None,
            ws="websockets-sansio",
            ws_max_size=MAX_WS_MESSAGE,
            ws_per_message_deflate=settings.ws_compression,
            timeout_graceful_shutdown=5,
            proxy_headers=False,  # X-Forwarded-*: only from TRUSTED_PROXIES (backend.proxies)
        )
        server = _Server(config)
        serving = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started and not serving.done():  # noqa: ASYNC110
            await asyncio.sleep(0.05)  # uvicorn offers no start-up event to wait on
        if serving.done():
            await serving
            return 1
        shown_host = "127.0.0.1" if options.host in ("0.0.0.0", "::", "") else options.host  # noqa: S104
        print(f"Showdown is running at http://{shown_host}:{port}/", flush=True)
        if options.worker:
            worker = asyncio.create_task(
                _supervise_worker(f"ws://{shown_host}:{port}/ws/ai", settings)
            )
        await serving
        return 0
    finally:
        began = time.perf_counter()
        for task in (worker, collections, supervisor):
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        stopped = time.perf_counter()
        if database is not None:
            database.close()
        log.info(
            "worker and database stopped",
            extra={
                "ms": round(1000 * (time.perf_counter() - began)),
                "worker_ms": round(1000 * (stopped - began)),
            },
        )
