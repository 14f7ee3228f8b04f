"""`showdown bench faults` end to end: crashes in a loop under load, nothing lost; on nodes,
node kills and drains."""

from __future__ import annotations

import json
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


def test_bench_faults_on_nodes_kills_and_drains_nodes_and_loses_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["bench", "faults", "--nodes", "2", "--seconds", "1", "--fault-tables", "2"]
    assert main([*argv, "--seed", "3", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["problems"] == []
    assert (figures["nodes_killed"], figures["nodes_drained"]) == (1, 1)
    # Each fault hits a node holding a table: the killed one's and the drained one's move.
    assert figures["tables_moved"] >= 2
    assert figures["chips_lost"] == 0 and figures["hands_seen_finished_missing"] == 0
    assert figures["hands_played"] >= figures["hands_seen_finished"] > 0
    # A killed owner's tables wait for its lease (4 s) and a takeover round.
    assert 0 < figures["longest_pause_s"] < 30


def test_bench_faults_on_nodes_wants_one_node_count_of_two_or_more() -> None:
    for bad in ("1", "2,4", "many"):
        with pytest.raises(SystemExit, match="--nodes"):
            main(["bench", "faults", "--nodes", bad])
