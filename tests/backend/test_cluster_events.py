"""Events that cross tables and AI workers, over the bus, on two real nodes (docs/cluster.md §3).

`showdown serve --nodes 2 --no-worker` (the embedded database, nats-server, two node
processes), started once for the module:
- a table node n1 owns is listed by n0's lobby with its seats, and a seat taken there
  shows in n0's lobby; a statistics change counted on n1 reaches the player's other
  table on n0; a private table n1 owns is listed and shown by n0 to its host only
  (and to an invite link);
- a bot at a table owned by n1, which has no worker, gets its decisions from a worker
  connected to n0 (relayed over the bus, not the fallback);
- a silent worker on n0 is quarantined by n0 at the relayed query's deadline, the bot
  gets n0's fallback decision, and n1 stops relaying (no worker left in the cluster);
- a player's hand list read on n0 lists the hand she just finished at n1's table,
  whose filing the database holds (n0 waits for n1's answer that it landed);
- the review of a hand played at n1's table, asked on n1, is computed by n0's worker;
- a socket that follows moves (`?follow=1`) opened on n0 for n1's table is sent to n1
  (closed with 4010 and n1's address) and served there, not relayed; a private table's
  stranger is refused as before, with no address; without `follow` it is relayed.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import httpx
import pytest
import pytest_asyncio
from backend_testlib import TIMEOUT, WsClient, passive_action, signed_in
from cluster_testlib import Cluster
from pymongo import AsyncMongoClient
from websockets.exceptions import ConnectionClosed

pytestmark = [pytest.mark.slow, pytest.mark.asyncio(loop_scope="module")]

SECRET = "cluster-events-ai-secret"
ENV = {
    "SHOWDOWN_HAND_PAUSE_MS": "0",
    "BOT_DELAY_MS": "0",
    "ACTION_TIMEOUT": "60",
    "LEASE_TTL": "2",
    "LOG_FORMAT": "text",
    "AI_SHARED_SECRET": SECRET,
    "AI_DEADLINE_MS": "1500",  # a silent worker costs this long
    "TABLE_CREATE_BURST": "20",  # the tests create a dozen tables from one address
}
Body = dict[str, Any]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def cluster(
    tmp_path_factory: pytest.TempPathFactory, mongo_url: str
) -> AsyncIterator[Cluster]:
    # The session's database (its test commands hold a write for the filing test).
    base = tmp_path_factory.mktemp("cluster-events")
    database = {"MONGODB_URL": mongo_url, "MONGODB_DB": "c" + uuid.uuid4().hex[:12]}
    running = await Cluster(base / "data", base / "serve.log", 2, **ENV, **database).start()
    yield running
    await running.stop()


async def listed(cluster: Cluster, node: str, token: str, ok: Callable[[Body], bool]) -> Body:
    """The first lobby entry of `node` satisfying `ok` (lists travel every 0.25 s)."""
    async with httpx.AsyncClient(base_url=cluster.urls[node]) as http, asyncio.timeout(TIMEOUT):
        while True:
            auth = {"Authorization": f"Bearer {token}"}
            for entry in (await http.get("/api/tables", headers=auth)).json():
                if ok(entry):
                    return dict(entry)
            await asyncio.sleep(0.05)  # polling the lobby as a browser does: no event to wait on


async def create(cluster: Cluster, token: str, **body: Any) -> Body:
    async with httpx.AsyncClient(base_url=cluster.urls["n0"]) as http:
        auth = {"Authorization": f"Bearer {token}"}
        response = await http.post("/api/tables", json=body, headers=auth)
        assert response.status_code == 201, response.text
        return dict(response.json())


async def sat(cluster: Cluster, node: str, table: Body, token: str, seat: int) -> WsClient:
    client = await signed_in(cluster.ws(node, f"/ws/tables/{table['table_id']}"), token)
    await client.wait_type("welcome")
    await client.send({"type": "sit", "seat": seat, "buy_in": table["min_buy_in"]})
    await client.wait_state(lambda s: s["view"]["viewer_seat"] == seat)
    return client


async def test_the_lobby_and_statistics_cross_nodes(cluster: Cluster) -> None:
    async with httpx.AsyncClient(base_url=cluster.urls["n0"]) as http:
        login = (await http.post("/api/auth/guest", json={"name": "Alice"})).json()
    token, alice_id = login["token"], login["player_id"]
    home = await create(cluster, token, seats=2, bots=0, small_blind=5, big_blind=10)
    # Placement puts the second table on n1; n0's lobby lists it, with its bot's seat.
    away = await create(cluster, token, seats=2, bots=1, small_blind=5, big_blind=10)
    assert await cluster.tables_of("n1") >= {away["table_id"]}
    entry = await listed(cluster, "n0", token, lambda t: t["table_id"] == away["table_id"])
    assert (entry["seats"], entry["seats_taken"], entry["bots"]) == (2, 1, 1)
    # And n1's lists n0's table: every node shows the whole cluster.
    await listed(cluster, "n1", token, lambda t: t["table_id"] == home["table_id"])
    # n0 answers the detail of n1's table (the table page opens from any node).
    async with httpx.AsyncClient(base_url=cluster.urls["n0"]) as http:
        detail = (await http.get(f"/api/tables/{away['table_id']}")).json()
    assert (detail["table_id"], detail["seats_taken"]) == (away["table_id"], 1)

    # Alice sits at n0's table, then at n1's (through n0: relayed): n0's lobby shows it.
    at_home = await sat(cluster, "n0", home, token, 1)
    at_away = await sat(cluster, "n0", away, token, 2)
    await listed(
        cluster,
        "n0",
        token,
        lambda t: t["table_id"] == away["table_id"] and t["seats_taken"] == 2 and t["players"] == 1,
    )

    # A hand at n1's table ends (Alice folds or checks down); n1 counts it, and her HUD
    # at n0's table hears of it (`hand_no` null: another table's hand).
    while True:
        state = await at_away.wait_state(lambda s: True)
        view = state["view"]
        if not view["hand_in_progress"] and view["hand_no"] >= 1:
            break
        if view["hand_in_progress"] and view["actor"] == 2:
            await at_away.send({"type": "act", "action": passive_action(view["legal_actions"])})
    stats = await at_home.wait_type("stats")
    assert stats["hand_no"] is None
    assert alice_id in stats["player_ids"]
    await at_home.send({"type": "stand"})
    await at_away.send({"type": "stand"})
    await at_home.close()
    await at_away.close()


async def worker_on_n0(cluster: Cluster, name: str) -> WsClient:
    """A worker connected to n0, once n1 heard of it on the bus."""
    worker = await WsClient.connect(cluster.ws("n0", "/ws/ai"))
    await worker.send({"type": "hello", "secret": SECRET, "name": name, "capacity": 4})
    await worker.wait_type("welcome")
    await _elsewhere_when(cluster, lambda workers: workers >= 1)
    return worker


async def _elsewhere_when(cluster: Cluster, ok: Callable[[int], bool]) -> None:
    async with asyncio.timeout(TIMEOUT):
        while True:
            if ok((await cluster.readyz("n1"))["cluster"].get("workers_elsewhere", 0)):
                return
            await asyncio.sleep(0.05)  # polling the node's view: it has no event to wait on


async def guest_token(cluster: Cluster, name: str) -> str:
    async with httpx.AsyncClient(base_url=cluster.urls["n1"]) as http:
        return str((await http.post("/api/auth/guest", json={"name": name})).json()["token"])


async def bot_table_on_n1(cluster: Cluster, token: str, *, bots: int = 1, **options: Any) -> Body:
    """A table (of one bot unless told) that n1 owns, created by `token`."""
    counts = {n: len(await cluster.tables_of(n)) for n in ("n0", "n1")}
    # Tables go to the least loaded node: fill n0 up to n1's count, then one for n1.
    for _ in range(counts["n1"] + 1 - counts["n0"]):
        await create(cluster, token, seats=2, bots=0, small_blind=5, big_blind=10)
    table = await create(cluster, token, seats=2, bots=bots, small_blind=5, big_blind=10, **options)
    assert table["table_id"] in await cluster.tables_of("n1")
    return table


async def test_a_private_table_on_another_node_is_listed_only_to_its_players(
    cluster: Cluster,
) -> None:
    host = await guest_token(cluster, "Hana")
    stranger = await guest_token(cluster, "Sam")
    table = await bot_table_on_n1(cluster, host, bots=0, private=True)
    mine = await listed(cluster, "n0", host, lambda t: t["table_id"] == table["table_id"])
    assert mine["private"] is True
    # The stranger's lobby on n0 is complete (n1's list heard since) and lacks it.
    later = await create(cluster, host, seats=2, bots=0, small_blind=5, big_blind=10)
    await listed(cluster, "n0", stranger, lambda t: t["table_id"] == later["table_id"])
    async with httpx.AsyncClient(base_url=cluster.urls["n0"]) as http:
        for token, seen in ((stranger, False), (host, True)):
            auth = {"Authorization": f"Bearer {token}"}
            lobby = (await http.get("/api/tables", headers=auth)).json()
            assert (table["table_id"] in {t["table_id"] for t in lobby}) is seen
            detail = await http.get(f"/api/tables/{table['table_id']}", headers=auth)
            assert detail.status_code == (200 if seen else 404)
        invite = detail.json()["invite"]  # the host's detail carries the link
        auth = {"Authorization": f"Bearer {stranger}"}
        path = f"/api/tables/{table['table_id']}?invite={invite}"
        assert (await http.get(path, headers=auth)).status_code == 200  # the link admits


async def test_a_bot_on_a_node_without_workers_gets_a_workers_decision(cluster: Cluster) -> None:
    worker = await worker_on_n0(cluster, "n0-worker")
    token = await guest_token(cluster, "Bob")
    table = await bot_table_on_n1(cluster, token)
    before = {"relayed": 0, **(await cluster.readyz("n1"))["ai"]}

    bob = await sat(cluster, "n1", table, token, 2)
    query: Body | None = None
    while query is None:  # Bob plays passively until n1's bot is asked, at n0's worker
        kind, message = await _query_or_turn(worker, bob, 2)
        if kind == "turn":
            await bob.send(
                {"type": "act", "action": passive_action(message["view"]["legal_actions"])}
            )
            continue
        action = passive_action(message["legal"])
        await worker.send(
            {"type": "decision", "request_id": message["request_id"], "action": action}
        )
        if message["table_id"] == table["table_id"]:
            query = message
    # n1 took the worker's answer as the bot's decision: relayed, not the fallback.
    after = await _counters_when(cluster, "n1", lambda ai: ai["relayed"] > before["relayed"])
    assert after["fallbacks"] == before["fallbacks"]
    await bob.close()
    await worker.close()


async def _query_or_turn(worker: WsClient, player: WsClient, seat: int) -> tuple[str, Body]:
    tasks = [
        asyncio.create_task(worker.wait_type("query")),
        asyncio.create_task(
            player.wait_state(
                lambda s: s["view"]["hand_in_progress"] and s["view"]["actor"] == seat
            )
        ),
    ]
    done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    if tasks[0] in done:
        return "query", tasks[0].result()
    return "turn", tasks[1].result()


async def _counters_when(cluster: Cluster, node: str, ok: Callable[[Body], bool]) -> Body:
    """The node's AI counters once `ok` holds for them."""
    async with asyncio.timeout(TIMEOUT):
        while True:
            ai = {"relayed": 0, **(await cluster.readyz(node))["ai"]}
            if ok(ai):
                return ai
            await asyncio.sleep(0.05)  # polling the node's counters: no event to wait on


