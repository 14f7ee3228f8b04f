"""Restart recovery: SIGKILL a real `showdown serve` mid-hand, restart it: same seats and stacks."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from backend_testlib import TIMEOUT, signed_in
from serve_testlib import ServeProcess

from backend.db.embedded import free_port

pytestmark = pytest.mark.slow


@pytest.fixture
async def serve_dir(tmp_path: Path) -> AsyncIterator[dict[str, Any]]:
    running: list[ServeProcess] = []
    yield {"dir": tmp_path / "data", "log": tmp_path / "serve.log", "running": running}
    for process in running:
        await process.stop()


def by_seat(view: dict[str, Any]) -> dict[int, int]:
    return {s["seat"]: s["stack"] for s in view["seats"]}


async def test_kill_9_and_restart_keeps_every_seat_and_chip(serve_dir: dict[str, Any]) -> None:
    port = free_port()
    fast = {"SHOWDOWN_HAND_PAUSE_MS": "0", "BOT_DELAY_MS": "0", "ACTION_TIMEOUT": "60"}
    first = await ServeProcess(serve_dir["dir"], port, serve_dir["log"], **fast).start()
    serve_dir["running"].append(first)
    async with httpx.AsyncClient(base_url=first.http) as http:
        login = (await http.post("/api/auth/guest", json={"name": "Alice"})).json()
        auth = {"Authorization": f"Bearer {login['token']}"}
        table = (
            await http.post(
                "/api/tables",
                json={"seats": 3, "bots": 2, "small_blind": 5, "big_blind": 10},
                headers=auth,
            )
        ).json()
        quiet = (await http.post("/api/tables", json={"seats": 6}, headers=auth)).json()
    alice = await signed_in(f"ws://127.0.0.1:{port}/ws/tables/{table['table_id']}", login["token"])
    await alice.send({"type": "sit", "seat": 3, "buy_in": 500})
    # Play (check or fold) until a hand is over and the next one waits for Alice with
    # chips in the pot: that is when the server is killed.
    last_over: dict[str, Any] | None = None
    while True:
        state = await alice.wait_state(lambda s: True)
        view = state["view"]
        if not view["hand_in_progress"] and view["hand_no"] >= 1:
            last_over = state
        elif view["actor"] == 3:
            if last_over is not None and view["hand_no"] == last_over["view"]["hand_no"] + 1:
                break
            legal = view["legal_actions"]
            await alice.send({"type": "act", "action": "check" if legal["can_check"] else "fold"})
    assert last_over is not None
    expected = by_seat(last_over["view"])
    assert sum(expected.values()) == 500 + 2 * table["max_buy_in"]
    assert view["total_pot"] > 0
    killed_hand = view["hand_no"]
    await first.kill()
    with pytest.raises(Exception):  # noqa: B017, PT011 - the socket is gone, however it says so
        await alice.wait_type("never", within=TIMEOUT)

    slow = {"SHOWDOWN_HAND_PAUSE_MS": "600000"}  # keep the restored table still for the checks
    second = await ServeProcess(serve_dir["dir"], port, serve_dir["log"], **slow).start()
    serve_dir["running"].append(second)
    async with httpx.AsyncClient(base_url=second.http) as http:
        restored = (await http.get(f"/api/tables/{table['table_id']}")).json()
        assert by_seat(restored["view"]) == expected  # the voided hand gave every chip back
        assert restored["hand_in_progress"] is False
        assert restored["hand_no"] == killed_hand
        assert restored["view"]["button"] == view["button"]  # the next hand moves it on
        names = {s["seat"]: s["name"] for s in restored["view"]["seats"]}
        assert names[3] == "Alice"
        other = (await http.get(f"/api/tables/{quiet['table_id']}")).json()
        assert other["seats"] == 6 and other["seats_taken"] == 0
        # The finished hand was kept, the voided one was not; the token still works.
        hands = (await http.get("/api/hands", headers=auth)).json()
        filed = sorted(h["hand_no"] for h in hands["items"])
        assert filed == list(range(1, killed_hand)), filed
    # The player reconnects to the restored table with the same token.
    again = await signed_in(
        f"ws://127.0.0.1:{port}/ws/tables/{table['table_id']}", login["token"], last_seq=5
    )
    welcome = await again.wait_type("welcome")
    assert welcome["seat"] == 3 and welcome["resync"] is True
    await again.close()


async def test_sigterm_stops_the_database_before_serve_exits(serve_dir: dict[str, Any]) -> None:
    served = await ServeProcess(serve_dir["dir"], free_port(), serve_dir["log"]).start()
    serve_dir["running"].append(served)
    pid_file = serve_dir["dir"] / "mongo" / "secantusd.pid"
    database_pid = int(pid_file.read_text())
    assert served.process is not None
    await served.stop()  # SIGTERM, as a service manager or Ctrl-C would send
    assert served.process.returncode == 0
    # serve waited for its database: no orphan left shutting down (or hung) on its own.
    assert not pid_file.exists()
    with pytest.raises(ProcessLookupError):
        os.kill(database_pid, 0)
