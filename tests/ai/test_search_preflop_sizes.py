"""No-Limit preflop in matches where no blueprint covers the spot (tables of seven or
more, hands off the blueprint's tree): Loki's rules decide whether to fold, call or
raise; where they raise, the search picks the size among its raises (any raise above a
pot, all-in too, only when clearly better than every smaller raise)."""

from __future__ import annotations

from dataclasses import replace

from search_spots import LIMIT6, NL2, bot, spot

from ai.bots.mcts import rule_raise_size
from ai.search.mcts import ActionStats, SearchResult
from ai.search.profiles import DEFAULT
from ai.sim.rules import CALL, FOLD, RAISE
from holdem.config import TableConfig, Variant

# Under the gun at nine seats (no blueprint: the rules), 100 big blinds deep: the rules
# raise aces (pot) and fold 72.
NL9 = TableConfig(variant=Variant.NO_LIMIT, seats=9, small_blind=1, big_blind=2)
ACES = spot(NL9, {3: "AsAh"}, [], stacks=200)
JUNK = spot(NL9, {3: "7c2d"}, [], stacks=200)


def test_the_search_sizes_the_raise_the_rules_chose() -> None:
    rules_only = bot(
        iterations=400, search_preflop=False, config=replace(DEFAULT, preflop_sizes=False)
    )
    pot_raise = rules_only.decide(ACES)
    assert pot_raise.kind == RAISE and rules_only.last is None

    sized = bot(iterations=400, search_preflop=False)
    decision = sized.decide(ACES)
    result = sized.last
    assert result is not None and result.iterations == 400
    raises = [a for a in result.actions if a.kind == RAISE]
    assert len(raises) >= 3  # the minimum raise, the pot fractions, all-in
    best = max(raises, key=lambda a: a.value_bb)
    assert decision.kind == RAISE and decision.to == best.to
    assert result.choice == best and decision.values == result.values
    # Deterministic for the seed and the budget.
    assert bot(iterations=400, search_preflop=False).decide(ACES).to == decision.to


def test_a_hand_the_rules_fold_is_not_searched() -> None:
    sized = bot(iterations=400, search_preflop=False)
    assert sized.decide(JUNK).kind == FOLD and sized.last is None


def test_limit_keeps_the_rules_raise() -> None:
    rules = bot(iterations=400, search_preflop=False)
    decision = rules.decide(spot(LIMIT6, {3: "AsAh"}, [], stacks=200))
    assert decision.kind == RAISE and rules.last is None


def test_the_reason_gives_the_rule_and_the_size_value() -> None:
    sized = bot(iterations=400, search_preflop=False)
    sized.explain = True
    decision = sized.decide(ACES)
    assert sized.last is not None
    choice = sized.last.choice
    assert decision.reason.startswith("Raise: premium hand")
    assert f"{choice.label} by the search: {choice.value_bb:+.1f} bb" in decision.reason


# The button heads-up, 100 big blinds: raising all-in is 198 more into a pot of 4.
NINES = spot(NL2, {2: "9s9h"}, [], stacks=200)


def test_the_best_searched_raise_is_chosen_whatever_folding_or_calling_is_worth() -> None:
    actions = [
        ActionStats("fold", FOLD, 0, 0, 0.0, 0.0, 0.0),
        ActionStats("call", CALL, 0, 900, 9.0, 0.5, 0.45),
        ActionStats("raise 4", RAISE, 4, 600, 2.0, 0.5, 0.3),
        ActionStats("raise 6", RAISE, 6, 450, 3.0, 0.5, 0.22),  # a pot-sized raise
        ActionStats("raise 200", RAISE, 200, 50, 8.0, 3.0, 0.03),  # searched too little
    ]
    result = SearchResult(actions, actions[1], 2000, 0.8, None)  # type: ignore[arg-type]
    chosen, passed_over = rule_raise_size(result, NINES, 0.1)
    assert chosen is not None and chosen.to == 6 and passed_over is None
    unsearched = SearchResult(actions[:2], actions[1], 0, 0.8, None)  # type: ignore[arg-type]
    assert rule_raise_size(unsearched, NINES, 0.1) == (None, None)


def all_in_against(value_6: float, value_all_in: float, stderr: float = 0.5) -> SearchResult:
    actions = [
        ActionStats("call", CALL, 0, 900, 9.0, 0.5, 0.45),
        ActionStats("raise 6", RAISE, 6, 600, value_6, stderr, 0.22),
        ActionStats("raise 200", RAISE, 200, 600, value_all_in, stderr, 0.3),
    ]
    return SearchResult(actions, actions[0], 2000, 0.8, None)  # type: ignore[arg-type]


def test_an_overbet_must_be_clearly_better_than_the_best_smaller_raise() -> None:
    assert NINES.legal.max_to == 200 and NINES.pot == 3
    # Ahead by 2 bb with standard errors of 0.6: the intervals overlap, the pot raise.
    chosen, passed_over = rule_raise_size(all_in_against(5.0, 7.0, stderr=0.6), NINES, 0.1)
    assert chosen is not None and chosen.to == 6
    assert passed_over is not None and passed_over.to == 200
    # Ahead by more than both intervals' half-widths (1.96 * 0.5 each): the all-in.
    assert rule_raise_size(all_in_against(5.0, 7.0, stderr=0.3), NINES, 0.1)[0].to == 200  # type: ignore[union-attr]
    # A short stack whose only raise is all-in: nothing smaller to prefer.
    short = all_in_against(5.0, 7.0)
    short = replace(short, actions=short.actions[:2])
    assert rule_raise_size(short, NINES, 0.1) == (short.actions[1], None)
