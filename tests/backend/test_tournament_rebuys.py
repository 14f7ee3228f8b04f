"""Rebuys, the add-on and late registration through the real server: REST, the
director's orders carried out by a real table (chips added with the host's stack
adjustment), the tournaments' clock a FakeClock so the periods end when the test says.
The hand pause is ten minutes: no hand is dealt, so the stacks are the test's to know."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from backend_testlib import RunningServer, WsClient, guest, join, my_turn

from backend.tournament.clock import FakeClock

pytestmark = pytest.mark.slow

LEVELS = [{"small_blind": 10 * 2**i, "big_blind": 20 * 2**i} for i in range(4)]
CUSTOM = {"structure": "custom", "starting_chips": 1000, "levels": LEVELS, "level_seconds": 60}


async def _server(
    server_factory: Callable[..., Any], hand_pause_ms: int = 600_000
) -> tuple[RunningServer, FakeClock]:
    server: RunningServer = await server_factory(hand_pause_ms=hand_pause_ms)
    fake = FakeClock(time.time())
    assert server.state.tournaments is not None
    server.state.tournaments.clock = fake
    return server, fake


def _me(detail: dict[str, Any], player_id: str) -> dict[str, Any]:
    mine: dict[str, Any] = next(p for p in detail["players"] if p["player_id"] == player_id)
    return mine


async def test_rebuy_and_add_on_through_the_server(server_factory: Callable[..., Any]) -> None:
    server, fake = await _server(server_factory)
    token, alice = await guest(server, "Alice")
    bob_token, _ = await guest(server, "Bob")
    auth = {"Authorization": f"Bearer {token}"}
    body = {"name": "Rebuy SNG", "players": 3, "bots": 2, "buy_in": 10, "prizes": "top2"}
    async with httpx.AsyncClient(base_url=server.http, headers=auth) as http:
        bad = await http.post("/api/tournaments", json={**body, **CUSTOM, "rebuy_levels": 4})
        assert bad.status_code == 422 and "before the last level" in bad.text
        created = await http.post(
            "/api/tournaments", json={**body, **CUSTOM, "rebuy_levels": 2, "add_on": 1500}
        )
        assert created.status_code == 201, created.text
        tid = created.json()["tournament_id"]
        early = await http.post(f"/api/tournaments/{tid}/rebuy")
        assert early.status_code == 409 and "not registered" in early.text
        joined = (await http.post(f"/api/tournaments/{tid}/register")).json()
        assert joined["status"] == "running" and joined["rebuy_open"]
        assert (joined["rebuy_levels"], joined["rebuy_chips"], joined["add_on"]) == (2, 1000, 1500)
        assert _me(joined, alice)["may_rebuy"] and not _me(joined, alice)["may_add_on"]
        (table,) = joined["tables"]
        # A rebuy at the starting stack: the pool grows, the chips go to the table.
        bought = await http.post(f"/api/tournaments/{tid}/rebuy")
        assert bought.status_code == 200, bought.text
        detail = bought.json()
        assert detail["prize_pool"] == 40 and sum(detail["prizes"]) == 40
        assert _me(detail, alice)["chips"] == 2000 and _me(detail, alice)["rebuys"] == 1
        again = await http.post(f"/api/tournaments/{tid}/rebuy")
        assert again.status_code == 409 and "at or below the starting 1000" in again.text
        early_add_on = await http.post(f"/api/tournaments/{tid}/add-on")
        assert early_add_on.status_code == 409 and "opens in level 2" in early_add_on.text
        fake.advance(60)  # level 2: the rebuy period's last, the add-on's
        added = await http.post(f"/api/tournaments/{tid}/add-on")
        assert added.status_code == 200, added.text
        assert added.json()["prize_pool"] == 50 and _me(added.json(), alice)["chips"] == 3500
        twice = await http.post(f"/api/tournaments/{tid}/add-on")
        assert twice.status_code == 409 and "one add-on" in twice.text
        stranger = await http.post(
            f"/api/tournaments/{tid}/rebuy", headers={"Authorization": f"Bearer {bob_token}"}
        )
        assert stranger.status_code == 409 and "not registered" in stranger.text
        missing = await http.post("/api/tournaments/Tnope/rebuy")
        assert missing.status_code == 404
        fake.advance(60)  # level 3: the period is over
        late = await http.post(f"/api/tournaments/{tid}/rebuy")
        assert late.status_code == 409 and "rebuy period is over" in late.text
        closed = (await http.get(f"/api/tournaments/{tid}")).json()
        assert not closed["rebuy_open"] and not _me(closed, alice)["may_rebuy"]
        assert (closed["rebuys"], closed["add_ons"], closed["prize_pool"]) == (1, 1, 50)
    # The table holds the chips bought: booked through the host's stack adjustment.
    watcher = await join(server, table["table_id"], bob_token)

    def alice_bought(state: dict[str, Any]) -> bool:
        seats = state["view"]["seats"]
        return any(s["player_id"] == alice and s["stack"] == 3500 for s in seats)

    state = watcher.last_state()  # the table had the chips before the watcher joined
    assert alice_bought(state)
    assert not state["tournament"]["rebuy_open"]  # level 3: over
    assert sum(s["stack"] for s in state["view"]["seats"]) == 3 * 1000 + 1000 + 1500
    await watcher.close()


async def test_late_registration_through_the_server(server_factory: Callable[..., Any]) -> None:
    server, fake = await _server(server_factory)
    token, alice = await guest(server, "Alice")
    bob_token, bob = await guest(server, "Bob")
    carol_token, _ = await guest(server, "Carol")
    body = {"name": "Late MTT", "players": 6, "late_registration_levels": 1, **CUSTOM}
    async with httpx.AsyncClient(base_url=server.http) as http:
        auth = {"Authorization": f"Bearer {token}"}
        created = await http.post("/api/tournaments", json=body, headers=auth)
        assert created.status_code == 201, created.text
        tid = created.json()["tournament_id"]
        await http.post(f"/api/tournaments/{tid}/register", headers=auth)
        started = (await http.post(f"/api/tournaments/{tid}/start", headers=auth)).json()
        # Bots make up the two a start needs; the other seats stay open for late entries.
        assert started["status"] == "running" and started["registered"] == 2
        assert _me(started, alice)["chips"] == 1000
        fake.advance(30)
        late = await http.post(
            f"/api/tournaments/{tid}/register", headers={"Authorization": f"Bearer {bob_token}"}
        )
        assert late.status_code == 200, late.text
        detail = late.json()
        (table,) = detail["tables"]
        assert (
            _me(detail, bob)["chips"] == 1000 and _me(detail, bob)["table_id"] == table["table_id"]
        )
        assert detail["registered"] == 3 and detail["prize_pool"] == 300
        fake.advance(31)  # level 2: late registration is closed
        closed = await http.post(
            f"/api/tournaments/{tid}/register", headers={"Authorization": f"Bearer {carol_token}"}
        )
        assert closed.status_code == 409 and "late registration is closed" in closed.text
        assert (await http.get(f"/api/tournaments/{tid}")).json()["registered"] == 3
    watcher = await join(server, table["table_id"], carol_token)

    def bob_seated(state: dict[str, Any]) -> bool:
        return any(s["player_id"] == bob and s["stack"] == 1000 for s in state["view"]["seats"])

    assert bob_seated(watcher.last_state())  # the seat order reached the table first
    await watcher.close()


async def _turn_after(alice: WsClient, hand_no: int) -> dict[str, Any]:
    """Alice's first turn in a hand after `hand_no` (the state join() took counts too)."""

    def hers(state: dict[str, Any]) -> bool:
        return my_turn(state) and state["view"]["hand_no"] > hand_no

    seen = [m for m in alice.received if m.get("type") == "state" and hers(m)]
    return seen[0] if seen else await alice.wait_state(hers)