async def test_a_silent_worker_is_quarantined_by_its_node_and_the_bot_gets_the_fallback(
    cluster: Cluster,
) -> None:
    worker = await worker_on_n0(cluster, "silent")
    token = await guest_token(cluster, "Carol")
    table = await bot_table_on_n1(cluster, token)
    n0_before = {"quarantines": 0, "fallback_timeout": 0, **(await cluster.readyz("n0"))["ai"]}
    carol = await sat(cluster, "n1", table, token, 2)
    while True:  # Carol plays passively until n1's bot is asked; the worker never answers
        kind, message = await _query_or_turn(worker, carol, 2)
        if kind == "turn":
            legal = message["view"]["legal_actions"]
            await carol.send({"type": "act", "action": passive_action(legal)})
        elif message["table_id"] == table["table_id"]:
            break
    # n0 gives the worker the query's time less the bus's margin, then quarantines it
    # and answers its fallback's decision; the bot acts on it (n1's own fallback would
    # decide too if that answer came after n1's deadline: either way, not the worker's).
    n0 = await _counters_when(
        cluster,
        "n0",
        lambda ai: (
            ai.get("quarantines", 0) > n0_before["quarantines"]
            and ai.get("fallback_timeout", 0) > n0_before["fallback_timeout"]
        ),
    )
    assert n0["workers_quarantined"] == 1
    await carol.wait_state(lambda s: s["view"]["actor"] == 2 or not s["view"]["hand_in_progress"])
    # The quarantined worker is n0's last: n0 leaves the queue group, n1 stops relaying.
    await _elsewhere_when(cluster, lambda workers: workers == 0)
    await carol.close()
    await worker.close()


