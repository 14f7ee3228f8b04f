"""Table events between hands, over real WebSockets: rebuys and top-ups (bots' too) as
events a client can reconcile stacks with, showing cards won uncalled, and chat history."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from backend_testlib import (
    AI_SECRET,
    TestWorker,
    WsClient,
    bot_query_or_turn,
    create_table,
    guest,
    join,
    passive_action,
)

from holdem.showdown_equity import rank_hand

Message = dict[str, Any]


def states(client: WsClient) -> list[Message]:
    return [m for m in client.received if m["type"] == "state"]


def stacks(view: Message) -> int:
    return sum(s["stack"] for s in view["seats"])


async def test_rebuys_and_top_ups_are_table_events(server_factory: Any) -> None:
    server = await server_factory(hand_pause_ms=400)
    token, alice_id = await guest(server, "Alice")
    worker = await TestWorker.connect(server, AI_SECRET)
    table = await create_table(server, token, seats=2, bots=1, small_blind=5, big_blind=10)
    table_id, most = table["table_id"], table["max_buy_in"]
    alice = await join(server, table_id, token)
    await alice.send({"type": "sit", "seat": 2, "buy_in": most - 100})
    # A top-up by a person: the event says how much, the stack it made, and that it is one.
    await alice.send({"type": "rebuy", "amount": 100})
    top_up = await alice.wait_state(lambda s: bool(s["cause"]) and s["cause"]["kind"] == "rebuy")
    assert {k: top_up["cause"][k] for k in ("seat", "amount", "stack", "top_up", "by")} == {
        "seat": 2,
        "amount": 100,
        "stack": most,
        "top_up": True,
        "by": "player",
    }

    # The bot checks and calls (the worker answers for it), and Alice checks and calls until
    # the river, where she moves all-in only when she holds the better hand: she sees the
    # bot's cards in its queries. So the bot busts within a few hands, whatever the deal
    # (all-in every hand made its stack a random walk that could outlast any bound).
    bot_cards: dict[int, list[str]] = {}  # hand number -> the bot's hole cards

    def alice_wins_river(view: Message) -> bool:
        theirs, board = bot_cards.get(view["hand_no"]), view["board"]
        mine = next(s for s in view["seats"] if s["seat"] == 2)["hole_cards"]
        return (
            len(board) == 5
            and theirs is not None
            and rank_hand([*mine, *board]) > rank_hand([*theirs, *board])
        )

    bot_rebuy: Message | None = None
    for _ in range(400):  # about eight decisions a hand; she wins a river every few hands
        kind, message = await bot_query_or_turn(alice, worker, 2)
        view = message["view"]
        if kind == "query":
            bot_cards[view["hand_no"]] = next(s for s in view["seats"] if s["seat"] == 1)[
                "hole_cards"
            ]
            legal = message["legal"]
            await worker.answer(message, "check" if legal["can_check"] else "call")
        else:
            legal = view["legal_actions"]
            if legal["raise_kind"] and alice_wins_river(view):
                await alice.send(
                    {"type": "act", "action": legal["raise_kind"], "amount": legal["max_to"]}
                )
            else:
                await alice.send({"type": "act", "action": passive_action(legal)})
        bot_rebuy = next(
            (
                s
                for s in states(alice)
                if s["cause"] and s["cause"]["kind"] == "rebuy" and s["cause"]["by"] == "bot"
            ),
            None,
        )
        if bot_rebuy is not None:
            break
    assert bot_rebuy is not None, "the bot never busted"
    cause, view = bot_rebuy["cause"], bot_rebuy["view"]
    assert (cause["seat"], cause["amount"], cause["stack"], cause["top_up"]) == (
        1,
        most,
        most,
        False,
    )
    # The hand's result showed the bot broke; the rebuy came after it, before the next deal.
    seen = states(alice)
    at = seen.index(bot_rebuy)
    result = seen[at - 1]["view"]
    assert result["hand_no"] == view["hand_no"] and not result["hand_in_progress"]
    assert result["last_result"] is not None
    assert next(s["stack"] for s in result["seats"] if s["seat"] == 1) == 0
    assert stacks(view) == stacks(result) + cause["amount"]  # reconciled by the event alone
    assert not view["hand_in_progress"]
    later = [s for s in seen[at + 1 :] if s["cause"] and s["cause"]["kind"] == "hand_start"]
    assert later == [] or later[0]["view"]["hand_no"] == view["hand_no"] + 1
    # Every rebuy is in the ledger too.
    await server.state.tables.get(table_id).persister.drain()  # type: ignore[union-attr]
    entries = await server.state.repos.ledger.entries(table_id)
    bot_id = next(s["player_id"] for s in view["seats"] if s["seat"] == 1)
    assert ("rebuy", most) in [
        (e["kind"], e["amount"]) for e in entries if e["player_id"] == bot_id
    ]
    assert (("rebuy", 100)) in [
        (e["kind"], e["amount"]) for e in entries if e["player_id"] == alice_id
    ]
    await alice.close()
    await worker.close()


async def play_until_over(client: WsClient, hand_no: int, *, folds: bool) -> Message:
    """Until hand `hand_no` is over: fold when possible (`folds`), else raise or check."""
    while True:
        state = await client.wait_state(
            lambda s: (
                s["view"]["hand_no"] >= hand_no
                and (
                    not s["view"]["hand_in_progress"]
                    or s["view"]["actor"] == s["view"]["viewer_seat"]
                )
            )
        )
        view = state["view"]
        if not view["hand_in_progress"]:
            return state
        legal = view["legal_actions"]
        if folds and legal["can_fold"]:
            await client.send({"type": "act", "action": "fold"})
        elif not folds and legal["raise_kind"]:
            await client.send(
                {"type": "act", "action": legal["raise_kind"], "amount": legal["min_to"]}
            )
        else:
            await client.send({"type": "act", "action": "check" if legal["can_check"] else "call"})


async def win_uncalled(alice: WsClient, bob: WsClient, hand_no: int) -> Message:
    """Heads-up, Alice raises and Bob folds: Alice wins hand `hand_no` uncalled."""
    end, bob_end = await asyncio.gather(
        play_until_over(alice, hand_no, folds=False), play_until_over(bob, hand_no, folds=True)
    )
    assert bob_end["seq"] == end["seq"]
    return end


async def test_standing_up_during_a_hand_shows_the_chips_left_with(server_factory: Any) -> None:
    """Issue #34: nothing showed the stack a player left with. A stand during a hand is
    followed, after the change that ends the hand, by the table's stand with the chips."""
    server = await server_factory()
    alice_token, alice_id = await guest(server, "Alice")
    bob_token, _ = await guest(server, "Bob")
    table = await create_table(server, alice_token, seats=2, small_blind=5, big_blind=10)
    alice = await join(server, table["table_id"], alice_token)
    bob = await join(server, table["table_id"], bob_token)
    await alice.send({"type": "sit", "seat": 1, "buy_in": 1000})
    await bob.send({"type": "sit", "seat": 2, "buy_in": 1000})
    dealt = await alice.wait_state(lambda s: s["view"]["hand_in_progress"])
    if dealt["view"]["actor"] == 1:  # Alice stands while Bob is to act, not on her turn
        await alice.send({"type": "act", "action": "call"})
    await bob.wait_state(lambda s: s["view"]["hand_in_progress"] and s["view"]["actor"] == 2)
    await alice.send({"type": "stand"})
    asked = await bob.wait_state(lambda s: (s["cause"] or {}).get("kind") == "stand")
    assert asked["cause"]["stack"] is None  # still in the hand: leaving at its end
    while True:
        state = bob.last_state()
        if (state["cause"] or {}).get("by") == "table" and state["cause"]["kind"] == "stand":
            break
        view = state["view"]
        if view["hand_in_progress"] and view["actor"] == 2:
            await bob.send({"type": "act", "action": passive_action(view["legal_actions"])})
        await bob.wait_state(lambda s: True)
    left = bob.last_state()
    assert left["cause"]["player_id"] == alice_id and left["cause"]["seat"] == 1
    assert left["cause"]["note"] == "left at the hand's end"
    assert left["view"]["hand_no"] == dealt["view"]["hand_no"]
    [bob_seat] = left["view"]["seats"]
    assert left["cause"]["stack"] + bob_seat["stack"] == 2000  # no chip created or lost
    ended = states(bob)[-2]  # the change that ended the hand came first
    assert not ended["view"]["hand_in_progress"] and ended["cause"]["kind"] == "act"
    await server.state.tables.get(table["table_id"]).persister.drain()  # type: ignore[union-attr]
    entries = await server.state.repos.ledger.entries(table["table_id"])
    cashouts = [
        e["amount"] for e in entries if e["player_id"] == alice_id and e["kind"] == "cashout"
    ]
    assert cashouts == [left["cause"]["stack"]]


