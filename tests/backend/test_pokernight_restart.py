"""A home game through a kill -9 (#34): a real `showdown serve` is killed mid-hand and
started again on the same data. The ledger still sums to zero; who the invite admitted
and who waits for the host's approval are still there; a removed player sits again,
by the host's approval when approval is on."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from backend_testlib import TIMEOUT, WsClient, my_turn, passive, play_until_hand_over
from serve_testlib import ServeProcess

from backend.db.embedded import free_port

pytestmark = pytest.mark.slow
Message = dict[str, Any]


@pytest.fixture
async def running(tmp_path: Path) -> AsyncIterator[list[ServeProcess]]:
    processes: list[ServeProcess] = []
    yield processes
    for process in processes:
        await process.stop()


def caused(kind: str, **fields: Any) -> Any:
    def match(state: Message) -> bool:
        cause = state["cause"]
        return (
            bool(cause) and cause["kind"] == kind and all(cause[k] == v for k, v in fields.items())
        )

    return match


async def guest(serve: ServeProcess, name: str) -> tuple[str, str]:
    async with httpx.AsyncClient(base_url=serve.http) as http:
        body = (await http.post("/api/auth/guest", json={"name": name})).json()
        return body["token"], body["player_id"]


async def get(serve: ServeProcess, path: str, token: str) -> httpx.Response:
    async with httpx.AsyncClient(base_url=serve.http) as http:
        return await http.get(path, headers={"Authorization": f"Bearer {token}"})


async def opened(serve: ServeProcess, table_id: str, token: str, invite: str | None) -> WsClient:
    client = await WsClient.connect(serve.ws(f"/ws/tables/{table_id}"))
    await client.send({"type": "auth", "token": token, "invite": invite})
    await client.wait_type("welcome")
    await client.wait_state(lambda s: True)
    return client


def assert_squares(ledger: Message) -> None:
    """Sums to zero, every chip in is on the table or cashed out, the payments square."""
    assert ledger["total"] == 0 and sum(r["net"] for r in ledger["rows"]) == 0
    chips_in = sum(r["buy_ins"] + r["rebuys"] + r["adjustments"] for r in ledger["rows"])
    chips_now = sum(r["on_table"] + r["cashed_out"] for r in ledger["rows"])
    assert chips_now == chips_in
    nets = {r["player_id"]: r["net"] for r in ledger["rows"]}
    for payment in ledger["settle_up"]:
        nets[payment["payer"]] += payment["amount"]
        nets[payment["payee"]] -= payment["amount"]
    assert set(nets.values()) <= {0}


async def test_a_home_game_survives_kill_9(running: list[ServeProcess], tmp_path: Path) -> None:
    port, data, log = free_port(), tmp_path / "data", tmp_path / "serve.log"
    fast = {"SHOWDOWN_HAND_PAUSE_MS": "0", "BOT_DELAY_MS": "0", "ACTION_TIMEOUT": "60"}
    first = await ServeProcess(data, port, log, **fast).start()
    running.append(first)
    host, host_id = await guest(first, "Hana")
    carol_token, carol_id = await guest(first, "Carol")
    dave_token, _ = await guest(first, "Dave")
    eve_token, eve_id = await guest(first, "Eve")
    async with httpx.AsyncClient(base_url=first.http) as http:
        created = await http.post(
            "/api/tables",
            json={"seats": 4, "bots": 1, "small_blind": 5, "big_blind": 10, "private": True},
            headers={"Authorization": f"Bearer {host}"},
        )
        table = created.json()
    table_id, invite = table["table_id"], table["invite"]

    hana = await opened(first, table_id, host, None)
    await hana.send({"type": "pause"})
    await hana.wait_state(caused("pause"))
    await hana.send({"type": "table_settings", "approve_seats": True})
    await hana.wait_state(caused("settings"))
    await hana.send({"type": "sit", "seat": 2, "buy_in": 500})  # the host needs no approval
    carol = await opened(first, table_id, carol_token, invite)
    await carol.send({"type": "sit", "seat": 3, "buy_in": 400})
    await hana.wait_state(caused("seat_request", player_id=carol_id))
    await hana.send({"type": "approve", "player_id": carol_id})
    await hana.wait_state(caused("sit", player_id=carol_id))
    dave = await opened(first, table_id, dave_token, invite)  # admitted, only watching
    await dave.close()
    eve = await opened(first, table_id, eve_token, invite)
    await eve.send({"type": "sit", "seat": 4, "buy_in": 450})  # waits for approval
    await hana.wait_state(caused("seat_request", player_id=eve_id))
    await hana.send({"type": "adjust", "seat": 3, "amount": 100})
    await hana.send({"type": "adjust", "seat": 2, "amount": -50})
    await hana.send({"type": "remove", "seat": 1})  # the bot, cashed out
    await hana.wait_state(caused("remove", seat=1))
    await hana.send({"type": "resume"})
    dealt = await hana.wait_state(caused("hand_start"))
    hand_no = dealt["view"]["hand_no"]
    # Play one hand through (its end is stored before the next deal), then kill -9 while
    # the next hand waits for a human with chips in the pot.
    if my_turn(dealt):  # the deal's state was hers, and consumed
        await hana.send(passive(dealt["view"]))
    await asyncio.gather(play_until_hand_over(hana, hand_no), play_until_hand_over(carol, hand_no))
    await carol.wait_state(lambda s: s["view"]["hand_no"] == hand_no + 1)
    await first.kill()
    for client in (hana, carol, eve):
        with pytest.raises(Exception):  # noqa: B017, PT011 - the socket is gone, however it says so
            await client.wait_type("never", within=TIMEOUT)

    second = await ServeProcess(data, port, log, SHOWDOWN_HAND_PAUSE_MS="600000").start()
    running.append(second)
    ledger = (await get(second, f"/api/tables/{table_id}/ledger", host)).json()
    assert_squares(ledger)
    rows = {r["player_id"]: r for r in ledger["rows"]}
    assert (rows[carol_id]["buy_ins"], rows[carol_id]["adjustments"]) == (400, 100)
    assert rows[host_id]["adjustments"] == -50
    assert rows[f"bot-{table_id}-1"]["cashed_out"] == table["max_buy_in"]
    # Dave was admitted by the link: he still sees the private table without it.
    assert (await get(second, f"/api/tables/{table_id}", dave_token)).status_code == 200
    dave = await opened(second, table_id, dave_token, None)
    await dave.close()
    # Eve's request waits still; the host approves it.
    hana = await opened(second, table_id, host, None)
    assert hana.last_state()["host"]["seat_requests"] == [
        {"player_id": eve_id, "name": "Eve", "seat": 4, "buy_in": 450}
    ]
    eve = await opened(second, table_id, eve_token, None)
    await hana.send({"type": "approve", "player_id": eve_id})
    await hana.wait_state(caused("sit", player_id=eve_id))
    # Removed, Carol asks again and is seated on approval.
    carol = await opened(second, table_id, carol_token, None)
    await hana.send({"type": "remove", "seat": 3})
    await hana.wait_state(caused("remove", seat=3))
    await carol.send({"type": "sit", "seat": 3, "buy_in": 400})
    asked = await hana.wait_state(caused("seat_request", player_id=carol_id))
    assert 3 not in {s["seat"] for s in asked["view"]["seats"]}
    await hana.send({"type": "approve", "player_id": carol_id})
    sat = await carol.wait_state(caused("sit", player_id=carol_id))
    assert {s["seat"]: s["player_id"] for s in sat["view"]["seats"]}[3] == carol_id
    ledger = (await get(second, f"/api/tables/{table_id}/ledger", carol_token)).json()
    assert_squares(ledger)
    assert {r["player_id"]: r["buy_ins"] for r in ledger["rows"]}[carol_id] == 800
    for client in (hana, carol, eve):
        await client.close()