async def fold_a_hand(
    player: WsClient, seat: int, before_fold: Callable[[], Awaitable[None]] | None = None
) -> int:
    """Check until facing a bet, then fold (a free check cannot be folded); the number of
    the hand folded, once its end is shown."""
    while True:
        state = await player.wait_state(
            lambda s: s["view"]["hand_in_progress"] and s["view"]["actor"] == seat, within=SLOW
        )
        legal = state["view"]["legal_actions"]
        if legal["can_fold"]:
            break
        await player.send({"type": "act", "action": "check"})
    hand_no = int(state["view"]["hand_no"])
    if before_fold is not None:
        await before_fold()
    await player.send({"type": "act", "action": "fold"})
    await player.wait_state(
        lambda s: s["view"]["hand_no"] == hand_no and not s["view"]["hand_in_progress"],
        within=SLOW,  # the database may hold a write: the table may pause meanwhile
    )
    return hand_no


HOLD_MS = 1500  # a held filing: shorter than the wait of a hand list (FILING_WAIT)
SLOW = 3 * TIMEOUT  # a bound, not a wait: this host runs 5 jobs on 2 cores


async def test_a_hand_list_on_one_node_waits_for_a_filing_on_another(
    cluster: Cluster, mongo_url: str
) -> None:
    async with httpx.AsyncClient(base_url=cluster.urls["n0"]) as http:
        token = str((await http.post("/api/auth/guest", json={"name": "Dana"})).json()["token"])
    table = await bot_table_on_n1(cluster, token)
    dana = await sat(cluster, "n1", table, token, 2)
    admin: AsyncMongoClient[dict[str, object]] = AsyncMongoClient(mongo_url)

    async def hold_the_filing() -> None:
        await admin.admin.command(
            "configureFailPoint",
            "failCommand",
            mode={"times": 1},  # the next insert: the hand's filing, once Dana folds
            data={"failCommands": ["insert"], "blockConnection": True, "blockTimeMS": HOLD_MS},
        )

    try:
        hand_no = await fold_a_hand(dana, 2, hold_the_filing)
        async with httpx.AsyncClient(base_url=cluster.urls["n0"], timeout=TIMEOUT) as http:
            auth = {"Authorization": f"Bearer {token}"}
            page = (await http.get("/api/hands", headers=auth)).json()
        assert hand_no in [item["hand_no"] for item in page["items"]]  # listed at once
    finally:
        await admin.admin.command("configureFailPoint", "failCommand", mode="off")
        await admin.close()
        await dana.close()