async def test_showing_cards_won_uncalled(server_factory: Any) -> None:
    server = await server_factory(hand_pause_ms=3000)
    alice_token, _ = await guest(server, "Alice")
    bob_token, _ = await guest(server, "Bob")
    table = await create_table(server, alice_token, seats=2, bots=0, small_blind=5, big_blind=10)
    table_id = table["table_id"]
    alice = await join(server, table_id, alice_token)
    bob = await join(server, table_id, bob_token)
    await alice.send({"type": "sit", "seat": 1, "buy_in": 1000})
    await bob.send({"type": "sit", "seat": 2, "buy_in": 1000})
    end = await win_uncalled(alice, bob, 1)
    cards = next(s["hole_cards"] for s in end["view"]["seats"] if s["seat"] == 1)
    assert cards and end["view"]["last_result"]["shown"] == {}
    # Default: muck. Bob's messages never carry Alice's cards.
    bob_end = bob.last_state()
    assert next(s["hole_cards"] for s in bob_end["view"]["seats"] if s["seat"] == 1) is None
    assert not any(json.dumps(card) in raw for raw in bob.raw for card in cards)
    # Only the uncalled winner may show.
    await bob.send({"type": "show", "ref": "b"})
    refused = await bob.wait_type("error")
    assert refused["ref"] == "b" and "won uncalled" in refused["message"]
    await alice.send({"type": "show"})
    shown = await bob.wait_state(lambda s: bool(s["cause"]) and s["cause"]["kind"] == "show")
    view = shown["view"]
    assert shown["cause"]["seat"] == 1 and view["hand_no"] == 1 and not view["hand_in_progress"]
    assert next(s["hole_cards"] for s in view["seats"] if s["seat"] == 1) == cards
    assert view["events"][-1] == {
        "kind": "show",
        "street": "showdown",
        "seat": 1,
        "amount": None,
        "cards": cards,
        "all_in": False,
        "pot_index": None,
        "run": None,
    }
    assert view["last_result"]["shown"] == {"1": cards}
    await alice.send({"type": "show", "ref": "again"})
    again = await alice.wait_type("error")
    assert again["ref"] == "again" and "shown already" in again["message"]
    # Filed with the hand: Bob's copy of it shows Alice's cards from now on.
    await server.state.tables.get(table_id).persister.drain()  # type: ignore[union-attr]
    async with httpx.AsyncClient(base_url=server.http) as http:
        hand = await http.get(
            f"/api/hands/{table_id}-1", headers={"Authorization": f"Bearer {bob_token}"}
        )
    assert hand.status_code == 200, hand.text
    record = hand.json()["record"]
    assert next(s["hole_cards"] for s in record["seats"] if s["seat"] == 1) == cards
    assert [e["kind"] for e in record["events"]].count("show") == 1
    # A standing choice: the next hand won uncalled is shown with its result.
    await alice.send({"type": "show_uncalled", "enabled": True})
    end2 = await win_uncalled(alice, bob, 2)
    cards2 = next(s["hole_cards"] for s in end2["view"]["seats"] if s["seat"] == 1)
    bob_end2 = bob.last_state()
    assert bob_end2["view"]["hand_no"] == 2
    assert next(s["hole_cards"] for s in bob_end2["view"]["seats"] if s["seat"] == 1) == cards2
    assert bob_end2["cause"]["kind"] == "act"  # shown with the result, not after it
    for client in (alice, bob):
        await client.close()


