"""A player's profile with 100,000 stored hands: how fast the server answers it.

Fills a fresh embedded database itself, through the server's own filing code
(backend.db.player_stats `PlayerStats.file_counted`, what `file_many` runs after
counting each hand), so the documents measured are the ones the server keeps:
one player with `--stats-hands` hands over four games, the other five seats of
each hand taken in turn by 200 other players (the leaderboard). The hands are a
few hundred seeded random hands played by the rules core, each counted once by
holdem.stats and filed again under new hand numbers and players for the rest
(counting 100,000 distinct hands would take minutes and measure nothing more:
the profile reads the summary). The first cycle files each distinct hand as it
is, so a small fill equals `file_many` of the same records (tests/test_bench_stats.py).

Then starts the server (in this process, on a loopback port) and times, over
HTTP, what the profile page asks for: the statistics, the results graph, both at
once (the page's load), and the leaderboard. Prints p50 and p95 of each; the
target is the page's load at or under 200 ms at p95, and the command exits 1
when it is over.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import random
import secrets
import socket
import statistics
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from pymongo import AsyncMongoClient

from backend.app import create_app
from backend.db.batch_writer import BatchWriter
from backend.db.client import Mongo
from backend.db.embedded import EmbeddedMongo
from backend.db.player_stats import Counted, PlayerStats
from backend.settings import Settings
from holdem.actions import Action
from holdem.cards import Deck
from holdem.config import TableConfig, Variant
from holdem.hand import Hand
from holdem.history import HandRecord, SeatRecord
from holdem.stats import player_hands

PLAYER = "bench-player"
TABLE = "bench"
OTHERS = 200  # players besides ours, for the leaderboard
TARGET_MS = 200.0
PER_GAME = 100  # distinct hands per game, counted once each
FILE_BATCH = 2_000  # hands per `file_counted`: the server's batches are smaller, not cheaper
START = datetime(2026, 1, 1, tzinfo=UTC)
GAMES = (
    TableConfig(variant=Variant.NO_LIMIT, seats=6, small_blind=50, big_blind=100),
    TableConfig(variant=Variant.NO_LIMIT, seats=6, small_blind=5, big_blind=10),
    TableConfig(variant=Variant.LIMIT, seats=6, small_blind=10, big_blind=20),
    TableConfig(variant=Variant.LIMIT, seats=6, small_blind=2, big_blind=4),
)


def seat_player(number: int, seat: int) -> tuple[str, str]:
    """Who sits in `seat` of the `number`-th hand (from 0): ours in seat 1, others in turn."""
    if seat == 1:
        return PLAYER, "Bench"
    other = (5 * number + seat - 2) % OTHERS
    return f"bench-other-{other}", f"Other {other}"


def random_hand(config: TableConfig, rng: random.Random, number: int) -> HandRecord:
    """A 6-handed hand of random legal actions: the `number`-th of the bench's table."""
    stacks = {s: config.max_buy_in for s in range(1, 7)}
    hand = Hand(config, stacks, button=rng.randint(1, 6), deck=Deck(seed=rng.randrange(2**32)))
    while (legal := hand.legal_actions()) is not None:
        kinds = legal.kinds
        kind = rng.choice(kinds)
        if kind in (Action.bet(0).kind, Action.raise_to(0).kind):
            low, high = legal.min_to or 0, legal.max_to or 0
            hand.act(legal.seat, Action(kind=kind, amount=rng.choice((low, low, high))))
        else:
            hand.act(legal.seat, Action(kind=kind))
    result = hand.result
    assert result is not None
    return HandRecord(
        table_id=TABLE,
        hand_no=number + 1,
        config=config,
        button=hand.button,
        seats=[
            SeatRecord(
                seat=s,
                player_id=seat_player(number, s)[0],
                name=seat_player(number, s)[1],
                starting_stack=hand.starting_stacks[s],
                final_stack=result.final_stacks[s],
                hole_cards=hand.hole_cards[s],
            )
            for s in hand.seats
        ],
        events=list(hand.events),
        board=tuple(hand.board),
    )


def templates(seed: int, per_game: int = PER_GAME, count: int | None = None) -> list[HandRecord]:
    """The distinct hands, the games taken in turn (so any first few cover all four); the
    first `count` of them when given (the same hands: they are dealt in order)."""
    rng = random.Random(seed)
    total = per_game * len(GAMES)
    wanted = total if count is None else min(total, count)
    return [random_hand(GAMES[n % len(GAMES)], rng, n) for n in range(wanted)]


