"""Idle tables are closed: they leave the lobby, every seat is cashed out, none comes back."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from backend_testlib import TIMEOUT, RunningServer, WsClient, create_table, guest, join
from websockets.exceptions import ConnectionClosed


async def lobby(server: RunningServer) -> set[str]:
    async with httpx.AsyncClient(base_url=server.http) as http:
        return {t["table_id"] for t in (await http.get("/api/tables")).json()}


async def until_closed(server: RunningServer, table_ids: set[str]) -> None:
    """Until the tables are out of the lobby and their closing is complete (the last
    step deletes the table's document)."""
    tables = server.state.mongo.db.tables
    async with asyncio.timeout(TIMEOUT):
        while await lobby(server) & table_ids or await tables.count_documents(  # noqa: ASYNC110
            {"_id": {"$in": list(table_ids)}}
        ):
            await asyncio.sleep(0.05)  # polling: neither the lobby nor the database has events


async def chips_in_and_out(server: RunningServer, table_id: str) -> tuple[int, int]:
    entries = [e async for e in server.state.mongo.db.ledger.find({"table_id": table_id})]
    bought = sum(e["amount"] for e in entries if e["kind"] in ("buy_in", "rebuy"))
    return bought, sum(e["amount"] for e in entries if e["kind"] == "cashout")


async def test_idle_tables_close_and_their_chips_are_cashed_out(
    server_factory: Any, make_settings: Any
) -> None:
    server = await server_factory(table_idle_close=0.3, disconnect_grace=0.05)
    alice_token, alice_id = await guest(server, "Alice")
    bob_token, _ = await guest(server, "Bob")
    bots_only = (await create_table(server, alice_token, seats=3, bots=2))["table_id"]
    lonely = (await create_table(server, alice_token, seats=2))["table_id"]
    watched = (await create_table(server, bob_token, seats=2, bots=1))["table_id"]
    bob = await join(server, watched, bob_token)  # stays connected: never idle
    alice = await join(server, lonely, alice_token)
    await alice.send({"type": "sit", "seat": 1, "buy_in": 5000})
    await alice.wait_state(lambda s: (s["cause"] or {}).get("kind") == "sit")
    await alice.close()  # alone at the table: no hand can start
    await until_closed(server, {bots_only, lonely})
    assert await lobby(server) == {watched}
    for table_id in (bots_only, lonely):
        bought, cashed = await chips_in_and_out(server, table_id)
        assert bought == cashed > 0
    cashouts = [
        e async for e in server.state.mongo.db.ledger.find({"table_id": lonely, "kind": "cashout"})
    ]
    assert [(e["player_id"], e["amount"]) for e in cashouts] == [(alice_id, 5000)]
    async with httpx.AsyncClient(base_url=server.http) as http:
        assert (await http.get(f"/api/tables/{lonely}")).status_code == 404
    gone = await WsClient.connect(server.ws_url(f"/ws/tables/{lonely}"))
    with pytest.raises(ConnectionClosed) as closed:
        await gone.wait_type("never")
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4004
    await bob.send({"type": "ping"})
    await bob.wait_type("pong")
    await bob.close()
    await server.stop()
    # After a restart the closed tables stay closed, and nothing is cashed out twice.
    again = await RunningServer(make_settings(table_idle_close=0)).start()
    try:
        assert await lobby(again) == {watched}
        for table_id in (bots_only, lonely):
            bought, cashed = await chips_in_and_out(again, table_id)
            assert bought == cashed
    finally:
        await again.stop()


async def test_a_table_whose_writes_are_not_stored_is_not_closed(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Closing cashes out the stored stacks, so it waits until the table's writes are stored:
    while the database refuses them, the table stays; once they are in, it closes."""
    from backend.db.codec import snapshot_to_doc
    from backend.realtime import closing

    monkeypatch.setattr(closing, "CLOSE_WAIT", 0.5)
    token, _ = await guest(server, "Alice")
    table_id = (await create_table(server, token, seats=2, bots=1))["table_id"]
    runtime = server.state.tables.get(table_id)
    assert runtime is not None
    await runtime.persister.drain()
    db = server.state.mongo.db
    admin = server.state.mongo.client.admin
    failing = {"failCommands": ["update"], "errorCode": 2, "errmsg": "injected"}
    await admin.command("configureFailPoint", "failCommand", mode="alwaysOn", data=failing)
    try:
        runtime.persister.save_state(snapshot_to_doc(runtime.table.snapshot()), 10**9)
        await closing.close_table(db, server.state.tables, runtime)
        assert table_id in await lobby(server)
        assert await db.tables.count_documents({"_id": table_id}) == 1
        assert await db.ledger.count_documents({"table_id": table_id, "kind": "cashout"}) == 0
    finally:
        await admin.command("configureFailPoint", "failCommand", mode="off")
    # Once the writes are in (the persister may be in a back-off of up to a second, past
    # the shortened close wait), the table closes.
    await runtime.persister.drain()
    await closing.close_table(db, server.state.tables, runtime)
    await until_closed(server, {table_id})
    bought, cashed = await chips_in_and_out(server, table_id)
    assert bought == cashed > 0
