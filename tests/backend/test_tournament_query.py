"""The gateway's query carries the tournament context to the worker, and none at cash
tables; a tournament's table fills it from its director."""

from __future__ import annotations

import asyncio

import httpx
from backend_testlib import (
    AI_SECRET,
    Message,
    RunningServer,
    TestWorker,
    guest,
    join,
    passive_action,
)

from backend.ai_gateway import _query
from holdem.config import TableConfig, Variant
from holdem.table import Table
from holdem.views import observe
from protocol.messages import DecisionQuery, QueryPurpose, TournamentSituation


def test_the_query_carries_the_tournament_situation() -> None:
    table = Table("t-q", TableConfig(variant=Variant.NO_LIMIT, seats=2, small_blind=1, big_blind=2))
    table.sit(1, "a", "A", 100)
    table.sit(2, "b", "B", 100)
    table.start_hand()
    assert table.hand is not None and table.hand.actor is not None
    view = observe(table, table.hand.actor)
    legal = view.legal_actions
    assert legal is not None
    situation = TournamentSituation.of({"a": 100, "b": 100, "c": 40}, [60, 40], {"a", "b"})
    query = _query("r1", QueryPurpose.BOT, view, legal, "rational", 1.0, False, situation)
    wire = DecisionQuery.model_validate_json(query.model_dump_json())
    assert wire.tournament == situation and wire.tournament.other_stacks == [40]
    cash = _query("r2", QueryPurpose.BOT, view, legal, "rational", 1.0, False)
    assert DecisionQuery.model_validate_json(cash.model_dump_json()).tournament is None


async def test_a_tournament_tables_ai_queries_carry_its_prizes_and_stacks(
    server: RunningServer,
) -> None:
    """Four players at two heads-up tables, the top two paid: a bot's query and Alice's
    advice query carry the prizes and the other table's stacks from the director."""
    worker = await TestWorker.connect(server, AI_SECRET)
    token, alice_id = await guest(server, "Alice")
    auth = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=server.http, headers=auth) as http:
        body = {"name": "ICM", "players": 4, "seats_per_table": 2, "bots": 3, "prizes": "top2"}
        created = await http.post("/api/tournaments", json={**body, "buy_in": 10})
        assert created.status_code == 201, created.text
        tid = created.json()["tournament_id"]
        joined = (await http.post(f"/api/tournaments/{tid}/register")).json()
    assert joined["status"] == "running" and joined["prizes"] == [26, 14]
    chips = joined["starting_chips"]
    # The first bot query, before any hand ended: everyone still has the starting chips.
    first = await worker.query()
    assert first["purpose"] == "bot"
    assert first["tournament"] == {
        "prizes": [26.0, 14.0],
        "other_stacks": [chips, chips],
        "players_left": 4,
    }
    await worker.answer(first, passive_action(first["legal"]))

    async def answer_bots() -> Message:
        """The worker answers the bots (at both tables) until a query that is not a bot's."""
        while True:
            query = await worker.query()
            if query["purpose"] != "bot":
                return query
            await worker.answer(query, passive_action(query["legal"]))

    answering = asyncio.create_task(answer_bots())
    table_id = next(p["table_id"] for p in joined["players"] if p["player_id"] == alice_id)
    alice = await join(server, table_id, token)
    view = alice.last_state()["view"]
    if view["actor"] != view["viewer_seat"]:  # else her turn came before she joined
        await alice.wait_state(lambda s: bool(s["view"]["actor"] == view["viewer_seat"]))
    await alice.send({"type": "advice"})
    advice = await answering
    assert advice["purpose"] == "advice" and advice["seat"] == view["viewer_seat"]
    situation = advice["tournament"]
    assert situation["prizes"] == [26.0, 14.0]
    assert len(situation["other_stacks"]) == situation["players_left"] - 2  # not Alice's table
    assert sum(situation["other_stacks"]) <= 4 * chips
    await alice.close()
    await worker.close()
