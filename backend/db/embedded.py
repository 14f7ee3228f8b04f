"""A local MongoDB-wire server (SecantusDB's `secantusd-py`) as a child process.

Used by `showdown serve` when no MONGODB_URL is given, and by the tests. The
child is killed with its parent (Linux parent-death signal, SIGKILL: SecantusDB's
SIGTERM handler can deadlock when signals arrive close together, and an orphan
left hanging keeps the data, its port and whatever pipe serve's stdout was), and a
pid file in the data directory lets a restart wait for a previous server on the
same data to exit first, so a killed `showdown serve` can be started again at once.

With a data directory it is protected: it listens on loopback only, requires
SCRAM-SHA-256 authentication (SecantusDB's `--auth`) with a user and password
generated once into `credentials.json` there, and the directory is 0700 with
files 0600 (the child runs with umask 077). SecantusDB provisions users only
over the wire, so the first start runs it briefly without `--auth` on a fresh
loopback port to create the user, then restarts it with `--auth`; any other
user found in the database (one slipped in during that moment) is dropped.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib.util
import json
import logging
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import TypeVar

from pymongo import MongoClient
from pymongo.collection import Collection
from pymongo.errors import OperationFailure, PyMongoError, ServerSelectionTimeoutError

from backend.db.half_created import drop_half_created_tables

log = logging.getLogger(__name__)

EXECUTABLE = "secantusd-py"
USER = "showdown"
_PR_SET_PDEATHSIG = 1
_LOOPBACK = ("127.0.0.1", "::1", "localhost")


class EmbeddedDatabaseError(RuntimeError):
    pass


class _ExitedDuringStartup(EmbeddedDatabaseError):
    pass


_LAUNCH_ATTEMPTS = 3
# A started child's answer is waited for this long at most, in tries of half a second
# with a check between them that it is still running: one that died is noticed at once.
_ANSWER_WAIT_S = 5.0
_ANSWER_TRY_MS = 500

_T = TypeVar("_T")


_EPHEMERAL_RANGE = Path("/proc/sys/net/ipv4/ip_local_port_range")
_LOWEST_PORT = 10000


def _ephemeral_low() -> int | None:
    """The lowest port Linux hands out to outgoing connections, if known."""
    try:
        return int(_EPHEMERAL_RANGE.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def free_port(host: str = "127.0.0.1") -> int:
    """A port nothing listens on, for a server about to start.

    Chosen below Linux's ephemeral range: a port from that range (what binding port 0
    returns) can be taken as the source port of any outgoing connection before the
    server binds it, or even be connected to itself by a client retrying it.
    """
    low = _ephemeral_low()
    if low is not None and low > _LOWEST_PORT + 1000:
        chooser = random.SystemRandom()
        for _ in range(100):
            port = chooser.randrange(_LOWEST_PORT, low)
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
                try:
                    sock.bind((host, port))
                except OSError:
                    continue
                return port
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        chosen: int = sock.getsockname()[1]
        return chosen


def die_with_parent(sig: int = signal.SIGTERM) -> None:  # pragma: no cover - in the child
    """Ask Linux to send `sig` to this process when its parent exits."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError):
            ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, sig)


def _database_child() -> None:  # pragma: no cover - runs in the child before exec
    # Its parent is gone without stopping it: that is a crash, which the storage
    # survives; a graceful stop is stop()'s job.
    die_with_parent(signal.SIGKILL)
    os.umask(0o077)  # every file it creates: owner only


def make_private(directory: Path) -> None:
    """`directory` (created if missing) 0700, and everything in it owner-only."""
    directory.mkdir(parents=True, exist_ok=True)
    directory.chmod(0o700)
    for root, dirs, files in os.walk(directory):
        for name in dirs:
            (Path(root) / name).chmod(0o700)
        for name in files:
            (Path(root) / name).chmod(0o600)


def write_private(path: Path, text: str) -> None:
    """Write `path` readable by its owner only, atomically (no window with other modes)."""
    temporary = path.with_name(path.name + ".tmp")
    with contextlib.suppress(FileNotFoundError):
        temporary.unlink()
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        file.write(text)
    temporary.replace(path)


