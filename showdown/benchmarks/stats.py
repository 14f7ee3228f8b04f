"""A player's profile with 100,000 stored hands: how fast the server answers it.

Fills a fresh embedded database itself: the statistics documents the server keeps
as hands are filed (backend.db.player_stats), for one player with `--stats-hands`
hands over four games, beside 200 other players for the leaderboard. The hands
are counted by holdem.stats from a few hundred seeded random hands played by the
rules core, each filed many times under new ids (counting 100,000 distinct hands
would take minutes and measure nothing more: the profile reads the summary).

Then starts the server (in this process, on a loopback port) and times, over
HTTP, what the profile page asks for: the statistics, the results graph, both at
once (the page's load), and the leaderboard. Prints p50 and p95 of each; the
target is the page's load at or under 200 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import secrets
import socket
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from pymongo import AsyncMongoClient

from backend.app import create_app
from backend.db.client import Mongo
from backend.db.embedded import EmbeddedMongo
from backend.db.player_stats import BLOCK_SIZES, SERIES, counter_inc, game_doc, stats_id
from backend.settings import Settings
from holdem.actions import Action
from holdem.cards import Deck
from holdem.config import TableConfig, Variant
from holdem.hand import Hand
from holdem.history import HandRecord, SeatRecord
from holdem.stats import PlayerHand, player_hands

PLAYER = "bench-player"
TARGET_MS = 200.0
GAMES = (
    TableConfig(variant=Variant.NO_LIMIT, seats=6, small_blind=50, big_blind=100),
    TableConfig(variant=Variant.NO_LIMIT, seats=6, small_blind=5, big_blind=10),
    TableConfig(variant=Variant.LIMIT, seats=6, small_blind=10, big_blind=20),
    TableConfig(variant=Variant.LIMIT, seats=6, small_blind=2, big_blind=4),
)


def random_hand(config: TableConfig, rng: random.Random, number: int) -> HandRecord:
    """A 6-handed hand of random legal actions, our player in seat 1."""
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
        table_id=f"bench-{number}",
        hand_no=1,
        config=config,
        button=hand.button,
        seats=[
            SeatRecord(
                seat=s,
                player_id=PLAYER if s == 1 else f"bench-opponent-{s}",
                name="Bench" if s == 1 else f"Opponent {s}",
                starting_stack=hand.starting_stacks[s],
                final_stack=result.final_stacks[s],
                hole_cards=hand.hole_cards[s],
            )
            for s in hand.seats
        ],
        events=list(hand.events),
        board=tuple(hand.board),
    )


def templates(seed: int, per_game: int = 100) -> list[PlayerHand]:
    rng = random.Random(seed)
    out = []
    for g, config in enumerate(GAMES):
        for i in range(per_game):
            record = random_hand(config, rng, g * per_game + i)
            out.append(next(p for p in player_hands(record) if p.player_id == PLAYER))
    return out


async def fill(url: str, hands: int, seed: int) -> None:
    mongo = Mongo(url, "showdown")
    await mongo.ensure_indexes()
    await mongo.close()
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(url, tz_aware=True)
    db = client["showdown"]
    facts = templates(seed)
    rng = random.Random(seed)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    summaries: dict[str, dict[str, Any]] = {}
    per_game_hands: dict[str, int] = {}
    fact_docs: list[dict[str, Any]] = []
    # The results blocks summed here, as `BlockSums` would have left them.
    blocks: dict[str, dict[str, Any]] = {}
    for n in range(hands):
        p = rng.choice(facts)
        key = stats_id(p.player_id, p.game)
        played = start + timedelta(seconds=30 * n)
        row = summaries.setdefault(
            key, {"_id": key, "player_id": PLAYER, "game": game_doc(p.game), "name": "Bench"}
        )
        for name, value in counter_inc(p).items():
            row[name] = row.get(name, 0) + value
        row["last_played_at"] = played
        per_game_hands[key] = per_game_hands.get(key, 0) + 1
        counts = p.counts.as_dict()
        for size in BLOCK_SIZES:
            block = (per_game_hands[key] - 1) // size
            doc = blocks.setdefault(
                f"{key}|{size}|{block}",
                {
                    "_id": f"{key}|{size}|{block}",
                    "player_id": PLAYER,
                    "game": game_doc(p.game),
                    "size": size,
                    "block": block,
                    "first_at": played,
                    "hands": 0,
                    **dict.fromkeys(SERIES, 0.0),
                },
            )
            doc["hands"] += 1
            doc["last_at"] = played
            for name in SERIES:
                doc[name] += counts[name]
        fact_docs.append(
            {
                "_id": f"bench-{n}|{PLAYER}",
                "player_id": PLAYER,
                "game": game_doc(p.game),
                "played_at": played,
                "net": p.net,
                "showdown": p.showdown,
                "allin_ev": p.allin_ev,
            }
        )
    for i in range(0, len(fact_docs), 10_000):
        await db.player_hand_stats.insert_many(fact_docs[i : i + 10_000], ordered=False)
    await db.player_results.insert_many(list(blocks.values()))
    others = []
    for i in range(200):
        p = rng.choice(facts)
        hands_played = rng.randint(50, 5000)
        others.append(
            {
                "_id": f"bench-other-{i}|{p.game.slug}",
                "player_id": f"bench-other-{i}",
                "name": f"Other {i}",
                "is_bot": i % 2 == 0,
                "game": game_doc(p.game),
                "hands": hands_played,
                "won_bb": rng.uniform(-20, 20) * hands_played / 100,
            }
        )
    await db.player_stats.insert_many([*summaries.values(), *others])
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
    print(f"stats: a player's profile with {hands:,} stored hands")
    with (
        tempfile.TemporaryDirectory(prefix="showdown-bench-stats-") as tmp,
        EmbeddedMongo(Path(tmp) / "mongo") as db,
    ):
        began = time.perf_counter()
        asyncio.run(fill(db.url, hands, seed))
        print(f"  filled in {time.perf_counter() - began:.1f} s")
        timings = asyncio.run(measure(db.url, rounds))
    for name, values in timings.items():
        print(
            f"  {name:12s} p50 {statistics.median(values):7.1f} ms"
            f"   p95 {_p(values, 0.95):7.1f} ms   ({len(values)} requests)"
        )
    load = statistics.median(timings["profile"])
    verdict = "within" if load <= TARGET_MS else "OVER"
    print(f"  profile page load p50 {load:.1f} ms: {verdict} the {TARGET_MS:.0f} ms target")
    return 0