def bench_hands(hands: int, seed: int, per_game: int = PER_GAME) -> Iterator[Counted]:
    """The hands the bench files, counted: each distinct hand as it was dealt, then again
    as a later hand of the table with that hand's players (the counts do not depend on
    who sat there; an all-in's sampled equity keeps its first deal's seed)."""
    # Fewer hands than distinct ones: only those are dealt and counted (counting is the cost).
    made = templates(seed, per_game, count=hands)
    distinct = [(record, player_hands(record)) for record in made]
    for n in range(hands):
        record, players = distinct[n % len(distinct)]
        played = START + timedelta(seconds=30 * n)
        if n < len(distinct):
            yield record, players, played
            continue
        who = {s.seat: seat_player(n, s.seat) for s in record.seats}
        seats = [
            s.model_copy(update={"player_id": who[s.seat][0], "name": who[s.seat][1]})
            for s in record.seats
        ]
        again = record.model_copy(update={"hand_no": n + 1, "seats": seats})
        renamed = [
            dataclasses.replace(p, player_id=who[p.seat][0], name=who[p.seat][1]) for p in players
        ]
        yield again, renamed, played


async def fill(url: str, hands: int, seed: int, per_game: int = PER_GAME) -> None:
    """File the bench's hands into a fresh database through the server's filing code."""
    mongo = Mongo(url, "showdown")
    await mongo.ensure_indexes()
    await mongo.close()
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(url, tz_aware=True)
    db = client["showdown"]
    writer = BatchWriter(db)
    stats = PlayerStats(db, writer)
    batch: list[Counted] = []
    try:
        for counted in bench_hands(hands, seed, per_game):
            batch.append(counted)
            if len(batch) == FILE_BATCH:
                await stats.file_counted(batch)
                batch = []
        if batch:
            await stats.file_counted(batch)
    finally:
        await writer.close()
        await client.close()


def _free_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    return sock


async def measure(url: str, rounds: int) -> dict[str, list[float]]:
    settings = Settings(
        mongodb_url=url,
        mongodb_db="showdown",
        secret_key=secrets.token_urlsafe(32),
        ai_shared_secret=secrets.token_urlsafe(16),
        frontend_dir=None,
        log_level="WARNING",
    )
    sock = _free_socket()
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(settings), log_level="warning"))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    timings: dict[str, list[float]] = {"stats": [], "results": [], "profile": [], "leaderboard": []}
    paths = {
        "stats": f"/api/players/{PLAYER}/stats",
        "results": f"/api/players/{PLAYER}/results",
        "leaderboard": "/api/leaderboard?min_hands=100",
    }
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            # The socket listens already: this waits in its backlog until the app is up.
            (await http.get("/healthz")).raise_for_status()
            for path in paths.values():
                (await http.get(path)).raise_for_status()  # warm: first-call costs aside
            for _ in range(rounds):
                for name, path in paths.items():
                    began = time.perf_counter()
                    (await http.get(path)).raise_for_status()
                    timings[name].append(1000 * (time.perf_counter() - began))
                began = time.perf_counter()
                answers = await asyncio.gather(http.get(paths["stats"]), http.get(paths["results"]))
                for answer in answers:
                    answer.raise_for_status()
                timings["profile"].append(1000 * (time.perf_counter() - began))
            total = (await http.get(paths["stats"])).json()["total"]["hands"]
            points = (await http.get(paths["results"])).json()["total"]
            print(f"  profile of {total:,} hands, graph of {points:,} points")
    finally:
        server.should_exit = True
        await task
        sock.close()
    return timings


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def run(args: argparse.Namespace) -> int:
    hands = int(getattr(args, "stats_hands", 100_000))
    rounds = int(getattr(args, "stats_rounds", 20))
    seed = int(getattr(args, "seed", 1))
    per_game = int(getattr(args, "stats_per_game", PER_GAME))
    print(f"stats: a player's profile with {hands:,} stored hands")
    with (
        tempfile.TemporaryDirectory(prefix="showdown-bench-stats-") as tmp,
        EmbeddedMongo(Path(tmp) / "mongo") as db,
    ):
        began = time.perf_counter()
        asyncio.run(fill(db.url, hands, seed, per_game))
        print(f"  filled in {time.perf_counter() - began:.1f} s")
        timings = asyncio.run(measure(db.url, rounds))
    for name, values in timings.items():
        print(
            f"  {name:12s} p50 {statistics.median(values):7.1f} ms"
            f"   p95 {_p(values, 0.95):7.1f} ms   ({len(values)} requests)"
        )
    target = float(getattr(args, "stats_target_ms", TARGET_MS))
    load = _p(timings["profile"], 0.95)
    within = load <= target
    print(
        f"  profile page load p95 {load:.1f} ms (p50 {statistics.median(timings['profile']):.1f}):"
        f" {'within' if within else 'OVER'} the {target:g} ms target"
    )
    return 0 if within else 1
