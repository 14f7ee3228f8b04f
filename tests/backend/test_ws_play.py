"""Playing over real WebSockets: humans and bots, hidden cards, spectators, seats and chat."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from backend_testlib import (
    RunningServer,
    create_table,
    guest,
    join,
    play_until_hand_over,
)

Message = dict[str, Any]


async def test_a_full_hand_between_a_human_and_bots(server: RunningServer) -> None:
    token, _ = await guest(server, "Alice")
    table = await create_table(server, token, seats=4, bots=2, small_blind=5, big_blind=10)
    assert table["bots"] == 2
    alice = await join(server, table["table_id"], token)
    await alice.send({"type": "sit", "seat": 4, "buy_in": 1000})
    final = await play_until_hand_over(alice, 1)
    view = final["view"]
    assert view["last_result"] is not None
    assert sum(view["last_result"]["net"].values()) == 0
    assert sum(s["stack"] for s in view["seats"]) == 1000 + 2 * table["max_buy_in"]
    causes = [m["cause"] for m in alice.received if m["type"] == "state" and m["cause"]]
    assert any(c["by"] == "bot" for c in causes)
    assert any(c["kind"] == "hand_start" for c in causes)
    seqs = [m["seq"] for m in alice.received if m["type"] == "state"]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
    await alice.close()


def shown_seats(view: Message) -> set[int]:
    shown = {e["seat"] for e in view["events"] if e["kind"] == "show"}
    if view["last_result"]:
        shown |= {int(s) for s in view["last_result"]["shown"]}
    return shown


async def test_hidden_cards_never_reach_another_client(server: RunningServer) -> None:
    alice_token, _ = await guest(server, "Alice")
    bob_token, _ = await guest(server, "Bob")
    carol_token, _ = await guest(server, "Carol")
    table = await create_table(server, alice_token, seats=3, bots=0, small_blind=5, big_blind=10)
    table_id = table["table_id"]
    alice = await join(server, table_id, alice_token)
    bob = await join(server, table_id, bob_token)
    carol = await join(server, table_id, carol_token)  # a spectator
    await alice.send({"type": "sit", "seat": 1, "buy_in": 1000})
    await bob.send({"type": "sit", "seat": 2, "buy_in": 1000})
    hands = 3
    # Both players check or call to the end: some hands reach a showdown, some not.
    await asyncio.gather(play_until_hand_over(alice, hands), play_until_hand_over(bob, hands))
    await carol.wait_state(
        lambda s: s["view"]["hand_no"] >= hands and not s["view"]["hand_in_progress"]
    )
    holes: dict[tuple[int, int], list[str]] = {}
    for who, seat in ((alice, 1), (bob, 2)):
        for m in who.received:
            if m["type"] == "state" and m["view"]["hand_no"] >= 1:
                own = next(s for s in m["view"]["seats"] if s["seat"] == seat)
                if own["hole_cards"]:
                    holes[(m["view"]["hand_no"], seat)] = own["hole_cards"]
    assert len(holes) >= 2 * hands - 1
    checked = 0
    for viewer, viewer_seat in ((alice, 1), (bob, 2), (carol, None)):
        for raw, m in zip(viewer.raw, viewer.received, strict=True):
            if m["type"] != "state":
                continue
            view = m["view"]
            shown = shown_seats(view)
            for seat in view["seats"]:
                if seat["seat"] != viewer_seat and seat["hole_cards"] is not None:
                    assert seat["seat"] in shown, (viewer_seat, seat)
            for (hand_no, seat), cards in holes.items():
                if hand_no == view["hand_no"] and seat != viewer_seat and seat not in shown:
                    for card in cards:
                        assert json.dumps(card) not in raw, (viewer_seat, seat, card)
                        checked += 1
    assert checked > 0
    for client in (alice, bob, carol):
        await client.close()


async def test_spectators_chat_and_seat_commands(server: RunningServer) -> None:
    alice_token, alice_id = await guest(server, "Alice")
    bob_token, _ = await guest(server, "Bob")
    table = await create_table(server, alice_token, seats=6, small_blind=5, big_blind=10)
    table_id = table["table_id"]
    alice = await join(server, table_id, alice_token)
    bob = await join(server, table_id, bob_token)
    await bob.send({"type": "chat", "text": "  good luck  "})
    chat = await alice.wait_type("chat")
    assert chat["text"] == "good luck" and chat["name"] == "Bob" and chat["seat"] is None
    await alice.send({"type": "sit", "seat": 3, "buy_in": 500, "ref": "s1"})
    state = await bob.wait_state(lambda s: s["cause"] and s["cause"]["kind"] == "sit")
    assert [(s["seat"], s["name"], s["stack"]) for s in state["view"]["seats"]] == [
        (3, "Alice", 500)
    ]
    assert state["view"]["viewer_seat"] is None
    for command, kind in (("sit_out", "sit_out"), ("sit_back", "sit_back")):
        await alice.send({"type": command})
        state = await alice.wait_state(lambda s, k=kind: s["cause"] and s["cause"]["kind"] == k)
    await alice.send({"type": "rebuy", "amount": 200})
    state = await alice.wait_state(lambda s: s["cause"] and s["cause"]["kind"] == "rebuy")
    assert state["view"]["seats"][0]["stack"] == 700
    await alice.send({"type": "rebuy", "amount": 10_000, "ref": "too-much"})
    error = await alice.wait_type("error")
    assert error["code"] == "buy_in" and error["ref"] == "too-much"
    assert "maximum buy-in" in error["message"]
    await alice.send({"type": "stand"})
    state = await bob.wait_state(lambda s: s["cause"] and s["cause"]["kind"] == "stand")
    assert state["view"]["seats"] == []
    assert state["cause"]["stack"] == 700  # everyone sees the chips she left with
    # Chips are booked: a buy-in, a rebuy, a cashout of the whole stack.
    await server.state.tables.get(table_id).persister.drain()  # type: ignore[union-attr]
    entries = await server.state.repos.ledger.entries(table_id)
    assert [(e["kind"], e["amount"]) for e in entries if e["player_id"] == alice_id] == [
        ("buy_in", 500),
        ("rebuy", 200),
        ("cashout", 700),
    ]
    async with httpx.AsyncClient(base_url=server.http) as http:
        detail = (await http.get(f"/api/tables/{table_id}")).json()
    assert detail["seats_taken"] == 0
    for client in (alice, bob):
        await client.close()
