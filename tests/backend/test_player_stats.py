"""Player statistics through the real server: kept as hands are filed, the same as
counted from scratch over the stored hands; the REST endpoints on top."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from backend_testlib import (
    RunningServer,
    WsClient,
    create_table,
    guest,
    join,
    play_until_hand_over,
)

from backend.db import player_stats
from backend.db.batch_writer import BatchWriter
from backend.db.codec import hand_id, record_from_doc
from backend.db.player_stats import BLOCK_SIZES, SERIES, PlayerStats
from holdem.stats import COUNTER_NAMES, StatCounts, player_hands, ratios

HANDS = 12


def past(hand_no: int) -> Any:
    def check(state: dict[str, Any]) -> bool:
        view = state["view"]
        result = view["last_result"]
        return result is not None and result["hand_no"] >= hand_no

    return check


async def play_hands(server_factory: Any, **table: Any) -> tuple[RunningServer, str]:
    """A bots' table plays HANDS hands on one server; a second one (no dealing) reads them."""
    server: RunningServer = await server_factory(bots_play_alone=True)
    token, _ = await guest(server, "Watcher")
    created = await create_table(server, token, bots=3, seats=4, **table)
    watcher = await WsClient.connect(server.ws_url(f"/ws/tables/{created['table_id']}"))
    await watcher.send({"type": "auth", "token": token})
    await watcher.wait_state(past(HANDS), within=60)
    await watcher.close()
    await server.stop()  # every hand filed; those not counted yet kept for the next start
    reader: RunningServer = await server_factory()
    await reader.state.repos.hands.stats.drain()  # the kept hands, counted at its start
    return reader, created["table_id"]


def approx_row(row: dict[str, Any]) -> dict[str, Any]:
    return {k: pytest.approx(v) if isinstance(v, float) else v for k, v in row.items()}


async def test_kept_statistics_equal_those_counted_from_scratch(server_factory: Any) -> None:
    reader, _ = await play_hands(server_factory, small_blind=5, big_blind=10)
    db = reader.state.mongo.db
    records = [record_from_doc(doc["record"]) async for doc in db.hands.find({})]
    assert len(records) >= HANDS
    scratch = PlayerStats.summary_of(p for r in records for p in player_hands(r))
    kept = {
        doc["_id"]: {name: doc.get(name, 0) for name in COUNTER_NAMES}
        async for doc in db.player_stats.find({})
    }
    assert kept.keys() == scratch.keys() and len(kept) == 3  # the three bots, one game
    for key, row in scratch.items():
        assert kept[key] == approx_row(row), key
    # The results blocks sum to the same winnings (those of one hand are the hand's facts).
    stats = reader.state.repos.hands.stats
    for key, row in scratch.items():
        player_id = key.split("|")[0]
        for size in BLOCK_SIZES:
            blocks = await stats.blocks(player_id, size)
            assert sum(b["hands"] for b in blocks) == row["hands"]
            for name in SERIES:
                assert sum(b[name] for b in blocks) == pytest.approx(row[name]), name
        # A night of a few hands is drawn hand by hand, not as one line per 100 hands.
        async with httpx.AsyncClient(base_url=reader.http) as http:
            results = (await http.get(f"/api/players/{player_id}/results")).json()
        assert results["hands_per_point"] == 1
        assert [p["hands"] for p in results["items"]] == list(range(1, row["hands"] + 1))
        assert results["items"][-1]["won"] == pytest.approx(row["won"])
    # Facts that disagree with the summary (hands counted before the facts were the
    # blocks of one hand, or a crash between the two): the graph takes the next size.
    first = await db.player_hand_stats.find_one({"player_ids": player_id}, sort=[("played_at", 1)])
    assert first is not None
    await db.player_hand_stats.delete_one({"_id": first["_id"]})
    async with httpx.AsyncClient(base_url=reader.http) as http:
        results = (await http.get(f"/api/players/{player_id}/results")).json()
    assert results["hands_per_point"] == 10
    assert results["items"][-1]["hands"] == row["hands"]
    await db.player_hand_stats.insert_one(first)
    # Filing a hand again (a restart files its pending record again) counts nothing twice.
    before = [doc async for doc in db.player_stats.find({}).sort("_id", 1)]
    doc = await db.hands.find_one({})
    assert doc is not None
    await reader.state.repos.hands.insert(doc["record"])
    await reader.state.repos.hands.stats.drain()
    assert [doc async for doc in db.player_stats.find({}).sort("_id", 1)] == before


