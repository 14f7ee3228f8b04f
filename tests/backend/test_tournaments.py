"""Tournaments through the real server: REST to create and register, the director's
orders carried out by real tables, a sit-and-go of bots and one absent player run to the
end (the absent player blinded off), places, prizes and the player's ROI stored."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from backend_testlib import TIMEOUT, RunningServer, guest, join

pytestmark = pytest.mark.slow


def _finished(state: dict[str, Any]) -> bool:
    tournament = state.get("tournament")
    return tournament is not None and tournament["status"] == "finished"


async def test_a_sit_and_go_runs_to_the_end(server_factory: Callable[..., Any]) -> None:
    server: RunningServer = await server_factory(action_timeout=0.3, max_timeouts=1)
    token, alice = await guest(server, "Alice")
    auth = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=server.http, headers=auth) as http:
        bad = await http.post("/api/tournaments", json={"name": "x", "players": 3, "bots": 4})
        assert bad.status_code == 422 and "bots" in bad.text
        created = await http.post(
            "/api/tournaments",
            json={
                "name": "Tiny SNG",
                "players": 4,
                "bots": 3,
                "structure": "turbo",
                "levels_by": "hands",
                "level_hands": 2,
                "prizes": "top2",
                "buy_in": 10,
            },
        )
        assert created.status_code == 201, created.text
        tid = created.json()["tournament_id"]
        assert created.json()["status"] == "registering"
        listed = (await http.get("/api/tournaments", params={"status": "registering"})).json()
        assert [t["tournament_id"] for t in listed] == [tid]
        # Alice takes the last seat: full, it starts; she never connects (blinded off).
        joined = (await http.post(f"/api/tournaments/{tid}/register")).json()
        assert joined["status"] == "running" and joined["prize_pool"] == 40
        again = await http.post(f"/api/tournaments/{tid}/register")
        assert again.status_code == 409
        assert joined["prizes"] == [26, 14]
        (table,) = joined["tables"]
        assert (await http.get("/api/tables")).json() == []  # not in the cash lobby
    watcher_token, _ = await guest(server, "Watcher")
    watcher = await join(server, table["table_id"], watcher_token)
    first = watcher.last_state()
    assert first["tournament"]["tournament_id"] == tid
    await watcher.send({"type": "sit", "seat": 1, "buy_in": 1500})  # no seat from the lobby
    refused = await watcher.wait_type("error")
    assert refused["code"] == "bad_message" and "tournament seats its players" in refused["message"]
    state = first
    while not _finished(state):
        state = await watcher.wait_state(lambda s: True, within=TIMEOUT)
    view = state["view"]
    assert sum(s["stack"] for s in view["seats"]) == 4 * 1500  # every chip on the table
    await watcher.close()
    async with httpx.AsyncClient(base_url=server.http, headers=auth) as http:
        final = (await http.get(f"/api/tournaments/{tid}")).json()
        assert final["status"] == "finished"
        places = sorted(p["place"] for p in final["players"])
        # One winner; players busted in one hand from equal stacks share a place
        # (backend/tournament/places.py), so each place is 1 + the players ahead of it.
        assert places[0] == 1 and places[1] == 2
        assert all(place == 1 + sum(q < place for q in places) for place in places)
        assert sum(p["prize"] for p in final["players"]) == 40
        mine = next(p for p in final["players"] if p["player_id"] == alice)
        record = (await http.get(f"/api/players/{alice}/tournaments")).json()
        assert record["played"] == 1 and record["buy_ins"] == 10
        assert record["results"][0]["place"] == mine["place"]
        assert record["roi"] == pytest.approx((mine["prize"] - 10) / 10)
        params = {"limit": 1, "offset": 1}
        paged = (await http.get(f"/api/players/{alice}/tournaments", params=params)).json()
        assert paged["results"] == [] and paged["played"] == 1  # a page; totals of all
    # Every hand stored and reviewable in Alice's hands, marked as the tournament's; the
    # tournament chips stay out of her cash statistics (per stakes, bb/100, won).
    runtime = server.state.tables.get(table["table_id"])
    assert runtime is not None
    await runtime.persister.drain()
    await server.state.repos.hands.stats.drain()
    async with httpx.AsyncClient(base_url=server.http, headers=auth) as http:
        hands = (await http.get("/api/hands", params={"limit": 100})).json()
        assert 0 < hands["total"] <= final["hands"]  # hers: until she busted, or all
        assert {h["table_id"] for h in hands["items"]} == {table["table_id"]}
        shown = (await http.get(f"/api/hands/{hands['items'][0]['hand_id']}")).json()
        assert shown["record"]["tournament_id"] == tid
        stats = (await http.get(f"/api/players/{alice}/stats")).json()
    counted = await server.state.mongo.db.player_hand_stats.count_documents({"player_ids": alice})
    assert counted == hands["total"]  # counted (the lobby's table figures)...
    assert stats["total"]["hands"] == 0 and stats["items"] == []  # ...but not as cash
