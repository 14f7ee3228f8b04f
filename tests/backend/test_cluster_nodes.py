"""Two real nodes and the bus (`showdown serve --nodes 2`): relay, placement, failover.

A player on node n0 plays at a table node n1 owns (commands and views cross NATS);
n1 is SIGKILLed mid-hand; once its lease runs out n0 takes the table from the
stored state (the hand voided, every chip back) and the player, reconnected to
n0, plays on.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from backend_testlib import TIMEOUT, WsClient, signed_in
from cluster_testlib import FAST, Cluster, reconnect

pytestmark = pytest.mark.slow


@pytest.fixture
async def cluster(tmp_path: Path) -> AsyncIterator[Cluster]:
    running = await Cluster(tmp_path / "data", tmp_path / "serve.log", 2, **FAST).start()
    yield running
    await running.stop()


def chips(view: dict[str, Any]) -> int:
    return int(sum(s["stack"] for s in view["seats"]) + view["total_pot"])


async def play_into_a_hand(alice: WsClient, seat: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Check or fold until a hand is over and the next one waits for Alice with chips in
    the pot; the last finished hand's state and the current one."""
    last_over: dict[str, Any] | None = None
    while True:
        state = await alice.wait_state(lambda s: True)
        view = state["view"]
        if not view["hand_in_progress"] and view["hand_no"] >= 1:
            last_over = state
        elif view["actor"] == seat:
            if last_over is not None and view["hand_no"] == last_over["view"]["hand_no"] + 1:
                return last_over, state
            legal = view["legal_actions"]
            await alice.send({"type": "act", "action": "check" if legal["can_check"] else "fold"})


async def test_a_client_on_one_node_plays_at_another_nodes_table_and_survives_its_death(
    cluster: Cluster,
) -> None:
    async with httpx.AsyncClient(base_url=cluster.urls["n0"]) as http:
        login = (await http.post("/api/auth/guest", json={"name": "Alice"})).json()
        auth = {"Authorization": f"Bearer {login['token']}"}
        body = {"seats": 3, "bots": 2, "small_blind": 5, "big_blind": 10}
        first = (await http.post("/api/tables", json=body, headers=auth)).json()
        # Placement: the second table goes to the less loaded node, n1.
        table = (await http.post("/api/tables", json=body, headers=auth)).json()
    assert await cluster.tables_of("n0") == {first["table_id"]}
    assert await cluster.tables_of("n1") == {table["table_id"]}
    total = 500 + 2 * table["max_buy_in"]

    # Alice's socket is on n0; the table is n1's: her commands and views cross the bus.
    path = f"/ws/tables/{table['table_id']}"
    alice = await signed_in(cluster.ws("n0", path), login["token"])
    await alice.wait_type("welcome")
    await alice.send({"type": "sit", "seat": 3, "buy_in": 500})
    last_over, during = await play_into_a_hand(alice, 3)
    assert chips(last_over["view"]) == total
    assert during["view"]["total_pot"] > 0
    expected = {s["seat"]: s["stack"] for s in last_over["view"]["seats"]}
    killed_hand = during["view"]["hand_no"]

    cluster.kill("n1")
    killed_at = time.monotonic()
    with pytest.raises(Exception):  # noqa: B017, PT011 - n0 closes the relayed socket
        await alice.wait_type("never", within=TIMEOUT)
    await alice.close()

    # The client reconnects by itself; n0 takes the table once n1's lease runs out.
    again = await reconnect(cluster.ws("n0", path), login["token"])
    resumed_after = time.monotonic() - killed_at
    restored = await again.wait_state(lambda s: True)
    assert chips(restored["view"]) == total  # nothing lost with the voided hand
    if not restored["view"]["hand_in_progress"]:
        assert {s["seat"]: s["stack"] for s in restored["view"]["seats"]} == expected
    names = {s["seat"]: s["name"] for s in restored["view"]["seats"]}
    assert names[3] == "Alice"
    assert await cluster.tables_of("n0") == {first["table_id"], table["table_id"]}
    assert resumed_after < 2 + 10  # the lease (2 s), a takeover round, a reconnect

    # Play goes on at the new owner: a hand after the voided one finishes.
    state = restored
    while True:
        view = state["view"]
        if not view["hand_in_progress"] and view["hand_no"] > killed_hand:
            break
        if view["hand_in_progress"] and view["actor"] == 3:
            legal = view["legal_actions"]
            await again.send({"type": "act", "action": "check" if legal["can_check"] else "fold"})
        state = await again.wait_state(lambda s: True, within=TIMEOUT)
    assert chips(view) == total
    await again.close()


