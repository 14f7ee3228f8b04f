"""`showdown bench stats`: fills a database with a player's hands and times the profile."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from typing import Any

import pytest
from pymongo import AsyncMongoClient

from backend.db.batch_writer import BatchWriter
from backend.db.codec import record_to_doc
from backend.db.embedded import EmbeddedMongo
from backend.db.player_stats import PlayerStats
from holdem.stats import player_hands
from showdown.benchmarks.stats import PLAYER, bench_hands, fill
from showdown.cli import main

COLLECTIONS = ("player_stats", "player_results", "table_stats", "player_hand_stats")

# Every test here starts an embedded database, most of them inside `showdown bench stats`.
pytestmark = pytest.mark.integration


def test_bench_stats_prints_the_profile_figures(capsys: pytest.CaptureFixture[str]) -> None:
    # A target no machine misses: the figures are printed whatever this machine's speed.
    # 40 distinct hands (counting them is the cost), filed again up to 450.
    args = ["bench", "stats", "--stats-hands", "450", "--stats-rounds", "2"]
    args += ["--stats-per-game", "10"]
    assert main([*args, "--stats-target-ms", "100000"]) == 0
    out = capsys.readouterr().out
    # The server answered with every hand filled in, in points of 100 hands.
    assert "profile of 450 hands, graph of" in out, out
    for name in ("stats", "results", "profile", "leaderboard"):
        assert re.search(rf"{name} +p50 +[0-9.]+ ms +p95 +[0-9.]+ ms +\(2 requests\)", out), out
    assert re.search(r"profile page load p95 [0-9.]+ ms .*: within the 100000 ms target", out), out


def test_bench_stats_exits_1_over_the_target(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["bench", "stats", "--stats-hands", "40", "--stats-rounds", "2"]
    args += ["--stats-per-game", "2"]  # 8 distinct hands counted: only the exit is checked
    assert main([*args, "--stats-target-ms", "0.001"]) == 1
    assert "OVER the 0.001 ms target" in capsys.readouterr().out


async def _documents(url: str) -> dict[str, list[dict[str, Any]]]:
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(url, tz_aware=True)
    try:
        db = client["showdown"]
        return {name: [d async for d in db[name].find({}).sort("_id", 1)] for name in COLLECTIONS}
    finally:
        await client.close()


async def _file_many(url: str, hands: int, per_game: int) -> None:
    """The server's path: each stored record counted by `file_many` itself."""
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(url, tz_aware=True)
    db = client["showdown"]
    writer = BatchWriter(db)
    filed = [(record_to_doc(r), at) for r, _, at in bench_hands(hands, 1, per_game)]
    try:
        await PlayerStats(db, writer).file_many(filed)
    finally:
        await writer.close()
        await client.close()


def _approx(doc: dict[str, Any]) -> dict[str, Any]:
    return {k: pytest.approx(v) if isinstance(v, float) else v for k, v in doc.items()}


def test_the_bench_files_what_the_server_would() -> None:
    """The bench's documents are those `file_many` keeps for the same hands."""
    # Every distinct hand once, each game eleven times: the player has more than ten hands
    # of each game, so blocks of ten are stored (with fewer, the summary is the block).
    hands, per_game = 44, 11
    # In memory: what is filed is compared, not how it is stored (a stored database's
    # first start also creates its user, a second start of its own).
    with EmbeddedMongo(None) as bench, EmbeddedMongo(None) as server:
        asyncio.run(fill(bench.url, hands, 1, per_game))
        asyncio.run(_file_many(server.url, hands, per_game))
        ours, theirs = asyncio.run(_documents(bench.url)), asyncio.run(_documents(server.url))
    for name in COLLECTIONS:
        assert len(ours[name]) == len(theirs[name]) > 0, name
        for a, b in zip(ours[name], theirs[name], strict=True):
            assert a == _approx(b), name
    games = {d["game"]["big_blind"] for d in ours["player_stats"] if d["player_id"] == PLAYER}
    assert len(games) == 4


def test_a_hand_filed_again_counts_as_that_hand_would() -> None:
    """Past the distinct hands, the bench files them again under new hand numbers and
    players with their first counts: what holdem.stats gives the new record, but for an
    all-in's equity sampled preflop (a seeded estimate: its seed is the first deal's)."""
    distinct = 8
    again = list(bench_hands(3 * distinct, 1, per_game=distinct // 4))[distinct:]
    assert len({r.hand_no for r, _, _ in again}) == len(again)
    for record, players, _ in again:
        fresh = player_hands(record)
        assert [p.player_id for p in players] == [s.player_id for s in record.seats]
        for ours, theirs in zip(players, fresh, strict=True):
            aside = {"allin_ev": 0.0}
            counts = dataclasses.replace(ours.counts, allin_ev=0.0, allin_ev_bb=0.0)
            fresh_counts = dataclasses.replace(theirs.counts, allin_ev=0.0, allin_ev_bb=0.0)
            assert dataclasses.replace(ours, counts=counts, **aside) == dataclasses.replace(
                theirs, counts=fresh_counts, **aside
            )
