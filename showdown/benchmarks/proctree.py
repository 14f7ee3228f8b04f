"""CPU seconds of process trees, from Linux /proc, split by what each process is.

The cluster benches count the server's whole cost: every node, the launcher,
the bus (nats-server) and the database, wherever they sit in the tree. A process
is classified by its command line; a process that exits between two readings
takes its CPU time with it (none does while a bench measures).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

KINDS = ("server", "bus", "database")


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process so far (None if it is gone or not on Linux)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """Direct children of `pid`, whichever of its threads started them."""
    found: list[int] = []
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return found
    for task in tasks:
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def tree(root: int) -> list[int]:
    """`root` and all its descendants."""
    pids, queue = [], [root]
    while queue:
        pid = queue.pop()
        pids.append(pid)
        queue += children(pid)
    return pids


def kind(pid: int) -> str:
    """server (a Python node, serve or the launcher), bus (nats-server) or database."""
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return "server"
    if "nats-server" in command:
        return "bus"
    if "secantus" in command or "mongod" in command:
        return "database"
    return "server"


@dataclass
class TreeMeter:
    """CPU seconds used by the trees under `roots` between `begin` and `end`, by kind."""

    roots: list[int]
    start: dict[int, tuple[str, float]] = field(default_factory=dict)
    used: dict[str, float] = field(default_factory=dict)
    processes: dict[str, int] = field(default_factory=dict)

    def _read(self) -> dict[int, tuple[str, float]]:
        readings: dict[int, tuple[str, float]] = {}
        for root in self.roots:
            for pid in tree(root):
                seconds = cpu_seconds(pid)
                if seconds is not None:
                    readings[pid] = (kind(pid), seconds)
        return readings

    def begin(self) -> None:
        self.start = self._read()

    def end(self) -> None:
        used = dict.fromkeys(KINDS, 0.0)
        processes = dict.fromkeys(KINDS, 0)
        for pid, (name, seconds) in self._read().items():
            before = self.start.get(pid, (name, 0.0))[1]  # started meanwhile: all of it
            used[name] += seconds - before
            processes[name] += 1
        self.used, self.processes = used, processes

    @property
    def total(self) -> float:
        return sum(self.used.values())
