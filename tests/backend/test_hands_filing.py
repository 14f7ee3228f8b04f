"""A hand is filed behind the table's path, yet a player's hand list read right after
the hand's end lists it: the list waits for that player's filing in flight."""

from __future__ import annotations

import httpx
from backend_testlib import RunningServer, create_table, guest, join
from pymongo import AsyncMongoClient

HOLD_MS = 1500  # the filing's hold: shorter than the list's wait (FILING_WAIT)


async def test_my_hands_lists_a_hand_whose_filing_is_still_held(
    server: RunningServer, mongo_url: str
) -> None:
    token, alice = await guest(server, "Alice")
    table = await create_table(server, token, seats=2, bots=1, small_blind=5, big_blind=10)
    client = await join(server, table["table_id"], token)
    await client.send({"type": "sit", "seat": 2, "buy_in": table["min_buy_in"]})
    while True:  # check until facing a bet: a free check cannot be folded
        state = await client.wait_state(
            lambda s: s["view"]["hand_in_progress"] and s["view"]["actor"] == 2
        )
        if state["view"]["legal_actions"]["can_fold"]:
            break
        await client.send({"type": "act", "action": "check"})
    runtime = server.state.tables.get(table["table_id"])
    assert runtime is not None
    await runtime.persister.drain()  # the buy-in filed: the next insert is the hand's filing
    admin: AsyncMongoClient[dict[str, object]] = AsyncMongoClient(mongo_url)
    await admin.admin.command(
        "configureFailPoint",
        "failCommand",
        mode={"times": 1},
        data={"failCommands": ["insert"], "blockConnection": True, "blockTimeMS": HOLD_MS},
    )
    try:
        await client.send({"type": "act", "action": "fold"})
        hand_no = state["view"]["hand_no"]
        await client.wait_state(
            lambda s: s["view"]["hand_no"] == hand_no and not s["view"]["hand_in_progress"]
        )
        assert runtime.persister.filing_for(alice) is not None  # held by the database
        async with httpx.AsyncClient(base_url=server.http) as http:
            page = (
                await http.get("/api/hands", headers={"Authorization": f"Bearer {token}"})
            ).json()
        assert hand_no in [item["hand_no"] for item in page["items"]]  # listed at once
    finally:
        await admin.admin.command("configureFailPoint", "failCommand", mode="off")
        await admin.close()
        await client.close()
