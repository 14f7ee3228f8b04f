"""The bots at tournament structures: big-blind antes, short stacks, ICM context.

Each view is replayed by the simulator (it must agree with the table exactly, or the
worker falls back to check/fold), the bots answer, the table accepts every answer,
and the chips at the table never change in total.
"""

from __future__ import annotations

import random
import time

from ai.bots.from_view import observation_from_view
from ai.worker import Decider
from holdem.actions import Action
from holdem.config import AnteMode, TableConfig, Variant
from holdem.table import Table
from holdem.views import observe
from protocol.messages import (
    DecisionAnswer,
    DecisionQuery,
    QueryPurpose,
    TournamentSituation,
)

STYLES = ("rational", "loki", "aggressive", "calling", "mcts")


def test_bots_play_big_blind_antes_and_short_stacks_without_fallbacks() -> None:
    rng = random.Random(35)
    decider = Decider()
    config = TableConfig(
        variant=Variant.NO_LIMIT, seats=6, small_blind=50, big_blind=100, ante=100,
        ante_mode=AnteMode.BIG_BLIND, min_buy_in=100, max_buy_in=10_000,
    )  # fmt: skip
    table = Table("t-bbante", config, seed=35)
    for seat in range(1, 7):
        table.sit(seat, f"p{seat}", f"P{seat}", rng.randint(150, 2500))
    total = sum(s.stack for s in table.seats.values())
    situation = TournamentSituation(prizes=[50.0, 30.0, 20.0], other_stacks=[900], players_left=7)
    asked = 0
    for _ in range(8):
        if not table.can_start_hand():
            break
        table.start_hand()
        while table.hand is not None and not table.hand.is_over:
            actor = table.hand.actor
            assert actor is not None
            view = observe(table, actor)
            obs = observation_from_view(view)  # the simulator replays the BB ante exactly
            assert view.legal_actions is not None
            assert obs.legal.to_legal_actions() == view.legal_actions
            query = DecisionQuery(
                request_id=f"r{asked}", purpose=QueryPurpose.BOT, table_id=table.table_id,
                hand_no=table.hand_no, seat=actor, style=STYLES[actor % len(STYLES)], view=view,
                legal=view.legal_actions, deadline=time.time() * 1000 + 2000, timeout_ms=2000,
                want_advice=False, tournament=situation,
            )  # fmt: skip
            answer = decider.answer(query, budget=0.2)
            assert isinstance(answer, DecisionAnswer)
            table.act(actor, Action(kind=answer.action, amount=answer.amount))
            asked += 1
        assert sum(s.stack for s in table.seats.values()) == total  # no chip made or lost
    assert asked >= 15