async def test_chat_history_for_those_who_join_later(server_factory: Any) -> None:
    server = await server_factory(messages_per_second=200.0, message_burst=200)
    alice_token, _ = await guest(server, "Alice")
    bob_token, _ = await guest(server, "Bob")
    table = await create_table(server, alice_token, seats=6, small_blind=5, big_blind=10)
    alice = await join(server, table["table_id"], alice_token)
    for i in range(55):
        await alice.send({"type": "chat", "text": f"line {i}"})
    await alice.wait_for(lambda m: m["type"] == "chat" and m["text"] == "line 54")
    bob = await join(server, table["table_id"], bob_token)  # welcome and state consumed
    history = [await bob.wait_type("chat") for _ in range(50)]
    assert [m["text"] for m in history] == [f"line {i}" for i in range(5, 55)]
    assert all(m["history"] and m["name"] == "Alice" for m in history)
    # Live messages are not history; a reconnect gets the last 50 again.
    await alice.send({"type": "chat", "text": "welcome Bob"})
    live = await bob.wait_type("chat")
    assert live["text"] == "welcome Bob" and live["history"] is False
    await bob.close()
    again = await join(server, table["table_id"], bob_token)
    replay = [await again.wait_type("chat") for _ in range(50)]
    assert replay[-1]["text"] == "welcome Bob" and replay[0]["text"] == "line 6"
    for client in (alice, again):
        await client.close()
