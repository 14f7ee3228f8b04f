"""`showdown bench engine|server|ai|stats|advice|allin|all|faults|relay|cluster`: figures here.

`faults` is not a speed figure and not part of `all`: it crashes the database,
the server and the AI workers in a loop under load and checks nothing was lost.
"""

from __future__ import annotations

import argparse
import importlib

from showdown.commands import Subparsers, parser_for

# target name -> "module:function" taking the parsed args and printing its figures
TARGETS: dict[str, str] = {
    "engine": "showdown.benchmarks.engine:run",
    "ai": "showdown.benchmarks.ai:run",
    "server": "showdown.benchmarks.server:run",
    "stats": "showdown.benchmarks.stats:run",
    "advice": "showdown.benchmarks.advice:run",
    "allin": "showdown.benchmarks.allin:run",
}
CHECKS: dict[str, str] = {
    "ai-relay": "showdown.benchmarks.ai_relay:run",  # starts `serve --nodes 2`: not in all
    "faults": "showdown.benchmarks.faults:run",
    "tournament": "showdown.benchmarks.tournament:run",  # runs to the end, not timed
    "relay": "showdown.benchmarks.relay:run",  # starts `serve --nodes 2`: not part of all
    "cluster": "showdown.benchmarks.cluster:run",  # serve, then serve --nodes 1, 2, 4
}


def add_parser(subparsers: Subparsers) -> None:
    parser = parser_for(
        subparsers, "bench", "Measure speed: the rules engine, the server, the AI (prints figures)."
    )
    parser.add_argument("target", choices=[*TARGETS, "all", *CHECKS], help="what to measure")
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--agreement-hands",
        type=int,
        default=1_000_000,
        help="ai: random hands compared with pkrbot",
    )
    server = parser.add_argument_group("server")
    server.add_argument("--tables", type=int, default=100, help="tables of fast bots")
    server.add_argument("--clients", type=int, default=500, help="connected spectator clients")
    server.add_argument("--bot-delay-ms", type=int, default=50, help="bot thinking delay")
    server.add_argument("--hand-pause-ms", type=int, default=200, help="pause between hands")
    server.add_argument(
        "--profile",
        default=None,
        metavar="PATH",
        help="server: sample the server's CPU over the measurement window into PATH "
        "(collapsed stacks) and PATH.summary",
    )
    cluster = parser.add_argument_group("cluster (the server's load on nodes; faults: node kills)")
    cluster.add_argument(
        "--nodes",
        default=None,
        help="cluster: node counts to measure (default 1,2,4); faults: run on N nodes and "
        "kill and drain nodes (default: one process, no bus)",
    )
    cluster.add_argument("--json", action="store_true", help="cluster, faults --nodes: print JSON")
    cluster.add_argument(
        "--no-anchor", action="store_true", help="cluster: skip the one-process serve run"
    )
    cluster.add_argument(
        "--no-players", action="store_true", help="cluster: spectators only, no socket players"
    )
    cluster.add_argument(
        "--warm-up",
        type=float,
        default=3.0,
        help="cluster: seconds the sockets settle and hands get under way before each "
        "measurement (default 3)",
    )
    cluster.add_argument(
        "--relay",
        action="store_true",
        help="cluster: sockets stay on the node they open on (every one not on its table's "
        "owner relayed over the bus) instead of following a move to the owner",
    )
    faults = parser.add_argument_group("faults (--seconds: how long to inject them)")
    faults.add_argument("--fault-tables", type=int, default=4, help="tables of bots")
    faults.add_argument("--workers", type=int, default=1, help="AI worker processes")
    stats = parser.add_argument_group("stats (a player's profile)")
    stats.add_argument("--stats-hands", type=int, default=100_000, help="the player's hands")
    stats.add_argument("--stats-rounds", type=int, default=20, help="requests of each kind")
    stats.add_argument(
        "--stats-per-game",
        type=int,
        default=100,
        help="distinct hands per game (4 games), counted once; the rest are filed again",
    )
    stats.add_argument(
        "--stats-target-ms",
        type=float,
        default=200.0,
        help="the profile's load at p95 above this exits 1",
    )
    tournament = parser.add_argument_group("tournament (a sit-and-go of 6, then an MTT)")
    tournament.add_argument("--mtt-players", type=int, default=100, help="bots in the MTT")
    advice = parser.add_argument_group("advice (end to end through serve and its worker)")
    advice.add_argument("--advice", type=int, default=60, help="advice queries to time")
    advice.add_argument("--game", choices=["no-limit", "limit"], default="no-limit")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    names = list(TARGETS) if args.target == "all" else [args.target]
    for name in names:
        target = {**TARGETS, **CHECKS}[name]
        if name == "faults" and args.nodes:  # a cluster: node kills and drains
            target = "showdown.benchmarks.node_faults:run"
        module_name, function = target.split(":")
        code: int = getattr(importlib.import_module(module_name), function)(args)
        if code:
            return code
    return 0
