"""The host's controls on the real server (#34): each command is an event everyone sees,
refused from anyone but the host with nothing changed; the role passes on by itself
when the host leaves."""

from __future__ import annotations

from typing import Any

import httpx
from backend_testlib import RunningServer, WsClient, create_table, guest, join, my_turn

Message = dict[str, Any]

HOST_COMMANDS: list[Message] = [
    {"type": "pause"},
    {"type": "resume"},
    {"type": "remove", "seat": 1},
    {"type": "adjust", "seat": 1, "amount": 50},
    {"type": "add_bot", "seat": 4, "style": "cautious"},
    {"type": "bot_style", "seat": 1, "style": "random"},
    {"type": "table_settings", "big_blind": 40, "small_blind": 20},
    {"type": "approve", "player_id": "nobody"},
    {"type": "reject", "player_id": "nobody"},
    {"type": "hand_over", "player_id": "nobody"},
]


def caused(kind: str, **fields: Any) -> Any:
    def match(state: Message) -> bool:
        cause = state["cause"]
        return (
            bool(cause) and cause["kind"] == kind and all(cause[k] == v for k, v in fields.items())
        )

    return match


async def summary(server: RunningServer, table_id: str, token: str) -> Message:
    async with httpx.AsyncClient(base_url=server.http) as http:
        response = await http.get(
            f"/api/tables/{table_id}", headers={"Authorization": f"Bearer {token}"}
        )
        response.raise_for_status()
        body: Message = response.json()
        return body


async def refused(client: WsClient, command: Message, code: str) -> Message:
    await client.send({**command, "ref": command["type"]})
    error = await client.wait_for(lambda m: m["type"] == "error" and m["ref"] == command["type"])
    assert error["code"] == code, error
    return error


async def test_the_hosts_commands_and_refusals_for_anyone_else(server: RunningServer) -> None:
    host, host_id = await guest(server, "Hana")
    carol_token, carol_id = await guest(server, "Carol")
    table = await create_table(server, host, seats=4, bots=1, small_blind=5, big_blind=10)
    table_id, most = table["table_id"], table["max_buy_in"]
    assert table["host_id"] == host_id
    hana = await join(server, table_id, host)
    carol = await join(server, table_id, carol_token)

    # Paused before anyone sits: no hand is dealt, so each command acts between hands.
    await hana.send({"type": "pause"})
    paused = await carol.wait_state(caused("pause", by="host"))
    assert paused["host"] == {
        "host_id": host_id, "paused": True, "approve_seats": False, "seat_requests": []
    }  # fmt: skip
    await carol.send({"type": "sit", "seat": 3, "buy_in": 500})
    await carol.wait_state(caused("sit", player_id=carol_id))

    # Everyone else is refused, and nothing changes.
    before = await summary(server, table_id, host)
    for command in HOST_COMMANDS:
        error = await refused(carol, command, "not_host")
        assert "host" in error["message"]
    after = await summary(server, table_id, host)
    assert after == before

    # The stakes and settings, from the next hand (between hands: at once).
    await hana.send(
        {"type": "table_settings", "small_blind": 10, "big_blind": 20, "ante": 2,
         "time_bank": 5, "advice_allowed": False}
    )  # fmt: skip
    changed = await carol.wait_state(caused("settings", by="host"))
    assert "blinds 10/20" in changed["cause"]["note"] and "advice off" in changed["cause"]["note"]
    now = await summary(server, table_id, carol_token)
    assert (now["small_blind"], now["big_blind"], now["ante"]) == (10, 20, 2)
    assert now["time_bank"] == 5 and now["advice_allowed"] is False
    await refused(hana, {"type": "table_settings", "small_blind": 50}, "bad_message")

    # A stack adjusted, for all to see, and booked in the ledger.
    await hana.send({"type": "adjust", "seat": 3, "amount": -100})
    adjusted = await carol.wait_state(caused("adjust", seat=3))
    assert (adjusted["cause"]["amount"], adjusted["cause"]["stack"]) == (-100, 400)
    await refused(hana, {"type": "adjust", "seat": 3, "amount": -401}, "bad_message")

    # Bots: added with a style, restyled, removed with their chips cashed out.
    await hana.send({"type": "add_bot", "seat": 2, "style": "calling-station"})
    added = await carol.wait_state(caused("sit", seat=2, by="host"))
    bot = next(s for s in added["view"]["seats"] if s["seat"] == 2)
    assert bot["is_bot"] and bot["bot_style"] == "calling-station" and bot["stack"] == most
    await hana.send({"type": "bot_style", "seat": 2, "style": "cautious"})
    styled = await carol.wait_state(caused("bot_style", seat=2))
    assert next(s for s in styled["view"]["seats"] if s["seat"] == 2)["bot_style"] == "cautious"
    await refused(hana, {"type": "bot_style", "seat": 3, "style": "random"}, "seat")
    await hana.send({"type": "remove", "seat": 1})
    removed = await carol.wait_state(caused("remove", seat=1))
    assert removed["cause"]["stack"] == most
    assert {s["seat"] for s in removed["view"]["seats"]} == {2, 3}

    # Resumed: hands are dealt. At Carol's turn (the hand waits for her), the host
    # pauses and removes her: she folds now and leaves at the hand's end with her stack.
    await hana.send({"type": "resume"})
    await carol.wait_state(caused("resume"))
    turn = await carol.wait_state(my_turn)
    hand_no = turn["view"]["hand_no"]
    await refused(hana, {"type": "adjust", "seat": 3, "amount": 10}, "hand_in_progress")
    await hana.send({"type": "pause"})
    assert (await carol.wait_state(caused("pause")))["cause"]["note"] == "after this hand"
    await hana.send({"type": "remove", "seat": 3})
    removal = await hana.wait_state(caused("remove", seat=3))
    if removal["view"]["hand_in_progress"]:  # others still play: she leaves at its end
        assert removal["cause"]["note"] == "removed at the hand's end"
        left = await hana.wait_state(caused("stand", player_id=carol_id))
        assert left["cause"]["note"] == "left at the hand's end"
    else:  # heads-up, her fold ended the hand: the removal carries her stack
        left = removal
    assert left["cause"]["stack"] >= 0 and left["view"]["hand_no"] == hand_no
    assert not left["view"]["hand_in_progress"]

    # The ledger has every chip the host moved: the adjustment, the bots, Carol's cash-out.
    runtime = server.state.tables.get(table_id)
    assert runtime is not None
    await runtime.persister.drain()
    entries = await server.state.repos.ledger.entries(table_id)
    kinds = [(e["player_id"], e["kind"], e["amount"]) for e in entries]
    assert (carol_id, "adjust", -100) in kinds
    assert (carol_id, "cashout", left["cause"]["stack"]) in kinds
    assert sum(1 for _, kind, _ in kinds if kind == "buy_in") == 3  # two bots and Carol
    await hana.close()
    await carol.close()


