"""`showdown bench stats`: fills a database with a player's hands and times the profile."""

from __future__ import annotations

import re

import pytest

from showdown.cli import main


def test_bench_stats_prints_the_profile_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "stats", "--stats-hands", "450", "--stats-rounds", "2"]) == 0
    out = capsys.readouterr().out
    # The server answered with every hand filled in, in points of 100 hands.
    assert "profile of 450 hands, graph of" in out, out
    for name in ("stats", "results", "profile", "leaderboard"):
        assert re.search(rf"{name} +p50 +[0-9.]+ ms +p95 +[0-9.]+ ms +\(2 requests\)", out), out
    assert "profile page load p50" in out
