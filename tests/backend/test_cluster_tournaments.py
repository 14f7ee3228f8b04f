"""A tournament on three real nodes and the bus (`showdown serve --nodes 3`).

Created on n0: its director (the tournament's lease) runs there, n1 and n2 hold no
second one, and its two tables go to the least loaded nodes (n0 and n1: one each).
n0 is drained: its table moves to another node between hands, and so does its
director (its lease released, taken by another node), no hand voided; the director's
orders and the tables' reports cross the bus. Then the director's node is SIGKILLed
mid-tournament; once its lease runs out the last node takes the director over from the
stored state, reconciles the tables, and the tournament runs to its end with every
chip: the stacks always sum to the chips dealt, the prizes to the pool.
"""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from cluster_testlib import FAST, Cluster

pytestmark = pytest.mark.slow

PLAYERS, CHIPS, BUY_IN = 6, 5000, 10


@pytest.fixture
async def cluster(tmp_path: Path) -> AsyncIterator[Cluster]:
    running = await Cluster(tmp_path / "data", tmp_path / "serve.log", 3, **FAST).start()
    yield running
    await running.stop()


async def wait_for(
    http: httpx.AsyncClient, path: str, done: Callable[[dict[str, Any]], bool], within: float
) -> dict[str, Any]:
    """GET `path` until `done` holds (the nodes have no event a client can wait on); on
    the way, the chips of every state seen sum to the chips dealt."""
    async with asyncio.timeout(within):
        while True:
            response = await http.get(path)
            if response.status_code == 200:
                body: dict[str, Any] = response.json()
                if body["status"] != "registering":
                    assert chips_in_play(body) == PLAYERS * CHIPS, body["players"]
                if done(body):
                    return body
            await asyncio.sleep(0.1)  # polling the node's view, as a browser's page does


def chips_in_play(detail: dict[str, Any]) -> int:
    return sum(int(p["chips"]) for p in detail["players"])


async def test_a_tournament_survives_its_directors_node(cluster: Cluster) -> None:
    async with httpx.AsyncClient(base_url=cluster.urls["n0"]) as http:
        login = (await http.post("/api/auth/guest", json={"name": "Alice"})).json()
        auth = {"Authorization": f"Bearer {login['token']}"}
        body = {
            "name": "Cluster MTT",
            "players": PLAYERS,
            "bots": PLAYERS,  # full at once: it starts
            "seats_per_table": 3,
            "starting_chips": CHIPS,
            "structure": "turbo",
            "levels_by": "hands",
            "level_hands": 6,
            "prizes": "top2",
            "buy_in": BUY_IN,
        }
        created = await http.post("/api/tournaments", json=body, headers=auth)
        assert created.status_code == 201, created.text
        tid = created.json()["tournament_id"]
        tables = {t["table_id"] for t in created.json()["tables"]}
        assert len(tables) == 2
    # One director: n0's lease; n1 and n2 hold none. The tables went to the least
    # loaded nodes: one on n0, the other on n1 (n2 ties with n1 and loses on its id).
    assert (await cluster.readyz("n0"))["cluster"]["directs"] == [tid]
    assert (await cluster.readyz("n1"))["cluster"]["directs"] == []
    assert (await cluster.readyz("n2"))["cluster"]["directs"] == []
    owned = {node: await cluster.tables_of(node) for node in ("n0", "n1", "n2")}
    assert len(owned["n0"]) == len(owned["n1"]) == 1 and owned["n2"] == set()
    assert owned["n0"] | owned["n1"] == tables

    # n2 shows the tournament from the director's published state (a replica).
    page = f"/api/tournaments/{tid}"
    async with httpx.AsyncClient(base_url=cluster.urls["n2"]) as http:
        await wait_for(http, page, lambda d: d["status"] == "running" and d["hands"] >= 1, 30)
        # A player's request on n2 is carried out by the director on n0.
        refused = await http.post(f"/api/tournaments/{tid}/register", headers=auth)
        assert refused.status_code == 409 and "late registration is closed" in refused.text

        # Drained, n0 hands its table and its director over, between hands.
        os.kill(cluster.pids["n0"], signal.SIGUSR1)
        async with asyncio.timeout(30):
            while not (director := await directed_by(cluster, tid, ("n1", "n2"))):  # noqa: ASYNC110
                await asyncio.sleep(0.1)  # polling the nodes' views: no event to wait on
        # (n0 stops and releases its table before another node loads it: n0 owning none
        # is not yet the others owning both.)
        async with asyncio.timeout(30):
            while await cluster.tables_of("n0") or not await owned_by(cluster, tables):  # noqa: ASYNC110
                await asyncio.sleep(0.1)  # polling the nodes' views: no event to wait on
        assert (await cluster.readyz("n0"))["cluster"]["directs"] == []
        moved = (await http.get(page)).json()
        # Hands told to the director on its new node (and its orders back) over the bus.
        during = await wait_for(
            http, page, lambda d: d["status"] != "running" or d["hands"] >= moved["hands"] + 3, 60
        )
        assert during["status"] == "running", "the tournament ended before the kill"
        log = cluster.log.read_text(encoding="utf-8", errors="replace")
        assert "tournament director handed over" in log and "voided" not in log

    cluster.kill(director)
    (last,) = {"n1", "n2"} - {director}
    async with httpx.AsyncClient(base_url=cluster.urls[last]) as http:
        # The last node takes the director over (its lease ran out) and the tables.
        async with asyncio.timeout(30):
            while (await cluster.readyz(last))["cluster"]["directs"] != [tid]:  # noqa: ASYNC110
                await asyncio.sleep(0.1)  # polling the node's view: it has no event to wait on
        final = await wait_for(
            http, f"/api/tournaments/{tid}", lambda d: d["status"] == "finished", 120
        )
    assert final["hands"] > during["hands"]
    places = sorted(p["place"] for p in final["players"])
    assert places == list(range(1, PLAYERS + 1))
    assert sum(p["prize"] for p in final["players"]) == final["prize_pool"] == PLAYERS * BUY_IN
    (winner,) = [p for p in final["players"] if p["place"] == 1]
    assert winner["chips"] == PLAYERS * CHIPS == chips_in_play(final)  # every chip
    log = cluster.log.read_text(encoding="utf-8", errors="replace")
    assert "tournament director taken" in log


async def directed_by(cluster: Cluster, tid: str, nodes: tuple[str, ...]) -> str | None:
    """The node of `nodes` that directs the tournament, if one does."""
    for node in nodes:
        if (await cluster.readyz(node))["cluster"]["directs"] == [tid]:
            return node
    return None


async def owned_by(cluster: Cluster, tables: set[str]) -> bool:
    """Every one of `tables` owned by n1 or n2."""
    return (await cluster.tables_of("n1")) | (await cluster.tables_of("n2")) == tables
