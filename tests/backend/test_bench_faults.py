"""`showdown bench faults` end to end: crashes in a loop under load, nothing lost."""

from __future__ import annotations

import re

import pytest

from showdown.cli import main

pytestmark = pytest.mark.slow


def test_bench_faults_survives_its_crashes_and_loses_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["bench", "faults", "--seconds", "4", "--fault-tables", "2", "--workers", "0"]
    assert main([*argv, "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "PROBLEM" not in out, out
    assert re.search(r"chips lost:\s+0\n", out), out
    restarts = re.search(r"restarts survived:\s+(\d+) \(database (\d+), server (\d+)", out)
    assert restarts is not None and int(restarts.group(1)) >= 1, out
    hands = re.search(r"hands played \(stored\):\s+(\d+)", out)
    assert hands is not None and int(hands.group(1)) > 0, out