REVIEW_ADVICE = {
    "action": "fold",
    "values": [{"action": "fold", "value_bb": 0.0}, {"action": "call", "value_bb": -0.5}],
}


async def answer_all(worker: WsClient, purposes: list[str]) -> None:
    """A worker that answers every query (reviews with values), noting their purposes."""
    while True:
        query = await worker.wait_for(lambda m: m.get("type") == "query", within=3600)
        purposes.append(query["purpose"])
        legal = query["legal"]
        answer = {"type": "decision", "request_id": query["request_id"]}
        if query["purpose"] == "review":
            answer |= {"action": "fold", "advice": REVIEW_ADVICE}
        else:
            answer |= {"action": passive_action(legal)}
        await worker.send(answer)


async def test_a_hand_review_asked_on_a_node_without_workers_is_computed_elsewhere(
    cluster: Cluster,
) -> None:
    worker = await worker_on_n0(cluster, "reviewer")
    purposes: list[str] = []
    answering = asyncio.create_task(answer_all(worker, purposes))
    try:
        token = await guest_token(cluster, "Erin")
        table = await bot_table_on_n1(cluster, token)
        erin = await sat(cluster, "n1", table, token, 2)
        hand_no = await fold_a_hand(erin, 2)  # her decisions: to review
        auth = {"Authorization": f"Bearer {token}"}
        async with httpx.AsyncClient(base_url=cluster.urls["n1"], timeout=TIMEOUT) as http:
            hands = (await http.get("/api/hands", headers=auth)).json()["items"]
            hand_id = next(h["hand_id"] for h in hands if h["hand_no"] == hand_no)
            path = f"/api/hands/{hand_id}/review"
            started = await http.post(path, headers=auth)
            assert started.status_code in (200, 202), started.text
            async with asyncio.timeout(SLOW):
                while True:
                    review = (await http.get(path, headers=auth)).json()
                    if review["status"] != "working":
                        break
                    await asyncio.sleep(0.1)  # polling as the page does: no event to wait on
        assert review["status"] == "done", review
        assert "review" in purposes  # n0's worker computed it
        ai = (await cluster.readyz("n1"))["ai"]
        assert ai.get("reviews_relayed", 0) >= 1
        await erin.close()
    finally:
        answering.cancel()
        await asyncio.gather(answering, return_exceptions=True)
        await worker.close()


