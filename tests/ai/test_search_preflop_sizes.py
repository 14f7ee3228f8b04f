"""No-Limit preflop in matches at tables of three or more: Loki's rules decide whether to
fold, call or raise; where they raise, the search picks the size among its raises."""

from __future__ import annotations

from search_spots import LIMIT6, NL2, NL6, bot, spot

from ai.bots.mcts import make_mcts, rule_raise_size
from ai.search.mcts import ActionStats, SearchResult
from ai.sim.rules import CALL, FOLD, RAISE

# Under the gun at six seats, 100 big blinds deep: the rules raise aces (pot) and fold 72.
ACES = spot(NL6, {3: "AsAh"}, [], stacks=200)
JUNK = spot(NL6, {3: "7c2d"}, [], stacks=200)


def test_the_search_sizes_the_raise_the_rules_chose() -> None:
    rules_only = bot(iterations=400, search_preflop=False)
    rules_only.preflop_sizes = False
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


def test_limit_and_heads_up_keep_the_rules_raise() -> None:
    for config, seat in ((LIMIT6, 3), (NL2, 1)):
        rules = bot(iterations=400, search_preflop=False)
        decision = rules.decide(spot(config, {seat: "AsAh"}, [], stacks=200))
        assert decision.kind == RAISE and rules.last is None


def test_the_reason_gives_the_rule_and_the_size_value() -> None:
    sized = bot(iterations=400, search_preflop=False)
    sized.explain = True
    decision = sized.decide(ACES)
    assert sized.last is not None
    choice = sized.last.choice
    assert decision.reason.startswith("Raise: premium hand")
    assert f"{choice.label} by the search: {choice.value_bb:+.1f} bb" in decision.reason


def test_the_best_searched_raise_is_chosen_whatever_folding_or_calling_is_worth() -> None:
    actions = [
        ActionStats("fold", FOLD, 0, 0, 0.0, 0.0, 0.0),
        ActionStats("call", CALL, 0, 900, 9.0, 0.5, 0.45),
        ActionStats("raise 7", RAISE, 7, 600, 2.0, 0.5, 0.3),
        ActionStats("raise 12", RAISE, 12, 450, 3.0, 0.5, 0.22),
        ActionStats("raise 200", RAISE, 200, 50, 8.0, 3.0, 0.03),  # searched too little
    ]
    result = SearchResult(actions, actions[1], 2000, 0.8, None)  # type: ignore[arg-type]
    chosen = rule_raise_size(result, 0.1)
    assert chosen is not None and chosen.to == 12
    unsearched = SearchResult(actions[:2], actions[1], 0, 0.8, None)  # type: ignore[arg-type]
    assert rule_raise_size(unsearched, 0.1) is None


def test_the_arena_keeps_the_rules_size_as_an_ablation() -> None:
    assert make_mcts(1).preflop_sizes and not make_mcts(1, "rulesizes").preflop_sizes
