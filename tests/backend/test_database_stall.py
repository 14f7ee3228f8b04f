"""A database that cannot store writes (a fail point) pauses tables visibly; nothing is lost."""

from __future__ import annotations

from typing import Any

import httpx
from backend_testlib import RunningServer, WsClient, create_table, guest


def finished(state: dict[str, Any]) -> bool:
    view = state["view"]
    return not view["hand_in_progress"] and view["last_result"] is not None


async def test_a_stalled_database_pauses_the_table_until_it_stores_again(
    server_factory: Any,
) -> None:
    server: RunningServer = await server_factory(bots_play_alone=True)
    token, _ = await guest(server, "Watcher")
    table = await create_table(server, token, seats=4, bots=3, small_blind=5, big_blind=10)
    table_id = table["table_id"]
    watcher = await WsClient.connect(server.ws_url(f"/ws/tables/{table_id}"))
    await watcher.send({"type": "auth", "token": token})
    await watcher.wait_state(finished)
    admin = server.state.mongo.client.admin
    # Every update fails until the fail point is off: a hand's end cannot be stored.
    await admin.command(
        "configureFailPoint",
        "failCommand",
        mode="alwaysOn",
        data={"failCommands": ["update"], "errorCode": 2, "errmsg": "injected: disk full"},
    )
    try:
        paused = await watcher.wait_type("notice")
        assert paused["paused"] is True and paused["reason"] == "database"
        async with httpx.AsyncClient(base_url=server.http) as http:
            ready = await http.get("/readyz")
            assert ready.status_code == 503
            assert ready.json()["degraded"]["paused_tables"] == [table_id]
            health = (await http.get("/healthz")).json()
            assert health["status"] == "degraded" and health["degraded"]["paused_tables"]
            stats = (await http.get("/api/stats")).json()["database"]
            assert stats["paused_tables"] == 1 and stats["retries"] >= 1
        await watcher.send({"type": "ping", "ref": "p1"})  # still answered while paused
        assert (await watcher.wait_type("pong"))["ref"] == "p1"
    finally:
        await admin.command("configureFailPoint", "failCommand", mode="off")
    resumed = await watcher.wait_type("notice")
    assert resumed["paused"] is False and resumed["reason"] is None
    # Nothing was shown while paused; the held hand's end follows the resume notice.
    paused_at = watcher.received.index(paused)
    resumed_at = watcher.received.index(resumed)
    assert not [m for m in watcher.received[paused_at:resumed_at] if m.get("type") == "state"]
    # The change held (a hand's end or a deal: both are updates) comes next; play goes on.
    await watcher.wait_type("state")
    done = await watcher.wait_state(finished)
    hand_no = done["view"]["last_result"]["hand_no"]
    # A deal does not wait for the last hand's filing (it goes behind), but the next
    # hand's end does: once that end is shown, the hand is in the archive.
    await watcher.wait_state(
        lambda s: finished(s) and s["view"]["last_result"]["hand_no"] > hand_no
    )
    hands = server.state.mongo.db.hands
    assert await hands.count_documents({"table_id": table_id, "hand_no": hand_no}) == 1
    async with httpx.AsyncClient(base_url=server.http) as http:
        assert (await http.get("/readyz")).status_code == 200
    await watcher.close()
