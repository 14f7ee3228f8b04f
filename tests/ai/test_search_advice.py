"""The advisor is the search on its profile: its advice's numbers and its sentence agree
with its choice (the best value, or the best smaller action an overbet all-in with a
did not clearly beat)."""

from __future__ import annotations

from test_worker_decider import query_for, seated_table

import ai.worker.decider as decider_module
from ai.bots import ADVISOR_STYLE
from ai.bots.mcts import MctsBot
from ai.search.profiles import ADVISOR
from ai.worker.decider import Decider
from holdem.actions import Action, ActionKind
from holdem.config import Variant
from protocol.messages import QueryPurpose


def test_advice_comes_from_the_search_and_its_reason_follows_the_numbers() -> None:
    assert ADVISOR_STYLE == "mcts-advisor"
    # The blueprints are loaded as a worker's warm-up loads them, not inside a budget.
    decider_module.load_priors()
    for variant in (Variant.LIMIT, Variant.NO_LIMIT):
        # The iteration budget, not the machine's load, ends these searches (the time
        # budget is bound when the Decider is made: patching the module's default is too late).
        decider = Decider(advice_seconds=60.0)
        table = seated_table(variant, 3, seed=5)
        table.start_hand()
        advised = 0
        while table.hand is not None and not table.hand.is_over and advised < 4:
            query = query_for(table, None, QueryPurpose.ADVICE, advised)
            answer = decider.answer(query, budget=5.0)
            bot = decider.bot_for(query.table_id, query.seat, ADVISOR_STYLE)
            assert isinstance(bot, MctsBot) and bot.config == ADVISOR
            advice = answer.advice
            assert advice is not None and advice.values
            best = max(advice.values, key=lambda v: v.value_bb)
            chosen = [
                v
                for v in advice.values
                # (Limit labels carry no amount: the bet is fixed.)
                if v.action == advice.action and v.amount in (None, advice.amount)
            ]
            assert len(chosen) == 1, (advice.reason, advice.values)
            if chosen[0].value_bb != best.value_bb:
                # An overbet all-in valued higher, but not clearly (the 95% intervals
                # overlap), is not made, and the reason says so.
                taken = chosen[0]
                assert best.action in (ActionKind.BET, ActionKind.RAISE), advice.reason
                top = taken.value_bb + 1.96 * (taken.stderr_bb or 0.0)
                assert best.value_bb - 1.96 * (best.stderr_bb or 0.0) <= top, advice.reason
                assert "is not clearly better" in advice.reason
            assert advice.reason.lower().startswith(advice.action.value)
            assert "simulated hands" in advice.reason
            assert advice.equity is not None
            # Every searched action carries its uncertainty and its share of the search;
            # the shares of the searched actions add up to the whole search.
            searched = [v for v in advice.values if v.action.value != "fold"]
            assert all(v.stderr_bb is not None and v.share is not None for v in searched)
            assert abs(sum(v.share or 0.0 for v in searched) - 1.0) < 0.01
            assert any((v.stderr_bb or 0.0) > 0 for v in searched)
            table.act(query.seat, Action(kind=answer.action, amount=answer.amount))
            advised += 1
        assert advised >= 2