def test_a_graph_has_at_most_300_points_at_the_finest_size_that_allows_it() -> None:
    assert [player_stats.block_size_for(n) for n in (1, 40, 300, 301, 3000, 3001)] == [
        1,
        1,
        1,
        10,
        10,
        100,
    ]
    assert player_stats.block_size_for(100_000) == 1000
    # A hand is summed only into sizes some graph may still use; the coarsest always.
    assert player_stats.sizes_kept(40) == [1, 10, 100, 1000]
    assert player_stats.sizes_kept(301) == [10, 100, 1000]
    assert player_stats.sizes_kept(1_000_000) == [1000]
    for hands in (40, 301, 3001, 30_001):  # a graph's size has every one of its hands
        size = player_stats.block_size_for(hands)
        assert all(size in player_stats.sizes_kept(n) for n in range(1, hands + 1))


async def test_tables_say_when_their_hands_are_counted(server_factory: Any) -> None:
    """A `stats` message comes once the hand is counted, so a HUD fetching on it sees the
    hand; the hand's end is shown before that (counting never holds up a table)."""
    server: RunningServer = await server_factory(bots_play_alone=True)
    token, _ = await guest(server, "Watcher")
    created = await create_table(server, token, bots=3, seats=4, small_blind=5, big_blind=10)
    watcher = await join(server, created["table_id"], token)
    counted = await watcher.wait_type("stats", within=60)
    before = watcher.received[: watcher.received.index(counted)]
    ended = [
        m["view"]["last_result"]["hand_no"]
        for m in before
        if m.get("type") == "state" and m["view"]["last_result"]
    ]
    joined_in = next(m["view"]["hand_no"] for m in before if m.get("type") == "state")
    if counted["hand_no"] >= joined_in:  # a hand we watched: its end was shown first
        assert counted["hand_no"] in ended
    seated = {s["player_id"] for s in watcher.last_state()["view"]["seats"]}
    assert counted["player_ids"] and set(counted["player_ids"]) <= seated
    db = server.state.mongo.db
    upto = [hand_id(created["table_id"], n) for n in range(1, counted["hand_no"] + 1)]
    async with httpx.AsyncClient(base_url=server.http) as http:
        for player_id in counted["player_ids"]:
            # One facts document per hand, naming its players.
            mine = {"player_ids": player_id}
            last = {"hand_id": upto[-1], **mine}
            assert await db.player_hand_stats.find_one(last), player_id
            played = await db.player_hand_stats.count_documents({"hand_id": {"$in": upto}, **mine})
            # Every hand up to the message's is in the figures a HUD fetches now.
            body = (await http.get(f"/api/players/{player_id}/stats")).json()
            assert body["total"]["hands"] >= played >= 1
    later = await watcher.wait_type("stats", within=60)
    assert later["hand_no"] > counted["hand_no"]
    await watcher.close()


async def test_a_player_at_two_tables_is_counted_at_both(server: RunningServer) -> None:
    """Hands Alice plays at table A move her HUD at table B too: B's clients hear of it,
    named alone (B's other seats played nothing), with no hand of B's."""
    token, alice_id = await guest(server, "Alice")
    bob_token, _ = await guest(server, "Bob")
    table_a = await create_table(server, token, seats=3, bots=2, small_blind=5, big_blind=10)
    table_b = await create_table(server, token, seats=3, bots=0, small_blind=5, big_blind=10)
    # B has no one else: Alice sits there but no hand is dealt.
    at_b = await join(server, table_b["table_id"], token)
    await at_b.send({"type": "sit", "seat": 3, "buy_in": 800})
    await at_b.wait_state(lambda s: s["view"]["viewer_seat"] == 3)
    bob = await join(server, table_b["table_id"], bob_token)
    at_a = await join(server, table_a["table_id"], token)
    await at_a.send({"type": "sit", "seat": 3, "buy_in": 800})
    await play_until_hand_over(at_a, 1)
    told_a = await at_a.wait_type("stats", within=60)
    assert told_a["hand_no"] >= 1 and alice_id in told_a["player_ids"]
    told_b = await bob.wait_type("stats", within=60)
    assert told_b["hand_no"] is None and told_b["player_ids"] == [alice_id]
    assert bob.last_state()["view"]["hand_no"] == 0  # B dealt nothing
    async with httpx.AsyncClient(base_url=server.http) as http:
        body = (await http.get(f"/api/players/{alice_id}/stats")).json()
        assert body["total"]["hands"] >= 1
    for client in (at_a, at_b, bob):
        await client.close()


