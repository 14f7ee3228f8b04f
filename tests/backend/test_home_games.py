"""Home-game rules on the real server (#34): a bomb pot called by the host, the straddle
choice, run it twice when everyone all-in agrees (once when one stays silent past the
countdown), the rabbit hunt after a fold; and the rules bots cannot play refused."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from backend_testlib import RunningServer, WsClient, create_table, guest, join, my_turn
from test_host_controls import caused, refused

from backend.db.codec import hand_id, snapshot_from_doc, snapshot_to_doc
from backend.realtime import host_commands
from backend.realtime.inbox import CommandError
from holdem.config import Straddle, TableConfig, Variant
from holdem.table import Table
from protocol.messages import TableSettingsCommand

Message = dict[str, Any]


def live(state: Message) -> bool:
    view = state["view"]
    return bool(view["hand_in_progress"]) and view["actor"] is not None


async def act(clients: dict[int, WsClient], watcher: WsClient, hand_no: int, choose: Any) -> None:
    """The seat to act in hand `hand_no` acts by `choose(legal)`, on the latest state
    the watcher saw (or the next one) with a decision nobody answered yet."""

    def pending(state: Message) -> bool:
        return live(state) and state["view"]["hand_no"] == hand_no and state["seq"] not in ANSWERED

    state = watcher.last_state()
    if not pending(state):
        state = await watcher.wait_state(pending)
    ANSWERED.add(state["seq"])
    client = clients[state["view"]["actor"]]
    seq = state["seq"]  # the actor's own view of that same change
    turn = next((m for m in client.received if m.get("seq") == seq and m["type"] == "state"), None)
    if turn is None:
        turn = await client.wait_state(lambda s: s["seq"] == seq)
    assert my_turn(turn)
    await client.send({"type": "act", **choose(turn["view"]["legal_actions"])})


ANSWERED: set[int] = set()  # the states whose decision a test answered


def all_in(legal: Message) -> Message:
    if legal["raise_kind"] is not None:
        return {"action": legal["raise_kind"], "amount": legal["max_to"]}
    return {"action": "call"}


def check_or_call(legal: Message) -> Message:
    return {"action": "check" if legal["can_check"] else "call"}


async def topped_up(clients: dict[int, WsClient], state: Message) -> None:
    """A seat the last all-in left short buys in again and comes back."""
    for seat in state["view"]["seats"]:
        if seat["stack"] < 10:
            client = clients[seat["seat"]]
            await client.send({"type": "rebuy", "amount": 1000 - seat["stack"]})
            await client.wait_state(caused("rebuy", seat=seat["seat"]))
            await client.send({"type": "sit_back"})
            await client.wait_state(caused("sit_back", seat=seat["seat"]))


async def test_home_game_rules_at_a_live_table(server: RunningServer) -> None:
    host, _ = await guest(server, "Hana")
    carol_token, carol_id = await guest(server, "Carol")
    async with httpx.AsyncClient(base_url=server.http) as http:
        response = await http.post(
            "/api/tables",
            json={"bots": 1, "straddle": "utg"},
            headers={"Authorization": f"Bearer {host}"},
        )
    assert response.status_code == 201, response.text  # the bots play a straddle too
    table = await create_table(
        server, host, seats=3, small_blind=5, big_blind=10, action_timeout=2.0,
        run_it_max=2, rabbit_hunt=True, bomb_pot_ante=10, straddle="utg",
    )  # fmt: skip
    table_id = table["table_id"]
    assert table["view"]["config"]["run_it_max"] == 2
    hana = await join(server, table_id, host)
    carol = await join(server, table_id, carol_token)
    await hana.send({"type": "pause"})
    await carol.wait_state(caused("pause"))
    await hana.send({"type": "sit", "seat": 1, "buy_in": 1000})
    await carol.send({"type": "sit", "seat": 2, "buy_in": 1000})
    await hana.wait_state(caused("sit", player_id=carol_id))
    clients = {1: hana, 2: carol}

    # The straddle is each player's standing choice; a bomb pot only the host calls.
    await carol.send({"type": "straddle", "enabled": True})
    chose = await hana.wait_state(caused("straddle", seat=2, amount=1))
    assert next(s for s in chose["view"]["seats"] if s["seat"] == 2)["straddle"] is True
    await refused(carol, {"type": "bomb_pot"}, "not_host")
    await hana.send({"type": "bomb_pot"})
    called = await carol.wait_state(caused("bomb_pot", by="host"))
    assert called["view"]["bomb_pot_next"] is True

    # Hand 1, the bomb pot: everyone's ante, no blinds, dealt straight to the flop.
    await hana.send({"type": "resume"})
    bomb = await carol.wait_state(lambda s: s["view"]["hand_no"] == 1 and live(s))
    view = bomb["view"]
    assert view["bomb_pot"] and view["street"] == "flop" and len(view["board"]) == 3
    assert view["total_pot"] == 20
    assert [e["kind"] for e in view["events"]] == ["ante", "ante", "board"]
    while True:
        await act(clients, hana, 1, check_or_call)
        after = await hana.wait_state(lambda s: s["cause"]["kind"] == "act")
        if not after["view"]["hand_in_progress"]:
            break

    # Hand 2: all-in preflop, both agree: the board is run twice.
    await act(clients, hana, 2, all_in)
    await act(clients, hana, 2, all_in)
    vote = await carol.wait_state(lambda s: sorted(s["view"]["runout_voters"]) == [1, 2])
    assert vote["runout_deadline"] is not None and vote["runout_deadline"] > vote["at"]
    await refused(hana, {"type": "runouts", "runs": 3}, "illegal_action")
    await hana.send({"type": "runouts", "runs": 2})
    await carol.send({"type": "runouts", "runs": 2})
    await hana.send({"type": "pause"})  # after this hand: room to top up
    twice = await hana.wait_state(
        lambda s: s["view"]["hand_no"] == 2 and not s["view"]["hand_in_progress"]
    )
    result = twice["view"]["last_result"]
    assert len(result["boards"]) == 2 and all(len(b) == 5 for b in result["boards"])
    assert any(e["kind"] == "runouts" and e["amount"] == 2 for e in twice["view"]["events"])
    assert sum(s["stack"] for s in twice["view"]["seats"]) == 2000
    await topped_up(clients, twice)

    # Hand 3: all-in again; Carol does not answer: past the countdown she runs it once.
    await hana.send({"type": "resume"})
    await act(clients, hana, 3, all_in)
    await act(clients, hana, 3, all_in)
    await hana.wait_state(lambda s: sorted(s["view"]["runout_voters"]) == [1, 2])
    await hana.send({"type": "runouts", "runs": 2})
    await hana.send({"type": "pause"})
    voted = await carol.wait_state(caused("runout_vote", seat=1, by="player", amount=2))
    assert voted["view"]["runout_votes"] == {"1": 2} and voted["view"]["runout_voters"] == [2]
    once = await hana.wait_state(caused("runout_vote", seat=2, by="timer", amount=1))
    assert once["view"]["hand_no"] == 3 and not once["view"]["hand_in_progress"]
    assert once["view"]["last_result"]["boards"] == []
    await topped_up(clients, once)

    # Hand 4 ends with a fold preflop: Carol hunts the rabbit, everyone sees it, no chip moves.
    await hana.send({"type": "resume"})
    await act(clients, hana, 4, lambda legal: {"action": "fold"})
    await hana.send({"type": "pause"})
    over = await carol.wait_state(
        lambda s: s["view"]["hand_no"] == 4 and not s["view"]["hand_in_progress"]
    )
    await carol.send({"type": "rabbit_hunt"})
    hunted = await hana.wait_state(caused("rabbit_hunt", seat=2))
    rabbit = hunted["view"]["rabbit"]
    assert len(rabbit) == 5 and hunted["cause"]["note"] == " ".join(rabbit)
    stacks = [(s["seat"], s["stack"]) for s in over["view"]["seats"]]
    assert [(s["seat"], s["stack"]) for s in hunted["view"]["seats"]] == stacks
    assert hunted["view"]["last_result"] == over["view"]["last_result"]
    await refused(hana, {"type": "rabbit_hunt"}, "seat")
    runtime = server.state.tables.get(table_id)
    assert runtime is not None
    await runtime.persister.drain()
    stored = await server.state.repos.hands.get(hand_id(table_id, 4))
    assert stored is not None and stored["record"]["rabbit"] == rabbit
    assert stored["record"]["board"] == []
    await hana.close()
    await carol.close()


def test_a_called_bomb_pot_and_straddle_choices_survive_a_restart() -> None:
    config = TableConfig(
        variant=Variant.NO_LIMIT, seats=6, small_blind=1, big_blind=2, bomb_pot_ante=5,
        straddle="utg",
    )  # fmt: skip
    table = Table("t", config)
    table.sit(1, "a", "A", 200)
    table.set_straddle("a", True)
    table.call_bomb_pot()
    restored = snapshot_from_doc("t", config, snapshot_to_doc(table.snapshot()))
    assert restored.bomb_pot_called and restored.seats[0].straddle


def test_the_hosts_rules_from_the_next_hand_and_the_bots_play_them() -> None:
    config = TableConfig(variant=Variant.NO_LIMIT, seats=6, small_blind=5, big_blind=10, ante=2)
    settings = TableSettingsCommand(
        straddle=Straddle.BUTTON, run_it_max=3, rabbit_hunt=True, bomb_pot_ante=20,
        bomb_pot_every=5, big_blind_ante=True,
    )  # fmt: skip
    new = host_commands.new_config(config, settings)
    assert (new.straddle, new.run_it_max, new.rabbit_hunt) == (Straddle.BUTTON, 3, True)
    assert (new.bomb_pot_ante, new.bomb_pot_every, new.big_blind_ante) == (20, 5, True)
    note = host_commands.settings_note(config, new, settings)
    assert note == (
        "big-blind ante on, straddle button, run it up to 3 times, rabbit hunt on, "
        "bomb pot ante 20 every 5 hands"
    )
    limit = TableConfig(variant=Variant.LIMIT, seats=6, small_blind=5, big_blind=10)
    with pytest.raises(CommandError, match="no-limit rule"):
        host_commands.new_config(limit, TableSettingsCommand(straddle=Straddle.UTG))
    table = Table("t", config)
    table.sit(1, "a", "A", 400)
    host_commands.refuse_with_bots(table, new)  # no bots: every rule is fine
    host_commands.add_bot(table, 2, "rational", "Ada")
    host_commands.refuse_with_bots(table, new)  # the bots play every home-game rule (#34)
    table.config = new
    host_commands.add_bot(table, 3, "rational", "Bo")
    assert table.seats[3].is_bot


async def test_the_big_blind_posts_the_only_ante(server: RunningServer) -> None:
    """A table created with the big-blind ante: the first hand has one ante, the big
    blind's, for the whole table (three antes were it ignored), and no chip is lost."""
    tokens = [await guest(server, name) for name in ("Hana", "Ivo", "Jun")]
    table = await create_table(
        server, tokens[0][0], seats=3, small_blind=5, big_blind=10, ante=2,
        big_blind_ante=True, action_timeout=5.0,
    )  # fmt: skip
    assert table["view"]["config"]["ante_mode"] == "big_blind"
    table_id = table["table_id"]
    clients = [await join(server, table_id, token) for token, _ in tokens]
    host = clients[0]
    await host.send({"type": "pause"})
    await host.wait_state(caused("pause"))
    for number, client in enumerate(clients, start=1):
        await client.send({"type": "sit", "seat": number, "buy_in": 500})
        await host.wait_state(caused("sit", seat=number))
    await host.send({"type": "resume"})
    first = await host.wait_state(lambda s: s["view"]["hand_no"] == 1 and live(s))
    events = first["view"]["events"]
    antes = [e for e in events if e["kind"] == "ante"]
    big_blind = next(e for e in events if e["kind"] == "big_blind")
    assert len(antes) == 1 and antes[0]["seat"] == big_blind["seat"]
    assert antes[0]["amount"] == 2
    assert first["view"]["total_pot"] == 5 + 10 + 2
    stacks = sum(s["stack"] for s in first["view"]["seats"])
    assert stacks + first["view"]["total_pot"] == 3 * 500
    for client in clients:
        await client.close()
