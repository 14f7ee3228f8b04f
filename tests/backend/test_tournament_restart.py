"""A real `showdown serve` killed (SIGKILL) mid-tournament and started again: the
tournament goes on with every chip, the same level, and a clock that did not run while
the server was down; then it plays on to the end."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from serve_testlib import ServeProcess

from backend.db.embedded import free_port

pytestmark = pytest.mark.slow

FAST = {"SHOWDOWN_HAND_PAUSE_MS": "0", "BOT_DELAY_MS": "0"}
ENTRANTS = 8
# Short stacks (15 big blinds, a big-blind ante) and levels of 10 seconds of play (the
# shortest the API takes). The restart's checks read the clock within the first level:
# about half a second of play is gone by then. The fallback bots (no AI worker) play
# heads-up for a thousand hands at 15 big blinds without a bust, so the tournament ends
# by its blinds: the second level's big blind and ante put a stack all-in within a few
# hands (with blinds doubling a level, 20 s more play went by at the end). The clock
# reaches the last level (no time to the next) only after 20 seconds of play.
STRUCTURE = {
    "structure": "custom",
    "starting_chips": 600,
    "levels": [
        {"small_blind": sb, "big_blind": 2 * sb, "ante": 2 * sb, "big_blind_ante": True}
        for sb in (20, 320, 640)
    ],
    "level_seconds": 10,
}


@pytest.fixture
async def running(tmp_path: Path) -> AsyncIterator[list[ServeProcess]]:
    processes: list[ServeProcess] = []
    yield processes
    for process in processes:
        await process.stop()


def _chips(detail: dict[str, Any]) -> int:
    return sum(p["chips"] for p in detail["players"])


async def test_kill_9_mid_tournament_and_restart(
    tmp_path: Path, running: list[ServeProcess]
) -> None:
    port = free_port()
    data, log = tmp_path / "data", tmp_path / "serve.log"
    first = await ServeProcess(data, port, log, **FAST).start()
    running.append(first)
    async with httpx.AsyncClient(base_url=first.http) as http:
        login = (await http.post("/api/auth/guest", json={"name": "Host"})).json()
        auth = {"Authorization": f"Bearer {login['token']}"}
        body = {
            "name": "Restart MTT",
            "players": ENTRANTS,
            "bots": ENTRANTS,
            "seats_per_table": 4,
            "buy_in": 10,
            "prizes": "top3",
            **STRUCTURE,
        }
        created = await http.post("/api/tournaments", json=body, headers=auth)
        assert created.status_code == 201, created.text
        tid = created.json()["tournament_id"]
        assert len(created.json()["tables"]) == 2
        # Let it play some hands at both tables.
        while True:
            before = (await http.get(f"/api/tournaments/{tid}")).json()
            if before["hands"] >= 10:
                break
            await http.get("/healthz")  # a round trip: the server plays meanwhile
    killed_at = time.monotonic()
    await first.kill()
    slow = {"SHOWDOWN_HAND_PAUSE_MS": "600000", "BOT_DELAY_MS": "0"}
    second = await ServeProcess(data, port, log, **slow).start()
    running.append(second)
    async with httpx.AsyncClient(base_url=second.http) as http:
        after = (await http.get(f"/api/tournaments/{tid}")).json()
        waited = time.monotonic() - killed_at
    assert after["status"] == "running"
    assert _chips(after) == ENTRANTS * after["starting_chips"]  # no chip lost
    assert after["clock"]["level"] == before["clock"]["level"]
    # Resumed from the stored state, not from the start. The director's state is written
    # after its events, one write at a time: the kill may lose the writes in flight, so
    # the count of hands may lag `before` (read from memory); chips come from the tables.
    assert after["hands"] > 0
    # The clock went on from the play time stored last: the seconds the server was down
    # (kill, then start-up) were not played. A wall clock would have lost all `waited`.
    lost = before["clock"]["seconds_to_next"] - after["clock"]["seconds_to_next"]
    assert lost < waited - 0.5
    table_ids = {t["table_id"] for t in after["tables"]}
    seated = {p["player_id"] for p in after["players"] if p["place"] is None}
    async with httpx.AsyncClient(base_url=second.http) as http:
        at_tables: set[str] = set()
        total = 0
        for table_id in table_ids:
            view = (await http.get(f"/api/tables/{table_id}")).json()["view"]
            at_tables |= {s["player_id"] for s in view["seats"] if s["stack"] > 0}
            total += sum(s["stack"] for s in view["seats"])
    assert at_tables == seated  # every player left sits at a table, once
    assert total == ENTRANTS * after["starting_chips"]
    # The clock runs again (no hand is dealt at this server: its pause is 10 minutes).
    async with httpx.AsyncClient(base_url=second.http) as http:
        first_read = after["clock"]["seconds_to_next"]
        second_read = (await http.get(f"/api/tournaments/{tid}")).json()["clock"]
    assert second_read["level"] == after["clock"]["level"]
    assert second_read["seconds_to_next"] < first_read
    # Then it plays on to the end, at a server that deals again.
    await second.stop()
    third = await ServeProcess(data, port, log, **FAST).start()
    running.append(third)
    async with httpx.AsyncClient(base_url=third.http) as http, asyncio.timeout(240):
        while True:
            final = (await http.get(f"/api/tournaments/{tid}")).json()
            if final["status"] == "finished":
                break
            await asyncio.sleep(0.2)  # polling the REST status: there is no event to await
    assert final["hands"] > after["hands"]
    assert sorted(p["place"] for p in final["players"]) == list(range(1, ENTRANTS + 1))
    assert sum(p["prize"] for p in final["players"]) == final["prize_pool"] == 10 * ENTRANTS
    assert _chips(final) == ENTRANTS * final["starting_chips"]  # every chip, to the winner
    assert sorted(p["chips"] for p in final["players"])[-2:] == [0, _chips(final)]
