"""Values a player can trust (#33): checking when it is free is never valued below
folding; the equity shown is against the ranges shown; advice and "Let AI decide" give
the same answer on the same spot."""

from __future__ import annotations

import pytest
from search_spots import bot, spot
from test_worker_decider import query_for, seated_table

from ai.math.evaluator import strength_of
from ai.math.range_strength import combo_values, hand_strength
from ai.models.ranges import grid_of
from ai.search.mcts import RULE, SearchConfig
from ai.search.profiles import ADVISOR, DEFAULT, MctsConfig
from ai.sim.rules import BET, CALL, CHECK, RAISE
from ai.worker.advice import opponent_reads
from ai.worker.decider import Decider
from holdem.actions import Action, ActionKind, Street
from holdem.config import TableConfig, Variant
from protocol.messages import QueryPurpose

# Heads-up No-Limit, blinds 50/100, 100 big blinds: a raise to 325 called (6.5 bb in the
# pot), the big blind first to act on the flop.
NL = TableConfig(variant=Variant.NO_LIMIT, seats=2, small_blind=50, big_blind=100)
CALLED = [(RAISE, 325), (CALL, 0)]
FREE_CHECKS = {
    "K8 on QsAsAh": spot(NL, {1: "Kd8c"}, CALLED, board="QsAsAh", stacks=10000),
    "bottom pair on 4d3cJs": spot(NL, {1: "3h6d"}, CALLED, board="4d3cJs", stacks=10000),
    "A2 on 4c6h7h": spot(NL, {1: "Ah2c"}, CALLED, board="4c6h7h", stacks=10000),
}
RULE_VALUES = MctsConfig(search=SearchConfig(continuation=RULE))


def check_value(config: MctsConfig, name: str) -> float:
    obs = FREE_CHECKS[name]
    assert obs.legal.can_check and obs.pot == 650
    searcher = bot(iterations=2000, config=config)
    decision = searcher.decide(obs)
    assert decision.values is not None
    return decision.values["check"]


@pytest.mark.parametrize("name", sorted(FREE_CHECKS))
def test_a_free_check_is_never_valued_below_folding(name: str) -> None:
    """Folding now is worth 0; after a check we can still fold to any bet, so the check's
    value (the best continuation after it) is at least 0 for the default and the advisor."""
    assert check_value(DEFAULT, name) >= 0.0
    assert check_value(ADVISOR, name) >= 0.0


def test_the_rollout_rules_values_put_the_free_check_below_folding() -> None:
    """What the fix is for: valued by the rollout rule's later play (the `rule` ablation,
    the values before #33), checking K8 on A-A-Q loses chips folding would not."""
    assert check_value(RULE_VALUES, "K8 on QsAsAh") < 0.0


def test_the_equity_shown_is_against_the_ranges_shown() -> None:
    """A river shove over our bet, from a player whose shown cards say its bets mean
    little (kappa ~0.1): the search deals it a range flattened towards every holding. The
    read shows that range, and the equity shown is our share against it."""
    actions = [*CALLED, (BET, 650), (CALL, 0), (CHECK, 0), (CHECK, 0), (BET, 1300), (RAISE, 9025)]
    obs = spot(NL, {1: "AhTd"}, actions, board="Ts9h8c2d7s", stacks=10000)
    (opponent,) = obs.opponents
    searcher = bot(iterations=400, config=ADVISOR)
    for _ in range(40):
        searcher.reliability.add(obs.player_id(opponent), 0.5)  # showed average hands
    searcher.decide(obs)
    result = searcher.last
    assert result is not None and result.ranges is not None
    ((index, dealt, _),) = result.ranges
    assert index == opponent
    (read,) = opponent_reads(obs, searcher, searcher.model)
    assert read.range_grid == grid_of(dealt)
    assert read.note.startswith(f"range ~{100 * float(dealt.mean()):.0f}% of hands")
    # The Bayes-updated range alone is narrower: showing it beside this equity would lie.
    assert read.range_grid != searcher.ranges.grid(opponent, (*obs.hole, *obs.board))
    exact = hand_strength(strength_of((*obs.hole, *obs.board)), combo_values(obs.board), dealt)
    assert abs(result.equity - exact) < 0.06


@pytest.mark.parametrize(("variant", "repeats"), [(Variant.LIMIT, 20), (Variant.NO_LIMIT, 6)])
def test_advice_and_let_ai_decide_agree_on_the_same_spot(variant: Variant, repeats: int) -> None:
    """The same profile, the same iteration budget and a seed derived from the spot: the
    same answer every time, whichever asks (the time budget only stops a search under
    load, which this test takes away)."""
    decider = Decider(advice_seconds=60.0)
    table = seated_table(variant, 3, seed=5)
    table.start_hand()
    hand = table.hand
    assert hand is not None
    # Past preflop: everyone calls or checks to the flop.
    while hand.street is Street.PREFLOP and hand.actor is not None:
        legal = query_for(table, None, QueryPurpose.BOT, 0).legal
        passive = ActionKind.CHECK if legal.can_check else ActionKind.CALL
        table.act(hand.actor, Action(kind=passive))
    assert hand.street is Street.FLOP
    answers = set()
    for n in range(repeats):
        purpose = QueryPurpose.ADVICE if n % 2 else QueryPurpose.AI_DECIDE
        query = query_for(table, None, purpose, n)
        answer = decider.answer(query, budget=60.0)
        assert answer.advice is not None
        answers.add((answer.action, answer.amount, answer.advice.reason))
    assert len(answers) == 1, answers


def test_a_floored_check_says_its_value_is_a_floor() -> None:
    """K8 on A-A-Q: the iterations' average after the free check is below folding (as the
    rule ablation shows it), so the check is shown at folding's 0 as a floor, and the
    reason says so."""
    obs = FREE_CHECKS["K8 on QsAsAh"]
    unfloored = bot(iterations=2000, config=RULE_VALUES).decide(obs)
    assert unfloored.values is not None and unfloored.values["check"] < 0.0
    searcher = bot(iterations=2000, config=ADVISOR)
    searcher.explain = True
    decision = searcher.decide(obs)
    assert searcher.last is not None
    check = next(a for a in searcher.last.actions if a.label == "check")
    assert check.floored and check.value_bb == 0.0
    assert "at least +0.0 bb (we can fold to a bet later)" in decision.reason