async def _give_up(alice: WsClient, turn: dict[str, Any]) -> None:
    """Alice folds (checks when she may not fold) at every turn of this hand, to its end."""
    hand_no = turn["view"]["hand_no"]
    while True:
        legal = turn["view"]["legal_actions"]
        action = "fold" if legal["can_fold"] else "check"
        await alice.send({"type": "act", "action": action, "hand_no": hand_no})
        seq = turn["seq"]

        def next_one(s: dict[str, Any], after: int = seq) -> bool:
            view = s["view"]
            over = view["hand_no"] > hand_no or not view["hand_in_progress"]
            return bool(over or (my_turn(s) and s["seq"] > after))

        turn = await alice.wait_state(next_one)
        if not my_turn(turn) or turn["view"]["hand_no"] != hand_no:
            return


def _bought(state: dict[str, Any]) -> int | None:
    """The chips of a rebuy or add-on this state shows being added, if it does."""
    cause = state.get("cause") or {}
    amount: int | None = cause.get("amount")
    return amount if cause.get("note") == "tournament rebuy or add-on" else None


async def test_chips_bought_during_a_hand_are_added_at_its_end(
    server_factory: Callable[..., Any],
) -> None:
    """Alice plays heads-up against a bot. Her rebuy while her hand waits for her is
    owed and given at its end; the add-on that reaches the table during a hand (the race
    of a deal queued before it) waits for the hand's end and is counted in its report."""
    server, fake = await _server(server_factory, hand_pause_ms=0)
    token, alice_id = await guest(server, "Alice")
    auth = {"Authorization": f"Bearer {token}"}
    body = {"name": "Heads-up", "players": 2, "bots": 1, "rebuy_levels": 2, "add_on": 700}
    async with httpx.AsyncClient(base_url=server.http, headers=auth) as http:
        created = await http.post("/api/tournaments", json={**body, **CUSTOM})
        tid = created.json()["tournament_id"]
        (table,) = (await http.post(f"/api/tournaments/{tid}/register")).json()["tables"]
        alice = await join(server, table["table_id"], token)
        # At her turn (the hand waits for her): a rebuy once her stack allows it.
        hand_no = 0
        while True:
            turn = await _turn_after(alice, hand_no)
            hand_no = turn["view"]["hand_no"]
            assert turn["tournament"]["rebuy_open"] and not turn["tournament"]["add_on_open"]
            mine = _me((await http.get(f"/api/tournaments/{tid}")).json(), alice_id)
            if mine["may_rebuy"]:
                bought = await http.post(f"/api/tournaments/{tid}/rebuy")
                assert bought.status_code == 200, bought.text
                assert not _me(bought.json(), alice_id)["may_rebuy"]  # owed: above the start
                await _give_up(alice, turn)
                break
            await _give_up(alice, turn)
        # Level 2 opens the add-on. At her next turn the director takes the table to be
        # between hands, as when the deal was queued before the add-on reached it.
        fake.advance(60)
        turn = await _turn_after(alice, hand_no)
        hand_no = turn["view"]["hand_no"]
        tournaments = server.state.tournaments
        director = tournaments.get(tid) if tournaments is not None else None
        assert director is not None and table["table_id"] in director.state.busy
        director.state.busy.remove(table["table_id"])
        added = await http.post(f"/api/tournaments/{tid}/add-on")
        assert added.status_code == 200, added.text
        await _give_up(alice, turn)
        # The add-on's chips, added at the hand's end, are shown right after it.
        added_state = await alice.wait_state(lambda s: _bought(s) == 700)
        detail = (await http.get(f"/api/tournaments/{tid}")).json()
    assert (detail["rebuys"], detail["add_ons"]) == (1, 1)
    # The director's chips are the table's stacks as reported: every chip bought.
    assert sum(p["chips"] for p in detail["players"]) == 2 * 1000 + 1000 + 700
    assert sum(s["stack"] for s in added_state["view"]["seats"]) == 2 * 1000 + 1000 + 700
    states = [m for m in alice.received if m.get("type") == "state"]
    assert [_bought(m) for m in states if _bought(m)] == [1000, 700]
    await alice.close()
