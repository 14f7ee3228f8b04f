"""`showdown bench cluster` run tiny: one process, then two nodes and the bus, real processes.

The figures are not judged here (a shared host moves them), only that each is there
and sane: hands were played, latencies are measured, CPU was counted for the nodes,
the bus and the database, and sockets did cross the bus.
"""

from __future__ import annotations

import json
import math

import pytest

from showdown.benchmarks.cluster import parse_nodes
from showdown.cli import main

pytestmark = pytest.mark.slow


def test_bench_cluster_measures_one_process_and_two_nodes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A short warm-up and window: the figures are not judged here, only that each is there.
    argv = ["bench", "cluster", "--nodes", "2", "--tables", "2", "--clients", "4"]
    assert main([*argv, "--seconds", "2", "--warm-up", "1", "--json"]) == 0
    body = json.loads(capsys.readouterr().out)
    anchor, two = body["figures"]
    assert (anchor["name"], anchor["nodes"], two["nodes"]) == ("serve (anchor)", 0, 2)
    for figures in (anchor, two):
        assert figures["hands"] > 0 and figures["hands_per_s"] > 0
        assert figures["samples"] > 0 and 0 <= figures["p50_ms"] <= figures["p99_ms"]
        assert figures["commands"] > 0 and figures["command_p99_ms"] >= figures["command_p50_ms"]
        assert figures["players"] == 2 and figures["states_missed"] == 0
        assert figures["silent_spectators"] == 0
        assert figures["cpu_seconds"]["server"] > 0 and figures["cpu_seconds"]["database"] > 0
        assert figures["cores_used"] > 0 and math.isfinite(figures["tables_per_core"])
        assert sum(figures["tables_per_node"].values()) == 2
        assert figures["writes_per_hand"] >= figures["round_trips_per_hand"] > 0
        # The writes by lane and collection add up to them; the database counted its own.
        by_kind = figures["writes_by_kind"]
        assert by_kind["urgent.tables"] > 0 and by_kind["urgent.live_hands"] > 0
        assert sum(by_kind.values()) == pytest.approx(figures["writes_per_hand"], abs=0.1)
        assert figures["database_ops_per_hand"]["update"] > 0
        assert figures["round_trips_by_lane"]["urgent"] > 0
    assert anchor["relayed_sockets"] == anchor["moved_sockets"] == 0
    assert anchor["cpu_seconds"]["bus"] == 0
    assert anchor["processes"] == {"server": 1, "bus": 0, "database": 1}
    # The launcher and its two nodes, nats-server, the database: all counted.
    assert two["processes"] == {"server": 3, "bus": 1, "database": 1}
    # Placement puts one table on each node; half the spectators and every player open
    # on the other node and are sent to the owner: none relayed.
    assert two["tables_per_node"] == {"n0": 1, "n1": 1}
    assert two["moved_sockets"] > 0.5 and two["relayed_sockets"] == 0
    assert body["goal"] == []  # no one-node run to hold two nodes against


def test_bench_cluster_relays_the_sockets_that_do_not_follow(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["bench", "cluster", "--nodes", "2", "--tables", "2", "--clients", "4", "--relay"]
    assert main([*argv, "--no-anchor", "--seconds", "2", "--warm-up", "1", "--json"]) == 0
    (two,) = json.loads(capsys.readouterr().out)["figures"]
    assert two["hands"] > 0 and two["states_missed"] == 0 and two["silent_spectators"] == 0
    assert two["relayed_sockets"] > 0.5 and two["moved_sockets"] == 0


def test_node_counts_are_a_list_of_small_numbers() -> None:
    assert parse_nodes(None) == [1, 2, 4]
    assert parse_nodes("1,3") == [1, 3]
    for bad in ("two", "0", "1,,x", "64"):
        with pytest.raises(SystemExit, match="--nodes"):
            parse_nodes(bad)
