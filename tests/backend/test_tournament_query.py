"""The gateway's query carries the tournament context to the worker, and none at cash tables."""

from __future__ import annotations

from backend.ai_gateway import _query
from holdem.config import TableConfig, Variant
from holdem.protocol import DecisionQuery, QueryPurpose, TournamentSituation
from holdem.table import Table
from holdem.views import observe


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
