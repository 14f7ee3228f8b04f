"""`showdown bench cluster`: the server's bot load on 1, 2 and 4 nodes, beside one process.

Each configuration is a real room started as a user would (docs/cluster.md):
`showdown serve` alone (the anchor: `bench server`'s single process), then
`showdown serve --nodes N` for each N of `--nodes` (the launcher, nats-server, N
node processes), every one on an embedded database this bench starts (the same
for all, so only the nodes and the bus differ). The load is `bench server`'s:
tables of 5 fast bots dealing by themselves, spectators on sockets, plus one
player per table on a socket who checks or folds at once on each turn.

Sockets are spread as a round-robin web tier spreads them: a table's k-th
spectator on node k mod N; each player on a node that does NOT own its table, so every player's
command and every view it gets crosses the bus (gateway -> nats -> owner and
back). Figures per configuration:

- action-to-broadcast p50/p99 (the state's `at` to a spectator's receipt, as
  `bench server`), and the player's act-to-state round trip p50/p99;
- hands/s over all tables;
- server CPU seconds: every node, the launcher, nats-server and the database,
  from /proc (`proctree`), and the cores that makes over the window;
- tables served per core of server CPU (tables / cores used), at that p99.

The goal of issue #37: per core of server CPU, 2 and 4 nodes serve at least 90%
of the tables one node serves, at the same p99. On a 2-core host the nodes
share the same two cores with the client, so the p99 grows with the processes;
the figures say how much.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from showdown.benchmarks.proctree import TreeMeter
from showdown.benchmarks.room import SINGLE, Room
from showdown.benchmarks.server import Tally, _spectate, open_table, percentile

WARM_UP = 3.0  # seconds: connections settle and hands are under way before measuring
GOAL = 0.9  # per core, N nodes serve at least this share of one node's tables
TABLE = {"seats": 6, "bots": 5, "small_blind": 5, "big_blind": 10}


@dataclass
class Load:
    tables: int = 100
    clients: int = 500  # spectators
    players: bool = True  # one socket player per table, on a node that does not own it
    follow: bool = True  # sockets follow a move to the owner (4010); False: all relayed
    seconds: float = 20.0
    warm_up: float = WARM_UP  # shorter only where the figures are not judged (the tests)
    bot_delay_ms: int = 50
    hand_pause_ms: int = 200

    def env(self) -> dict[str, str]:
        return {
            "SHOWDOWN_BOTS_PLAY_ALONE": "1",
            "SHOWDOWN_BOT_DELAY_MS": str(self.bot_delay_ms),
            "SHOWDOWN_HAND_PAUSE_MS": str(self.hand_pause_ms),
            "SHOWDOWN_LOG_LEVEL": "WARNING",
            "SHOWDOWN_SEND_QUEUE_SIZE": "4096",
            "SHOWDOWN_SIGNIN_BURST": str(self.clients + self.tables + 10),
            "SHOWDOWN_TABLE_CREATE_BURST": str(self.tables + 10),
            "SHOWDOWN_ACTION_TIMEOUT": "60",  # a slow host must not fold the players by timer
        }


@dataclass
class Figures:
    name: str
    nodes: int  # 0: plain serve (the anchor)
    tables: int
    spectators: int
    players: int
    seconds: float
    hands: int
    hands_per_s: float
    p50_ms: float
    p90_ms: float
    p99_ms: float
    samples: int
    states_missed: int
    silent_spectators: int
    command_p50_ms: float  # a player's act until the state it caused
    command_p99_ms: float
    commands: int
    relayed_sockets: float  # share of sockets served over the bus (the owners' count)
    moved_sockets: float  # share of sockets sent to their table's owner when they opened
    tables_per_node: dict[str, int]
    cpu_seconds: dict[str, float]  # server (nodes + launcher), bus, database, total
    processes: dict[str, int]  # the processes counted in each
    cores_used: float
    tables_per_core: float
    cpu_ms_per_hand: float
    loop_lag_p99_ms: float  # the worst node's
    writes_per_hand: float  # the nodes' batch writers: writes, round trips, journal syncs
    round_trips_per_hand: float
    journal_syncs_per_hand: float
    client_cpu_share: float
    writes_by_kind: dict[str, float] = field(default_factory=dict)  # per hand, "lane.collection"
    database_ops_per_hand: dict[str, float] = field(default_factory=dict)  # its opcounters
    round_trips_by_lane: dict[str, float] = field(default_factory=dict)  # per hand


@dataclass
class Players:
    round_trips: list[float] = field(default_factory=list)
    measuring: bool = False


def _log(message: str) -> None:
    print(f"[bench cluster] {message}", file=sys.stderr, flush=True)


async def _play(url: str, token: str, buy_in: int, players: Players, stop: asyncio.Event) -> None:
    """A player at a table: takes a free seat, checks or folds at once on each turn."""
    ws, first = await open_table(url, token)

    async def received() -> AsyncIterator[bytes | str]:
        yield first
        while True:
            yield await ws.recv()

    async with ws:
        asked: int | None = None  # the seat asked for, until the table answers
        tried: set[int] = set()
        sent: float | None = None
        async for raw in received():
            if stop.is_set():
                break
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "error":
                asked = sent = None  # a seat taken, a turn gone: go on from the next state
                continue
            if kind != "state":
                continue
            view = message["view"]
            seat = view.get("viewer_seat")
            if seat is None:
                if asked is None:
                    taken = {s["seat"] for s in view["seats"]} | tried
                    free = [n for n in range(int(TABLE["seats"]), 0, -1) if n not in taken]
                    if free:
                        asked = free[0]
                        tried.add(asked)
                        sit = {"type": "sit", "seat": asked, "buy_in": buy_in}
                        await ws.send(json.dumps(sit))
                continue
            cause = message.get("cause") or {}
            if sent is not None and cause.get("kind") == "act" and cause.get("seat") == seat:
                if players.measuring and cause.get("by", "player") == "player":
                    players.round_trips.append((time.perf_counter() - sent) * 1000)
                sent = None
            if sent is None and view["hand_in_progress"] and view.get("actor") == seat:
                legal = view.get("legal_actions") or {}
                action = "check" if legal.get("can_check") else "fold"
                sent = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": action}))


def _ws(url: str, table_id: str, follow: bool) -> str:
    path = url.replace("http://", "ws://") + f"/ws/tables/{table_id}"
    return path + "?follow=1" if follow else path


async def measure(room: Room, load: Load, name: str) -> Figures:
    """Drive `load` on a started room and measure it."""
    import httpx

    nodes = sorted(room.urls)
    entry = room.urls[nodes[0]]
    tally, players, stop = Tally(), Players(), asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    meter = TreeMeter(room.roots)
    try:
        async with httpx.AsyncClient(base_url=entry, timeout=300) as http:
            limit = asyncio.Semaphore(8)

            async def guest(index: int) -> str:
                async with limit:
                    response = await http.post("/api/auth/guest", json={"name": f"v{index}"})
                    response.raise_for_status()
                    token: str = response.json()["token"]
                    return token

            host = await guest(-1)
            headers = {"Authorization": f"Bearer {host}"}
            viewers = await asyncio.gather(*(guest(i) for i in range(load.clients)))
            seated = await asyncio.gather(
                *(guest(10_000 + i) for i in range(load.tables if load.players else 0))
            )
            created: list[dict[str, Any]] = []
            for number in range(load.tables):  # one by one: placement counts each
                response = await http.post("/api/tables", json=TABLE, headers=headers)
                response.raise_for_status()
                created.append(response.json())
                if (number + 1) % 25 == 0:
                    _log(f"{name}: {number + 1} tables created")
        table_ids = [str(t["table_id"]) for t in created]
        owners = await room.owners(table_ids)
        per_node = {node: sum(1 for o in owners.values() if o == node) for node in nodes}
        _log(f"{name}: tables per node {per_node}")
        for index, token in enumerate(viewers):
            table_id = table_ids[index % len(table_ids)]
            # A table's spectators land on every node in turn, as behind a round-robin proxy.
            node = nodes[(index // len(table_ids)) % len(nodes)]
            tally.per_client.append(0)
            url = _ws(room.urls[node], table_id, load.follow)
            tasks.append(asyncio.create_task(_spectate(url, token, tally, index, stop)))
        for index, token in enumerate(seated):
            table = created[index]
            owner = owners.get(str(table["table_id"]), nodes[0])
            others = [n for n in nodes if n != owner] or nodes
            node = others[index % len(others)]
            url = _ws(room.urls[node], str(table["table_id"]), load.follow)
            buy_in = int(table["max_buy_in"])
            tasks.append(asyncio.create_task(_play(url, token, buy_in, players, stop)))
        await asyncio.sleep(load.warm_up)  # warm-up: the sockets settle, hands under way
        async with httpx.AsyncClient(timeout=60) as http:
            before = await _hands(http, room)
            _, writer_before = await _stats(http, room)
            ops_before = await _opcounters(room)
            gc.collect()
            gc.disable()  # the client's pauses would count as the server's latency
            tally.measuring = players.measuring = True
            meter.begin()
            client_before = time.process_time()
            started = time.perf_counter()
            await _progress(name, load.seconds, tally)
            meter.end()
            elapsed = time.perf_counter() - started
            client_used = time.process_time() - client_before
            tally.measuring = players.measuring = False
            gc.enable()
            after = await _hands(http, room)
            lag, writer_after = await _stats(http, room)
            ops_after = await _opcounters(room)
            # At the window's end: on a loaded host sockets still open after the warm-up.
            relayed, moved = await _relayed(http, room)
    finally:
        stop.set()
        for task in tasks:
            task.cancel()
        results = await asyncio.gather(*tasks, return_exceptions=True)
    failed = [r for r in results if isinstance(r, Exception) and not _closing(r)]
    if failed:
        _log(f"{name}: {len(failed)} sockets failed, e.g. {failed[0]!r}")
    hands = sum(after.get(t, 0) - before.get(t, 0) for t in after)
    lat, trips = tally.latencies, players.round_trips
    cpu = {**meter.used, "total": meter.total}
    cores = meter.total / elapsed

    def per_hand(counter: str) -> float:
        done = writer_after.get(counter, 0) - writer_before.get(counter, 0)
        return round(done / hands, 2) if hands else math.nan

    kinds = sorted(k for k in writer_after if k.startswith("writes."))
    ops = {k: round((ops_after[k] - ops_before.get(k, 0)) / hands, 2) for k in ops_after}

    return Figures(
        name=name,
        nodes=room.nodes,
        tables=load.tables,
        spectators=load.clients,
        players=len(seated),
        seconds=round(elapsed, 2),
        hands=hands,
        hands_per_s=round(hands / elapsed, 2),
        p50_ms=round(percentile(lat, 0.5), 2),
        p90_ms=round(percentile(lat, 0.9), 2),
        p99_ms=round(percentile(lat, 0.99), 2),
        samples=len(lat),
        states_missed=tally.gaps,
        silent_spectators=sum(1 for n in tally.per_client if n == 0),
        command_p50_ms=round(percentile(trips, 0.5), 2),
        command_p99_ms=round(percentile(trips, 0.99), 2),
        commands=len(trips),
        relayed_sockets=round(relayed / max(1, len(viewers) + len(seated)), 3),
        moved_sockets=round(moved / max(1, len(viewers) + len(seated)), 3),
        tables_per_node=per_node,
        cpu_seconds={k: round(v, 2) for k, v in cpu.items()},
        processes=meter.processes,
        cores_used=round(cores, 3),
        tables_per_core=round(load.tables / cores, 1) if cores else math.nan,
        cpu_ms_per_hand=round(1000 * meter.total / hands, 2) if hands else math.nan,
        loop_lag_p99_ms=lag,
        writes_per_hand=per_hand("writes"),
        round_trips_per_hand=per_hand("batches"),
        journal_syncs_per_hand=per_hand("commits"),
        client_cpu_share=round(client_used / elapsed, 3),
        writes_by_kind={k.removeprefix("writes."): per_hand(k) for k in kinds},
        database_ops_per_hand=ops if hands else {},
        round_trips_by_lane={
            "urgent": per_hand("urgent_batches"),
            "table": round(per_hand("table_batches") - per_hand("urgent_batches"), 2),
            "background": round(per_hand("batches") - per_hand("table_batches"), 2),
        },
    )


def _closing(error: BaseException) -> bool:
    return isinstance(error, asyncio.CancelledError) or type(error).__name__.startswith(
        "ConnectionClosed"
    )


async def _progress(name: str, seconds: float, tally: Tally) -> None:
    """The measurement window, with a line every few seconds."""
    step = 5.0
    started = time.perf_counter()
    while (left := seconds - (time.perf_counter() - started)) > 0:
        await asyncio.sleep(min(step, left))  # the window itself
        done = time.perf_counter() - started
        recent = tally.latencies[-2000:]
        _log(
            f"{name}: {done:.0f}/{seconds:.0f} s, {len(tally.latencies)} states timed, "
            f"recent p99 {percentile(recent, 0.99):.0f} ms"
        )


async def _hands(http: Any, room: Room) -> dict[str, int]:
    """Each table's hand number, from every node's lobby (a table listed twice: the max)."""
    hands: dict[str, int] = {}
    for url in room.urls.values():
        for table in (await http.get(f"{url}/api/tables")).json():
            table_id = str(table["table_id"])
            hands[table_id] = max(hands.get(table_id, 0), int(table["hand_no"]))
    return hands


async def _relayed(http: Any, room: Room) -> tuple[int, int]:
    """Sockets the owners serve over the bus now, and those moved to their owner at open."""
    if not room.nodes:
        return 0, 0
    relayed = moved = 0
    for url in room.urls.values():
        cluster = (await http.get(f"{url}/readyz")).json()["cluster"]
        relayed += int(cluster["relayed"])
        moved += int(cluster["moved"])
    return relayed, moved


async def _stats(http: Any, room: Room) -> tuple[float, dict[str, int]]:
    """The worst node's loop lag p99, and the database writers' counters summed over
    nodes (writes, round trips, syncs, and the writes by lane and collection)."""
    names = ("writes", "batches", "commits", "urgent_batches", "table_batches")
    worst, counters = 0.0, dict.fromkeys(names, 0)
    for url in room.urls.values():
        stats = (await http.get(f"{url}/api/stats")).json()
        worst = max(worst, float(stats["loop_lag"]["p99_ms"]))
        for name, value in stats["database"].items():
            if name in counters or name.startswith("writes."):
                counters[name] = counters.get(name, 0) + int(value)
    return round(worst, 2), counters


async def _opcounters(room: Room) -> dict[str, int]:
    """The database's operation counters: every process's writes and reads, those the
    nodes send by themselves (leases, takeover rounds, stamps) included."""
    from pymongo import AsyncMongoClient

    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(room.database_url)
    try:
        status = await client.admin.command("serverStatus")
    finally:
        await client.close()
    return {str(k): int(v) for k, v in status.get("opcounters", {}).items()}


def verdict(figures: list[Figures]) -> list[dict[str, Any]]:
    """Each cluster's tables per core against one node's, and its p99 against one node's.

    Two shares: tables / cores used as measured, and the same at an equal deal rate
    per table (one node's CPU per hand over the cluster's). The second decides: a
    server starved by the host deals slower, uses less CPU and so looks as if it
    served more tables per core on the first.
    """
    one = next((f for f in figures if f.nodes == 1), None)
    if one is None:
        return []
    found: list[dict[str, Any]] = []
    for f in figures:
        if f.nodes < 2:
            continue
        share = f.tables_per_core / one.tables_per_core
        paced = one.cpu_ms_per_hand / f.cpu_ms_per_hand
        same_p99 = f.p99_ms <= max(one.p99_ms * 1.1, 50.0)
        found.append(
            {
                "nodes": f.nodes,
                "tables_per_core_share": round(share, 3),
                "paced_share": round(paced, 3),
                "p99_ms": f.p99_ms,
                "one_node_p99_ms": one.p99_ms,
                "same_p99": same_p99,
                "met": paced >= GOAL and same_p99,
            }
        )
    return found


def _table(figures: list[Figures]) -> str:
    lines = [
        "| room | hands/s | p50 / p99 ms | act->state p50 / p99 ms | server CPU s "
        "(nodes+launcher / bus / db) | cores | tables per core | CPU ms/hand | relayed | moved |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for f in figures:
        cpu = f.cpu_seconds
        lines.append(
            f"| {f.name} | {f.hands_per_s:.1f} | {f.p50_ms:.0f} / {f.p99_ms:.0f} | "
            f"{f.command_p50_ms:.0f} / {f.command_p99_ms:.0f} | {cpu['total']:.1f} "
            f"({cpu['server']:.1f} / {cpu['bus']:.1f} / {cpu['database']:.1f}) | "
            f"{f.cores_used:.2f} | {f.tables_per_core:.0f} | {f.cpu_ms_per_hand:.1f} | "
            f"{100 * f.relayed_sockets:.0f}% | {100 * f.moved_sockets:.0f}% |"
        )
    return "\n".join(lines)


def report(figures: list[Figures], verdicts: list[dict[str, Any]]) -> str:
    load = figures[0]
    head = (
        f"bench cluster: {load.tables} tables of 5 bots + {load.players} socket players, "
        f"{load.spectators} spectators, {load.seconds:.0f} s each"
    )
    lines = [head, _table(figures)]
    for f in figures:
        lines.append(
            f"  {f.name}: tables per node {f.tables_per_node}, {f.states_missed} states missed, "
            f"{f.silent_spectators} silent spectators, worst loop lag p99 {f.loop_lag_p99_ms} ms, "
            f"client CPU {100 * f.client_cpu_share:.0f}% of a core; per hand {f.writes_per_hand} "
            f"writes, {f.round_trips_per_hand} round trips, {f.journal_syncs_per_hand} syncs"
        )
        kinds = ", ".join(f"{k} {v}" for k, v in f.writes_by_kind.items() if v >= 0.01)
        ops = ", ".join(f"{k} {v}" for k, v in f.database_ops_per_hand.items() if v >= 0.01)
        lines.append(f"    writes per hand by lane.collection: {kinds or '-'}")
        lanes = ", ".join(f"{k} {v}" for k, v in f.round_trips_by_lane.items())
        lines.append(f"    round trips per hand by lane: {lanes or '-'}")
        lines.append(f"    database operations per hand (every process): {ops or '-'}")
    for v in verdicts:
        met = "met" if v["met"] else "NOT met"
        lines.append(
            f"  goal ({v['nodes']} nodes, >= {GOAL:.0%} of one node's tables per core at the "
            f"same p99): {v['paced_share']:.0%} at an equal deal rate "
            f"({v['tables_per_core_share']:.0%} as measured), p99 {v['p99_ms']:.0f} ms "
            f"against one node's {v['one_node_p99_ms']:.0f} ms: {met}"
        )
    return "\n".join(lines)


def parse_nodes(text: str | None) -> list[int]:
    """`--nodes 1,2,4` -> [1, 2, 4]; a clear error for anything else."""
    try:
        counts = [int(part) for part in (text or "1,2,4").split(",") if part.strip()]
    except ValueError:
        raise SystemExit(f"--nodes: a comma-separated list of node counts, not {text!r}") from None
    if not counts or any(n < 1 or n > 16 for n in counts):
        raise SystemExit(f"--nodes: counts from 1 to 16, not {text!r}")
    return counts


async def bench(load: Load, counts: list[int], anchor: bool = True) -> list[Figures]:
    names = [(n, f"{n} node" + "s" * (n > 1)) for n in counts]
    configs = ([(0, "serve (anchor)")] if anchor else []) + names
    figures: list[Figures] = []
    with tempfile.TemporaryDirectory(prefix="showdown-cluster-bench-") as tmp:
        for nodes, name in configs:
            data = Path(tmp) / f"room-{nodes}"
            _log(f"{name}: starting")
            room = Room(data, nodes, load.env(), Path(tmp) / f"room-{nodes}.log")
            try:
                await room.start()
                _log(f"{name}: running ({len(room.urls)} processes serving), loading")
                figures.append(await measure(room, load, name))
            except BaseException:
                tail = room.log.read_text(errors="replace")[-3000:] if room.log.exists() else ""
                _log(f"{name}: failed; its log ends:\n{tail}")
                raise
            finally:
                await room.stop()
            f = figures[-1]
            _log(
                f"{name}: p50 {f.p50_ms:.0f} ms, p99 {f.p99_ms:.0f} ms, {f.hands_per_s:.1f} "
                f"hands/s, {f.cores_used:.2f} cores, {f.tables_per_core:.0f} tables per core"
            )
    return figures


def run(args: argparse.Namespace) -> int:
    import uvloop

    load = Load(
        tables=int(getattr(args, "tables", 100)),
        clients=int(getattr(args, "clients", 500)),
        players=not getattr(args, "no_players", False),
        follow=not getattr(args, "relay", False),
        seconds=float(getattr(args, "seconds", 20.0)),
        warm_up=float(getattr(args, "warm_up", WARM_UP)),
        bot_delay_ms=int(getattr(args, "bot_delay_ms", 50)),
        hand_pause_ms=int(getattr(args, "hand_pause_ms", 200)),
    )
    if load.tables < 1 or load.clients < 0 or load.seconds <= 0 or load.warm_up < 0:
        raise SystemExit(
            "bench cluster: --tables >= 1, --clients >= 0, --seconds > 0, --warm-up >= 0"
        )
    counts = parse_nodes(getattr(args, "nodes", None))
    figures = uvloop.run(bench(load, counts, anchor=not getattr(args, "no_anchor", False)))
    verdicts = verdict(figures)
    if getattr(args, "json", False):
        body = {"figures": [asdict(f) for f in figures], "goal": verdicts}
        print(json.dumps(body, indent=2))
    else:
        print(report(figures, verdicts))
    return 0


__all__ = ["SINGLE", "Figures", "Load", "bench", "measure", "parse_nodes", "run", "verdict"]