async def test_a_socket_that_follows_moves_is_sent_to_the_tables_owner(cluster: Cluster) -> None:
    alice = await guest_token(cluster, "Mia")
    stranger = await guest_token(cluster, "Max")
    table = await bot_table_on_n1(cluster, alice, private=True)
    path = f"/ws/tables/{table['table_id']}"
    before = (await cluster.readyz("n1"))["cluster"]

    # Opened on n0 (as behind a round-robin web tier): closed with n1's address.
    moving = await signed_in(cluster.ws("n0", path + "?follow=1"), alice)
    with pytest.raises(ConnectionClosed) as closed:
        await moving.wait_type("welcome")
    assert closed.value.rcvd is not None
    assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (4010, cluster.urls["n1"])
    # Opened there: served by the owner itself, no socket relayed.
    there = closed.value.rcvd.reason.replace("http://", "ws://") + path
    at_owner = await signed_in(there, alice)
    await at_owner.wait_type("welcome")
    await at_owner.wait_state(lambda s: s["view"]["table_id"] == table["table_id"])
    assert (await cluster.readyz("n1"))["cluster"]["moved"] == before["moved"] + 1

    # A stranger to the private table learns nothing of where it is: refused as unknown.
    refused = await signed_in(cluster.ws("n0", path + "?follow=1"), stranger)
    with pytest.raises(ConnectionClosed) as closed:
        await refused.wait_type("welcome")
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 4004
    assert cluster.urls["n1"] not in closed.value.rcvd.reason

    # Without `follow` (an older client) the socket is relayed as before: not moved.
    relayed = await signed_in(cluster.ws("n0", path), alice)
    await relayed.wait_type("welcome")
    await relayed.wait_state(lambda s: s["view"]["table_id"] == table["table_id"])
    assert (await cluster.readyz("n1"))["cluster"]["moved"] == before["moved"] + 1
    await relayed.close()
    await at_owner.close()
