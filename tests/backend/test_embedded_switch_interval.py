"""The embedded database's process runs SecantusDB with a short GIL switch interval.

Its commands run on threads behind one GIL; at the interpreter's 5 ms a journaled
table write waited behind the statistics' batches for several switch intervals
(docs/experiments/2026-11-29-database-switch-interval.md).
"""

from __future__ import annotations

import sys

import pytest
import secantus.cli

from backend.db import secantus_child
from backend.db.embedded import database_command


def test_the_database_is_started_through_the_child_module() -> None:
    assert database_command() == [sys.executable, "-m", "backend.db.secantus_child"]


def test_the_child_sets_the_switch_interval_before_serving(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[tuple[float, str]] = []

    def serve() -> int:  # stands in for the server's loop: records what it runs under
        seen.append((sys.getswitchinterval(), sys.argv[0]))
        return 3

    monkeypatch.setattr(secantus.cli, "main", serve)
    monkeypatch.setattr(sys, "argv", ["-m", "--port", "1"])
    before = sys.getswitchinterval()
    try:
        assert secantus_child.main() == 3
    finally:
        sys.setswitchinterval(before)
    assert seen == [(pytest.approx(secantus_child.SWITCH_INTERVAL), "secantusd-py")]
    assert before > secantus_child.SWITCH_INTERVAL  # shorter than the interpreter's 5 ms