def database_command() -> list[str]:
    """How to start the server: SecantusDB's, through `backend.db.secantus_child`."""
    if importlib.util.find_spec("secantus") is None:
        raise EmbeddedDatabaseError(
            f"{EXECUTABLE} not found: install the embedded-db extra "
            "(pip install -e '.[embedded-db]') or set MONGODB_URL"
        )
    return [sys.executable, "-m", "backend.db.secantus_child"]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class EmbeddedMongo:
    """Start with `start()` (or `with`); `url` is then the connection string."""

    def __init__(
        self,
        data_dir: Path | str | None,
        *,
        host: str = "127.0.0.1",
        port: int | None = None,
        test_commands: bool = False,
        startup_timeout: float = 30.0,
        auth: bool | None = None,
    ) -> None:
        if host not in _LOOPBACK:
            raise EmbeddedDatabaseError(
                f"the embedded database listens on loopback only, not {host}"
            )
        self.data_dir = Path(data_dir) if data_dir is not None else None
        self.host = host
        self.port = port or free_port(host)
        # Until it has once listened, a port we chose may move: no one was told it yet.
        self._port_may_move = port is None
        self.test_commands = test_commands
        self.startup_timeout = startup_timeout
        # Stored data is protected by a password; a throw-away in-memory one need not be.
        self.auth = self.data_dir is not None if auth is None else auth
        if self.auth and self.data_dir is None:
            raise EmbeddedDatabaseError("authentication needs a data directory for the credentials")
        self.process: subprocess.Popen[bytes] | None = None
        self._closed = False
        self.restarts = 0  # counted by whoever restarts it (showdown serve's supervisor)

    @property
    def address(self) -> str:
        """The URL without credentials: for logs and messages."""
        return f"mongodb://{self.host}:{self.port}"

    @property
    def url(self) -> str:
        """The connection string, with the credentials when authentication is on."""
        if not self.auth:
            return self.address
        password = self._credentials()
        if password is None:
            raise EmbeddedDatabaseError("the embedded database has not been started")
        return f"mongodb://{USER}:{password}@{self.host}:{self.port}/?authSource=admin"

    @property
    def _credentials_file(self) -> Path | None:
        return self.data_dir / "credentials.json" if self.data_dir is not None else None

    def _credentials(self) -> str | None:
        path = self._credentials_file
        if path is None or not path.exists():
            return None
        try:
            password = json.loads(path.read_text(encoding="utf-8"))["password"]
        except (ValueError, KeyError, TypeError):
            return None
        return password if isinstance(password, str) and password else None

    @property
    def _pid_file(self) -> Path | None:
        return self.data_dir / "secantusd.pid" if self.data_dir is not None else None

    def _wait_for_previous(self) -> None:
        """A server left by a killed parent is shutting down: let it release the data."""
        pid_file = self._pid_file
        if pid_file is None or not pid_file.exists():
            return
        try:
            pid = int(pid_file.read_text().strip())
        except ValueError:
            return
        deadline = time.monotonic() + 15
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)  # polling another process's exit: there is no event to wait on
        if _alive(pid):
            log.warning("previous embedded database still running; stopping it", extra={"pid": pid})
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)

    def start(self) -> EmbeddedMongo:
        """Start the server (provisioning its user the first time); blocks until it listens."""
        if self.data_dir is not None:
            make_private(self.data_dir)
            self._wait_for_previous()
        if not self.auth:
            self._launch(auth=False)
            return self
        if self._credentials() is None:
            self._provision()
        self._launch(auth=True)
        if not self._signed_in():
            # Our user is missing (the database files were replaced): provision again.
            self.stop()
            self._provision()
            self._launch(auth=True)
            if not self._signed_in():
                self.stop()
                raise EmbeddedDatabaseError("could not sign in to the embedded database")
        return self

    def _signed_in(self) -> bool:
        """`_only_our_user`, with a database that stops answering meanwhile (killed just
        after it listened) stopped and reported as not started, like any failed start."""
        try:
            return self._only_our_user()
        except PyMongoError as error:
            self.stop()
            raise EmbeddedDatabaseError(
                f"the embedded database stopped answering: {error}"
            ) from error

    def _provision(self) -> None:
        """Create our user on a server without `--auth`, reachable for a moment on loopback."""
        password = secrets.token_urlsafe(24)
        port, self.port = self.port, free_port(self.host)  # not where the server is expected
        self._launch(auth=False, port_may_move=True)

        def create(client: MongoClient[dict[str, object]]) -> None:
            with contextlib.suppress(OperationFailure):  # none yet
                client.admin.command("dropUser", USER)
            client.admin.command("createUser", USER, pwd=password, roles=["root"])

        try:
            self._ask(self.address, create)
        finally:
            self.stop()
            self.port = port
        path = self._credentials_file
        assert path is not None
        write_private(path, json.dumps({"user": USER, "password": password}))
        log.info("embedded database user created", extra={"credentials": str(path)})

    def _only_our_user(self) -> bool:
        """Sign in; drop every other user. False if our credentials are refused."""

        def drop_others(client: MongoClient[dict[str, object]]) -> None:
            users: Collection[dict[str, object]] = client.admin["system.users"]
            for doc in users.find({"_id": {"$ne": f"admin.{USER}"}}, {"_id": 1}):
                database, _, user = str(doc["_id"]).partition(".")
                log.warning("dropping an unknown database user", extra={"user": doc["_id"]})
                client[database].command("dropUser", user)

        try:
            self._ask(self.url, drop_others)
        except OperationFailure as error:
            if error.code == 18:  # AuthenticationFailed
                return False
            raise
        return True

    def _ask(self, url: str, request: Callable[[MongoClient[dict[str, object]]], _T]) -> _T:
        """`request` on a client of our child (repeatable: it may be sent again). A child
        that exits is noticed within a try, not after the whole wait (the selection
        timeout of a dead server's client is all it would otherwise learn)."""
        deadline = time.monotonic() + _ANSWER_WAIT_S
        while True:
            client: MongoClient[dict[str, object]]
            try:
                with MongoClient(url, serverSelectionTimeoutMS=_ANSWER_TRY_MS) as client:
                    return request(client)
            except ServerSelectionTimeoutError:
                exited = self.process is None or self.process.poll() is not None
                if exited or time.monotonic() >= deadline:
                    raise

    def _launch(self, *, auth: bool, port_may_move: bool | None = None) -> None:
        """Start the child; if it exits during start-up on a port we chose (another
        process took it since), start it on a newly chosen port, up to three times."""
        may_move = self._port_may_move if port_may_move is None else port_may_move
        for attempt in range(1, _LAUNCH_ATTEMPTS + 1):
            try:
                self._launch_once(auth=auth)
            except _ExitedDuringStartup as error:
                if attempt < _LAUNCH_ATTEMPTS and self._mended():
                    continue
                if not may_move or attempt == _LAUNCH_ATTEMPTS:
                    raise
                log.warning(
                    "embedded database exited during start-up; trying another port",
                    extra={"port": self.port, "error": str(error)},
                )
                self.port = free_port(self.host)
                continue
            if port_may_move is None:
                self._port_may_move = False
            return

    def _mended(self) -> bool:
        """After a start that failed: whether files a kill left half-written were mended."""
        return self.data_dir is not None and bool(drop_half_created_tables(self.data_dir / "db"))

    def _launch_once(self, *, auth: bool) -> None:
        if self._closed:
            raise EmbeddedDatabaseError("the embedded database was closed")
        storage = ":memory:"
        if self.data_dir is not None:
            storage = str(self.data_dir / "db")
        command = [
            *database_command(),
            "--host",
            self.host,
            "--port",
            str(self.port),
            "--storage-path",
            storage,
            "--log-level",
            "WARNING",
            # Not a single-node replica set: no oplog entry beside every write (a diff of
            # each updated document) and no retryable-write record per command, a
            # fifth of the database's CPU under table load
            # (docs/experiments/2026-11-27-one-process-bench-log.md).
            # Nothing here reads the oplog (no change streams, no transactions) and
            # journaling (j: true) is the same. The driver then retries no write itself:
            # a table's writes are idempotent and retried by its persister.
            "--standalone",
        ]
        if self.test_commands:
            command.append("--enable-test-commands")
        if auth:
            command.append("--auth")
        log.info("starting embedded database", extra={"url": self.address, "storage": storage})
        self.process = subprocess.Popen(  # noqa: S603 - our own executable, fixed arguments
            command,
            stdin=subprocess.DEVNULL,
            # Not serve's stdout: whoever reads it waits for every writer to close it.
            stdout=subprocess.DEVNULL,
            preexec_fn=_database_child,
            # Its own session: a Ctrl-C meant for us must not stop the database before
            # the server has written its last changes; stop() ends it afterwards.
            start_new_session=True,
        )
        if self._pid_file is not None:
            write_private(self._pid_file, str(self.process.pid))
        self._wait_until_listening()

    def _wait_until_listening(self) -> None:
        assert self.process is not None
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise _ExitedDuringStartup(
                    f"{EXECUTABLE} exited with code {self.process.returncode} during start-up"
                )
            if self._answers_hello():
                return
            time.sleep(0.05)  # the child gives no readiness signal but its answers
        self.stop()
        raise EmbeddedDatabaseError(f"{EXECUTABLE} did not listen within {self.startup_timeout}s")

    def _answers_hello(self) -> bool:
        """A database answers on our port: not merely an open port, which another
        process could hold (or a client connected to itself on it)."""
        client: MongoClient[dict[str, object]]
        try:
            with MongoClient(
                self.address,
                directConnection=True,
                serverSelectionTimeoutMS=500,
                connectTimeoutMS=500,
                socketTimeoutMS=500,
            ) as client:
                return bool(client.admin.command("hello").get("ok"))
        except PyMongoError:
            return False

    def stop(self, timeout: float = 15.0) -> None:
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            self._wait_waking_accept(process, timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if self._pid_file is not None:
            with contextlib.suppress(OSError):
                self._pid_file.unlink()

    def _wait_waking_accept(self, process: subprocess.Popen[bytes], timeout: float) -> None:
        """Wait for a terminated child to exit, connecting to its port meanwhile.

        SecantusDB's stop closes its listening socket and joins its accept thread for up
        to 2 s; a close does not wake a blocked accept() on Linux, so every stop took 2 s.
        A connection does: the thread sees the stop and exits (the child then refuses).
        """
        deadline = time.monotonic() + timeout
        while True:
            try:
                process.wait(0.05)
                return
            except subprocess.TimeoutExpired:
                if time.monotonic() >= deadline:
                    raise
            with contextlib.suppress(OSError):
                socket.create_connection((self.host, self.port), timeout=0.2).close()

    def close(self) -> None:
        """Stop for good: a restart still under way (another thread) launches nothing."""
        self._closed = True
        self.stop()

    def __enter__(self) -> EmbeddedMongo:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
