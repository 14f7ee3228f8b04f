"""One process (`showdown serve`, no bus) restarted mid-tournament: each table goes on
with its own hand numbers, and the director counts the hands its lost writes never
stored from them (a level by hands reads that count).

The real server in this process, on the real embedded database: a tournament of bots
plays some hands; the server stops; the stored director is put back to what a kill that
lost its writes since each table's first hand leaves (the tables' stores, written before
anyone is shown a hand's end, are ahead of it); a new server on the same database (its
tables deal no hand: a ten-minute pause) counts each table's hands up to its last filed
one. Before, a restart resynced the stacks only and the hands stayed lost.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest
from backend_testlib import RunningServer, guest
from pymongo import AsyncMongoClient
from pymongo.asynchronous.database import AsyncDatabase

from backend.db.codec import Document
from backend.settings import Settings

pytestmark = pytest.mark.slow

LEVEL_HANDS = 3


@pytest.fixture
async def db(make_settings: Callable[..., Settings]) -> AsyncIterator[AsyncDatabase[Document]]:
    settings = make_settings()
    client: AsyncMongoClient[Document] = AsyncMongoClient(settings.mongodb_url, tz_aware=True)
    yield client[settings.mongodb_db]
    await client.close()


async def test_a_restart_counts_the_hands_its_directors_lost_writes_missed(
    server_factory: Callable[..., Any], db: AsyncDatabase[Document]
) -> None:
    first: RunningServer = await server_factory()
    token, _ = await guest(first, "Host")
    async with httpx.AsyncClient(base_url=first.http) as http:
        body = {
            "name": "Reload MTT",
            "players": 4,
            "bots": 4,  # full at once: it starts
            "seats_per_table": 2,
            "structure": "custom",
            "starting_chips": 100_000,  # deep: nobody busts in the few hands played
            "levels": [{"small_blind": 10 * n, "big_blind": 20 * n} for n in (1, 2, 4, 8)],
            "levels_by": "hands",
            "level_hands": LEVEL_HANDS,
        }
        auth = {"Authorization": f"Bearer {token}"}
        created = await http.post("/api/tournaments", json=body, headers=auth)
        assert created.status_code == 201, created.text
        tid = created.json()["tournament_id"]
        async with asyncio.timeout(30):
            while (await http.get(f"/api/tournaments/{tid}")).json()["hands"] < 8:  # noqa: ASYNC110
                await asyncio.sleep(0.05)  # polling the REST status: no event to await
    await first.stop()

    # The director's writes after each table's first hand lost (as a kill can leave it).
    doc = await db.tournaments.find_one({"_id": tid})
    assert doc is not None
    state = doc["state"]
    tables = list(state["tables"])
    assert len(tables) == 2
    filed: dict[str, int] = {}
    for table_id in tables:
        last = await db.hands.find_one({"table_id": table_id}, sort=[("hand_no", -1)])
        assert last is not None and last["hand_no"] >= 2
        filed[table_id] = last["hand_no"]
        state["hands"][table_id] = state["counted"][table_id] = 1
    await db.tournaments.replace_one({"_id": tid}, {**doc, "state": state})

    second: RunningServer = await server_factory(hand_pause_ms=600_000)
    service = second.state.tournaments
    assert service is not None
    director = service.get(tid)
    assert director is not None
    assert director.state.hands == filed  # every finished hand counted again
    assert director.state.counted == filed
    level = min(max(filed.values()) // LEVEL_HANDS, 3)  # (four levels)
    assert director.state.table_level == dict.fromkeys(tables, level)
    for table_id in tables:
        runtime = second.state.tables.get(table_id)
        assert runtime is not None
        assert runtime.table.hand_no >= filed[table_id]  # its numbering goes on
    async with httpx.AsyncClient(base_url=second.http) as http:
        shown = (await http.get(f"/api/tournaments/{tid}")).json()
    assert shown["hands"] == sum(filed.values())
