"""What is stored: players, tables, finished hands, the hand in progress, the ledger; faults."""

from __future__ import annotations

from typing import Any

import httpx
from backend_testlib import RunningServer, create_table, guest, join, play_until_hand_over


async def test_hands_and_the_hand_in_progress_are_stored(server: RunningServer) -> None:
    token, player_id = await guest(server, "Alice")
    table = await create_table(server, token, seats=3, bots=2, small_blind=5, big_blind=10)
    table_id = table["table_id"]
    alice = await join(server, table_id, token)
    await alice.send({"type": "sit", "seat": 3, "buy_in": 800})
    await play_until_hand_over(alice, 2)
    runtime = server.state.tables.get(table_id)
    assert runtime is not None
    await runtime.persister.drain()
    db = server.state.mongo.db
    assert await db.players.find_one({"_id": player_id}) is not None
    hands = [doc async for doc in db.hands.find({"table_id": table_id}).sort("hand_no", 1)]
    assert [h["hand_no"] for h in hands][:2] == [1, 2]
    record = hands[0]["record"]
    assert player_id in hands[0]["player_ids"] and len(record["seats"]) == 3
    assert all(len(s["hole_cards"]) == 2 for s in record["seats"])  # complete, server-side
    assert sum(s["final_stack"] - s["starting_stack"] for s in record["seats"]) == 0
    # Filing a hand again (a restart replays its pending record) keeps the first copy.
    await server.state.repos.hands.insert(record)
    assert await db.hands.count_documents({"table_id": table_id, "hand_no": 1}) == 1
    indexes = [ix["key"] async for ix in await db.hands.list_indexes()]
    assert {"player_ids": 1, "played_at": -1} in [dict(k) for k in indexes]
    doc = await db.tables.find_one({"_id": table_id})
    assert doc is not None
    # The last finished hand rides along with the stacks (filed again after a crash).
    assert doc["pending_record"]["hand_no"] == hands[-1]["hand_no"]
    seats = {s["number"]: s for s in doc["snapshot"]["seats"]}
    assert seats[3]["player_id"] == player_id
    live = await db.live_hands.find_one({"_id": table_id})
    if live is not None:  # the next hand is under way: its actions are stored as they happen
        assert live["hand_no"] == runtime.table.hand_no and live["events"]
    ledger = await server.state.repos.ledger.entries(table_id)
    assert {(e["kind"], e["amount"]) for e in ledger if e["player_id"] == player_id} == {
        ("buy_in", 800)
    }
    # The bots' buy-ins were stored with the new table, in the same write, and filed once.
    bots = [e for e in ledger if e["player_id"].startswith("bot-")]
    assert sorted((e["seat"], e["kind"]) for e in bots) == [(1, "buy_in"), (2, "buy_in")]


async def test_a_table_created_just_before_a_crash_files_its_bots_buy_ins_at_restart(
    server: RunningServer,
) -> None:
    """The table document carries its bots' buy-ins; the next start files them, once."""
    token, _ = await guest(server, "Alice")
    table = await create_table(server, token, seats=3, bots=2, small_blind=5, big_blind=10)
    table_id = table["table_id"]
    runtime = server.state.tables.get(table_id)
    assert runtime is not None
    await runtime.persister.drain()
    db = server.state.mongo.db
    # As if the server died right after the insert: the ledger has nothing yet.
    await db.ledger.delete_many({"table_id": table_id})
    doc = await db.tables.find_one({"_id": table_id})
    assert doc is not None and len(doc["pending_ledger"]) == 2
    await server.state.repos.ledger.file(await server.state.repos.tables.pending_ledger(table_id))
    await server.state.repos.ledger.file(await server.state.repos.tables.pending_ledger(table_id))
    entries = await server.state.repos.ledger.entries(table_id)
    assert sorted((e["seat"], e["amount"]) for e in entries) == [
        (1, doc["snapshot"]["seats"][0]["stack"]),
        (2, doc["snapshot"]["seats"][1]["stack"]),
    ]


async def test_a_failing_write_is_retried_and_the_table_goes_on(server: RunningServer) -> None:
    token, _ = await guest(server, "Alice")
    table = await create_table(server, token, seats=2, bots=1, small_blind=5, big_blind=10)
    admin = server.state.mongo.client.admin
    # The next two updates fail with a non-retryable error: the persister retries them.
    await admin.command(
        "configureFailPoint",
        "failCommand",
        mode={"times": 2},
        data={"failCommands": ["update"], "errorCode": 2, "errmsg": "injected"},
    )
    try:
        alice = await join(server, table["table_id"], token)
        await alice.send({"type": "sit", "seat": 2, "buy_in": 500})
        await play_until_hand_over(alice, 1)
    finally:
        await admin.command("configureFailPoint", "failCommand", mode="off")
    runtime = server.state.tables.get(table["table_id"])
    assert runtime is not None
    await runtime.persister.drain()
    doc: dict[str, Any] | None = await server.state.mongo.db.tables.find_one(
        {"_id": table["table_id"]}
    )
    assert doc is not None
    stored = {s["number"]: s["stack"] for s in doc["snapshot"]["seats"]}
    shown = {s.number: s.stack for s in runtime.table.snapshot().seats}
    assert stored == shown and runtime.persister.errors == 0
    assert runtime.persister.retries == 2  # the injected failures happened and were retried
    async with httpx.AsyncClient(base_url=server.http) as http:
        database = (await http.get("/api/stats")).json()["database"]
    assert database["retries"] == 2 and database["failed"] == 0
    assert database["writes"] >= 4 and 1 <= database["batches"] <= database["writes"]