async def test_a_drained_node_hands_its_tables_over_between_hands(tmp_path: Path) -> None:
    log = tmp_path / "serve.log"
    bots = {**FAST, "BOTS_PLAY_ALONE": "true"}
    cluster = await Cluster(tmp_path / "data", log, 2, **bots).start()
    try:
        async with httpx.AsyncClient(base_url=cluster.urls["n0"]) as http:
            login = (await http.post("/api/auth/guest", json={"name": "Watcher"})).json()
            auth = {"Authorization": f"Bearer {login['token']}"}
            body = {"seats": 4, "bots": 3, "small_blind": 5, "big_blind": 10}
            await http.post("/api/tables", json=body, headers=auth)
            table = (await http.post("/api/tables", json=body, headers=auth)).json()
        assert await cluster.tables_of("n1") == {table["table_id"]}
        total = 3 * table["max_buy_in"]
        path = f"/ws/tables/{table['table_id']}"
        watcher = await signed_in(cluster.ws("n0", path), login["token"])
        before = await watcher.wait_state(lambda s: s["view"]["hand_no"] >= 2)

        os.kill(cluster.pids["n1"], signal.SIGUSR1)  # drain n1
        with pytest.raises(Exception):  # noqa: B017, PT011 - the relayed socket is closed
            await watcher.wait_type("never", within=TIMEOUT)
        await watcher.close()
        again = await reconnect(cluster.ws("n0", path), login["token"])
        # Bots play on at n0: a later hand finishes there, with every chip.
        later = await again.wait_state(
            lambda s: (
                not s["view"]["hand_in_progress"]
                and s["view"]["hand_no"] > before["view"]["hand_no"] + 1
            )
        )
        assert chips(later["view"]) == total
        assert await cluster.tables_of("n1") == set()
        assert table["table_id"] in await cluster.tables_of("n0")
        await again.close()
    finally:
        await cluster.stop()
    text = log.read_text(encoding="utf-8")
    assert "table handed over" in text
    assert "voided" not in text  # no hand was cut short by the move


async def test_a_stopped_cluster_exits_cleanly_with_sockets_on_every_node(tmp_path: Path) -> None:
    """SIGTERM to `serve --nodes 2` with play on both nodes, a relayed socket, and sockets
    still signing in: every node and the bus stop, the launcher exits 0, and nothing in
    the log is a traceback or an error (a stop is not a failure to be read past)."""
    import websockets

    log = tmp_path / "serve.log"
    cluster = await Cluster(tmp_path / "data", log, 2, **FAST, BOTS_PLAY_ALONE="true").start()
    try:
        async with httpx.AsyncClient(base_url=cluster.urls["n0"]) as http:
            login = (await http.post("/api/auth/guest", json={"name": "Watcher"})).json()
            auth = {"Authorization": f"Bearer {login['token']}"}
            body = {"seats": 4, "bots": 3, "small_blind": 5, "big_blind": 10}
            tables = [
                (await http.post("/api/tables", json=body, headers=auth)).json() for _ in range(2)
            ]
        owners = [await cluster.tables_of(node) for node in ("n0", "n1")]
        assert owners == [{tables[0]["table_id"]}, {tables[1]["table_id"]}]
        watchers = []
        for node, table in (("n0", tables[0]), ("n0", tables[1]), ("n1", tables[1])):
            path = f"/ws/tables/{table['table_id']}"  # n0's second socket is relayed
            watcher = await signed_in(cluster.ws(node, path), login["token"])
            await watcher.wait_state(lambda s: s["view"]["hand_no"] >= 1)
            watchers.append(watcher)
        signing_in = [
            await websockets.connect(cluster.ws(node, f"/ws/tables/{table['table_id']}"))
            for node, table in (("n0", tables[0]), ("n1", tables[1]))
        ]
        await cluster.stop()
        for ws in signing_in:
            await ws.close()
        for watcher in watchers:
            await watcher.close()
    finally:
        await cluster.stop()
    assert cluster.process is not None and cluster.process.returncode == 0
    text = log.read_text(encoding="utf-8")
    assert "Traceback" not in text and " ERROR " not in text, text[-6000:]
    for pid in cluster.pids.values():
        with pytest.raises(ProcessLookupError):  # every node has exited, none orphaned
            os.kill(pid, 0)
