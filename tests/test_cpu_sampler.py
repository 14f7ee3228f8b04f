"""The CPU sampler: samples land where the CPU is spent, and the wrapper runs a module."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from showdown.benchmarks.cpu_sampler import Sampler


def _spin(rounds: int) -> int:
    total = 0
    for i in range(rounds):
        total += i * i % 7
    return total


def _spin_more(rounds: int) -> int:
    return _spin(rounds) + _spin(rounds)


def test_samples_count_cpu_in_the_running_function(tmp_path: Path) -> None:
    sampler = Sampler(interval=0.001)
    sampler.start()
    try:
        # An iteration budget, not a time budget: enough CPU for well over 100 samples.
        while sum(sampler.stacks.values()) < 100:
            _spin_more(200_000)
    finally:
        sampler.stop()
    in_spin = sum(n for stack, n in sampler.stacks.items() if stack[-1].co_name == "_spin")
    assert in_spin >= 0.8 * sum(sampler.stacks.values())
    out = tmp_path / "profile.txt"
    sampler.write(out)
    lines = out.read_text().splitlines()
    assert lines and all(line.rsplit(" ", 1)[1].isdigit() for line in lines)
    assert any(line.split(";")[-1].startswith("_spin (") for line in lines)
    summary = (tmp_path / "profile.txt.summary").read_text()
    assert "_spin_more (" in summary and "-- own" in summary


def test_wrapper_samples_between_the_signals(tmp_path: Path) -> None:
    """The wrapped module runs as __main__; SIGUSR1..SIGUSR2 write the profile."""
    module = tmp_path / "busy.py"
    module.write_text(
        "import os, signal, sys\n"
        "def busy():\n"
        "    total = 0\n"
        "    for i in range(3_000_000):\n"
        "        total += i % 7\n"
        "    return total\n"
        "if __name__ == '__main__':\n"
        "    assert sys.argv[1:] == ['x']\n"
        "    os.kill(os.getpid(), signal.SIGUSR1)\n"
        "    busy()\n"
        "    os.kill(os.getpid(), signal.SIGUSR2)\n"
    )
    out = tmp_path / "busy.prof"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "showdown.benchmarks.cpu_sampler",
            str(out),
            "--",
            "-m",
            "busy",
            "x",
        ],
        env=env,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    assert "busy (" in out.read_text()