async def test_rest_stats_results_and_leaderboard(
    server_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Small results blocks: the graph of a few hands has several points to page through.
    monkeypatch.setattr(player_stats, "BLOCK_SIZES", (2, 5))
    reader, table_id = await play_hands(server_factory, small_blind=5, big_blind=10)
    db = reader.state.mongo.db
    records = [record_from_doc(doc["record"]) async for doc in db.hands.find({})]
    seat = records[0].seats[0]
    mine = [p for r in records for p in player_hands(r) if p.player_id == seat.player_id]
    expected = sum((p.counts for p in mine), StatCounts())
    async with httpx.AsyncClient(base_url=reader.http) as http:
        body = (await http.get(f"/api/players/{seat.player_id}/stats")).json()
        assert body["name"] == seat.name and body["is_bot"] is True
        assert body["total"]["hands"] == expected.hands == len(mine)
        assert body["total"]["figures"] == approx_row(ratios(expected))
        [line] = body["items"]
        assert line["game"]["stakes"] == "5/10" and line["game"]["variant"] == "no-limit"
        # The filters select nothing at other stakes or another game type.
        other = await http.get(f"/api/players/{seat.player_id}/stats?big_blind=20")
        assert other.json()["items"] == [] and other.json()["total"]["hands"] == 0
        limit = (await http.get(f"/api/players/{seat.player_id}/stats?variant=limit")).json()
        assert limit["items"] == []
        # The results graph ends at the player's total winnings.
        results = (await http.get(f"/api/players/{seat.player_id}/results")).json()
        assert results["hands_per_point"] == 2
        last = results["items"][-1]
        assert last["hands"] == len(mine)
        assert last["won"] == sum(p.net for p in mine)
        assert last["allin_ev"] == pytest.approx(sum(p.allin_ev for p in mine))
        assert last["won_showdown"] + last["won_no_showdown"] == last["won"]
        board = (await http.get("/api/leaderboard?variant=no-limit&min_hands=1")).json()
        assert len(board["items"]) == 3 and board["items"][0]["rank"] == 1
        per_100 = [row["bb_per_100"] for row in board["items"]]
        assert per_100 == sorted(per_100, reverse=True)
        assert sum(row["hands"] for row in board["items"]) == 3 * len(records)
        assert (await http.get(f"/api/leaderboard?min_hands={len(records) + 1}")).json()[
            "items"
        ] == []
        # Bad input: a clear error. Nobody by that id: 404.
        assert (await http.get("/api/leaderboard?variant=stud")).status_code == 422
        assert (await http.get(f"/api/players/{seat.player_id}/stats?limit=0")).status_code == 422
        bad_range = await http.get(
            f"/api/players/{seat.player_id}/results"
            "?since=2030-01-01T00:00:00Z&until=2020-01-01T00:00:00Z"
        )
        assert bad_range.status_code == 422
        assert (await http.get("/api/players/nobody/stats")).status_code == 404
        future = await http.get(f"/api/players/{seat.player_id}/results?since=2100-01-01T00:00:00Z")
        assert future.json()["items"] == []
        spec = (await http.get("/openapi.json")).json()["paths"]
        assert {
            "/api/players/{player_id}/stats",
            "/api/players/{player_id}/results",
            "/api/leaderboard",
            "/api/table-stats",
        } <= spec.keys()
        # Every one of them pages with limit and offset, and says how many there are.
        for path in spec:
            if path.startswith(("/api/players/", "/api/leaderboard", "/api/table-stats")):
                names = {p["name"] for p in spec[path]["get"]["parameters"]}
                assert {"limit", "offset"} <= names, path
        await check_pages(http, db, seat.player_id, table_id, results["items"])
        # The lobby's figures of the table, from the same hands counted again here.
        [figures] = (await http.get(f"/api/table-stats?table_id={table_id}")).json()["items"]
        pots = [sum(e.amount or 0 for e in r.events if e.kind == "win") for r in records]
        at_flop = [sum(p.counts.saw_flop for p in player_hands(r)) for r in records]
        flops = [n for n in at_flop if n]
        assert figures["hands"] == len(records)
        assert figures["average_pot"] == pytest.approx(sum(pots) / len(pots))
        if flops:
            assert figures["players_per_flop"] == pytest.approx(sum(flops) / len(flops))
        assert figures["hands_per_hour"] is None or figures["hands_per_hour"] > 0
        assert (await http.get("/api/table-stats")).json()["items"] == [figures]  # the open


async def check_pages(
    http: httpx.AsyncClient,
    db: Any,
    player_id: str,
    table_id: str,
    points: list[dict[str, Any]],
) -> None:
    """A later page (offset > 0) holds the next items, and `total` counts every page's."""
    # A second game for the player and two more tables, copied from the real documents.
    [summary] = [doc async for doc in db.player_stats.find({"player_id": player_id})]
    fewer = {**summary, "_id": f"{player_id}|other", "hands": 1}
    fewer["game"] = {**summary["game"], "small_blind": 10, "big_blind": 20}
    await db.player_stats.insert_one(fewer)
    for size in player_stats.BLOCK_SIZES:  # and its hand's results blocks
        block = await db.player_results.find_one({"player_id": player_id, "size": size})
        assert block is not None
        copy = {**block, "_id": f"{block['_id']}|other", "game": fewer["game"], "hands": 1}
        await db.player_results.insert_one({**copy, "block": 0})
    table = await db.table_stats.find_one({"_id": table_id})
    assert table is not None
    await db.table_stats.insert_many([{**table, "_id": "zz-1"}, {**table, "_id": "zz-2"}])

    stats = (await http.get(f"/api/players/{player_id}/stats?limit=1&offset=1")).json()
    assert stats["total_items"] == 2 and (stats["limit"], stats["offset"]) == (1, 1)
    [line] = stats["items"]  # most played first: the copy with one hand is second
    assert line["hands"] == 1 and line["game"]["stakes"] == "10/20"
    assert stats["total"]["hands"] == summary["hands"] + 1  # the total is every page's

    points = (await http.get(f"/api/players/{player_id}/results")).json()["items"]  # with it
    assert len(points) >= 3
    page = (await http.get(f"/api/players/{player_id}/results?limit=2&offset=1")).json()
    assert page["total"] == len(points) and page["items"] == points[1:3]

    leaders = (await http.get("/api/leaderboard?min_hands=1")).json()["items"]  # with the copy
    board = (await http.get("/api/leaderboard?min_hands=1&limit=1&offset=1")).json()
    assert board["total"] == len(leaders) == 3
    assert [row["rank"] for row in board["items"]] == [2]
    assert board["items"] == leaders[1:2]

    ids = "&".join(f"table_id={t}" for t in ("zz-2", table_id, "zz-1", "nowhere"))
    tables = (await http.get(f"/api/table-stats?{ids}&limit=1&offset=1")).json()
    assert tables["total"] == 3  # the tables asked for that have played, on every page
    assert [t["table_id"] for t in tables["items"]] == ["zz-1"]  # by table id
    rest = (await http.get(f"/api/table-stats?{ids}&limit=5&offset=2")).json()
    assert [t["table_id"] for t in rest["items"]] == ["zz-2"] and rest["total"] == 3
    assert (await http.get("/api/table-stats?offset=-1")).status_code == 422


async def test_hands_counted_in_one_batch_equal_those_counted_one_by_one(
    server_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The background task counts whatever is queued together: every stored hand counted
    again in one batch, twice over, into a fresh database gives the same documents."""
    # Small results blocks, so that the hands of one batch span several of them.
    monkeypatch.setattr(player_stats, "BLOCK_SIZES", (2, 5))
    reader, _ = await play_hands(server_factory, small_blind=5, big_blind=10)
    db = reader.state.mongo.db
    hands = [(doc["record"], doc["played_at"]) async for doc in db.hands.find({})]
    again = db.client[f"{db.name}_recount"]
    stats = PlayerStats(again, BatchWriter(again))
    await stats.file_many(hands + hands[:3])  # the repeats count nothing
    for name in ("player_stats", "player_results", "table_stats", "player_hand_stats"):
        kept = [doc async for doc in db[name].find({}).sort("_id", 1)]
        recount = [doc async for doc in again[name].find({}).sort("_id", 1)]
        assert len(recount) == len(kept) > 0, name
        if name == "player_results":
            assert len(kept) >= 3 * (HANDS // 2 + HANDS // 5)
        for a, b in zip(recount, kept, strict=True):
            assert a == approx_row(b), name
    # Counted again with the facts and summaries gone (as if lost): every block a hand
    # begins is inserted, finds itself stored, and is added to instead.
    before = {doc["_id"]: doc["hands"] async for doc in again.player_results.find({})}
    await again.player_hand_stats.drop()
    await again.player_stats.drop()
    await stats.file_many(hands)
    after = {doc["_id"]: doc["hands"] async for doc in again.player_results.find({})}
    assert after == {key: 2 * count for key, count in before.items()}


async def test_a_stop_keeps_the_hands_not_counted_and_the_next_start_counts_them(
    server_factory: Any,
) -> None:
    """A stop counts nothing more (a busy room's queue held its shutdown for seconds):
    the hands still queued are kept, and counted first after the next start, the same as
    if they had been counted at once."""
    reader, _ = await play_hands(server_factory, small_blind=5, big_blind=10)
    db = reader.state.mongo.db
    filed = [doc async for doc in db.hands.find({}).sort("played_at", 1)]
    again = db.client[f"{db.name}_kept"]
    await again.hands.insert_many(filed)
    stats = PlayerStats(again, BatchWriter(again))
    for doc in filed:
        stats.file_later(doc["record"], doc["played_at"])
    await stats.close()  # before the counting task took any: every hand is kept
    assert await again.player_hand_stats.count_documents({}) == 0
    kept = [doc async for doc in again[player_stats.BACKLOG].find({})]
    assert [doc["hands"] for doc in kept] == [[doc["_id"] for doc in filed]]

    started = PlayerStats(again, BatchWriter(again))
    assert await started.resume() == len(filed)
    await started.drain()
    for name in ("player_stats", "player_results", "table_stats", "player_hand_stats"):
        counted = [doc async for doc in db[name].find({}).sort("_id", 1)]
        recount = [doc async for doc in again[name].find({}).sort("_id", 1)]
        assert len(recount) == len(counted) > 0, name
        for a, b in zip(recount, counted, strict=True):
            assert a == approx_row(b), name
    assert await again[player_stats.BACKLOG].count_documents({}) == 0  # counted: forgotten
    await started.close()
    assert await again[player_stats.BACKLOG].count_documents({}) == 0  # nothing left to keep


async def test_players_without_hands_have_statistics_of_zero_hands(
    server: RunningServer,
) -> None:
    """A new table's HUDs ask for every seat at once: no 404 for a bot or a guest who has
    not played a hand yet (the browser logged one per bot); an unknown id is still 404."""
    token, player_id = await guest(server, "Newcomer")
    table = await create_table(server, token, seats=3, bots=2)
    bots = [seat for seat in table["view"]["seats"] if seat["player_id"] != player_id]
    assert len(bots) == 2
    async with httpx.AsyncClient(base_url=server.http) as http:
        for who, name, is_bot in [(player_id, "Newcomer", False)] + [
            (seat["player_id"], seat["name"], True) for seat in bots
        ]:
            stats = await http.get(f"/api/players/{who}/stats")
            assert stats.status_code == 200, stats.text
            body = stats.json()
            assert body["total"]["hands"] == 0 and body["items"] == []
            assert body["name"] == name and body["is_bot"] is is_bot
            results = await http.get(f"/api/players/{who}/results")
            assert results.status_code == 200 and results.json()["items"] == []
        assert (await http.get("/api/players/nobody/stats")).status_code == 404