async def test_seat_requests_and_the_host_role_handed_on(server: RunningServer) -> None:
    host, host_id = await guest(server, "Hana")
    carol_token, carol_id = await guest(server, "Carol")
    dave_token, dave_id = await guest(server, "Dave")
    table = await create_table(server, host, seats=3, bots=1, small_blind=5, big_blind=10)
    table_id = table["table_id"]
    hana = await join(server, table_id, host)
    carol = await join(server, table_id, carol_token)
    dave = await join(server, table_id, dave_token)
    await hana.send({"type": "table_settings", "approve_seats": True})
    await carol.wait_state(caused("settings"))

    # A seat is asked for, not taken; the host approves one request and rejects another.
    await carol.send({"type": "sit", "seat": 2, "buy_in": 500})
    asked = await hana.wait_state(caused("seat_request", player_id=carol_id))
    assert asked["host"]["seat_requests"] == [
        {"player_id": carol_id, "name": "Carol", "seat": 2, "buy_in": 500}
    ]
    assert {s["seat"] for s in asked["view"]["seats"]} == {1}
    assert asked["host"]["host_id"] == host_id and asked["host"]["approve_seats"]
    await dave.send({"type": "sit", "seat": 3, "buy_in": 400})
    await hana.wait_state(caused("seat_request", player_id=dave_id))
    await refused(carol, {"type": "approve", "player_id": carol_id}, "not_host")
    await hana.send({"type": "reject", "player_id": dave_id})
    await dave.wait_state(caused("seat_rejected", player_id=dave_id))
    await hana.send({"type": "approve", "player_id": carol_id})
    sat = await dave.wait_state(caused("sit", player_id=carol_id, by="host"))
    assert {s["seat"] for s in sat["view"]["seats"]} == {1, 2}
    assert sat["host"]["seat_requests"] == []
    await refused(hana, {"type": "approve", "player_id": dave_id}, "no_such_request")
    # A request whose player left goes with them.
    eve_token, eve_id = await guest(server, "Eve")
    eve = await join(server, table_id, eve_token)
    await eve.send({"type": "sit", "seat": 3, "buy_in": 400})
    await hana.wait_state(caused("seat_request", player_id=eve_id))
    await eve.close()
    gone = await hana.wait_state(caused("seat_rejected", player_id=eve_id, by="table"))
    assert gone["host"]["seat_requests"] == []

    # The host leaves (no seat, no socket): the seated, connected player takes the role.
    await hana.close()
    passed = await dave.wait_state(caused("host", player_id=carol_id, by="table"))
    assert passed["host"]["host_id"] == carol_id
    assert (await summary(server, table_id, dave_token))["host_id"] == carol_id

    # Handed on by the host; the former host is refused like anyone else.
    await refused(carol, {"type": "hand_over", "player_id": "nobody"}, "seat")
    await carol.send({"type": "hand_over", "player_id": dave_id})
    handed = await dave.wait_state(caused("host", player_id=dave_id, by="host"))
    assert handed["host"]["host_id"] == dave_id
    hana = await join(server, table_id, host)
    await refused(hana, {"type": "pause"}, "not_host")
    await refused(carol, {"type": "pause"}, "not_host")
    for client in (hana, carol, dave):
        await client.close()
