"""The root's choice among the searched actions: the best value, and with an aggression
margin, a bet or raise only when it beats the best of folding, checking and calling by
that many standard errors; with a call margin, a call only when it beats the fold by
that many."""

from __future__ import annotations

from search_spots import LIMIT2, spot

from ai.models.model import ModelSet, OpponentModel
from ai.models.ranges import RangeTracker
from ai.search.explain import reason
from ai.search.mcts import ActionStats, Search, SearchConfig, SearchResult, choose
from ai.search.opponents import build_tables
from ai.sim.rules import BET, CALL, CHECK, FOLD, RAISE

OBS = spot(LIMIT2, {1: "AhKd"}, [(CALL, 0), (CHECK, 0)], board="Ks7c2h")


def stats(bet_value: float) -> list[ActionStats]:
    return [
        ActionStats("check", CHECK, 0, 1000, 0.0, 0.2, 0.5),
        ActionStats("bet", BET, 2, 1000, bet_value, 0.2, 0.5),
    ]


def test_the_best_value_is_chosen_without_a_margin() -> None:
    assert choose(stats(0.05), 0.1, 0.5, OBS).kind == BET
    assert choose(stats(-0.05), 0.1, 0.5, OBS).kind == CHECK


def test_a_bet_within_the_margin_of_checking_is_not_made() -> None:
    # The difference's standard error is hypot(0.2, 0.2) = 0.28 big blinds.
    assert choose(stats(0.25), 0.1, 0.5, OBS, aggression_margin=1.0).kind == CHECK
    assert choose(stats(0.3), 0.1, 0.5, OBS, aggression_margin=1.0).kind == BET
    assert choose(stats(0.3), 0.1, 0.5, OBS, aggression_margin=2.0).kind == CHECK


def facing(raise_value: float) -> list[ActionStats]:
    return [
        ActionStats("fold", FOLD, 0, 0, 0.0, 0.0, 0.0),
        ActionStats("call", CALL, 0, 1000, -2.0, 0.5, 0.3),
        ActionStats("raise", RAISE, 8, 2000, raise_value, 0.4, 0.7),
    ]


def test_a_raise_within_the_margin_of_folding_is_not_made() -> None:
    # Facing a bet that calling loses to, a bluff raise must beat the exact fold (standard
    # error 0.4 here), not merely the call it leaves far behind.
    assert choose(facing(0.3), 0.1, 0.3, OBS, aggression_margin=1.0).kind == FOLD
    assert choose(facing(0.5), 0.1, 0.3, OBS, aggression_margin=1.0).kind == RAISE
    assert choose(facing(0.3), 0.1, 0.3, OBS).kind == RAISE


def margin_reason(searched: list[ActionStats], equity: float) -> str:
    """The sentence for the choice one standard error of margin makes among `searched`."""
    choice = choose(searched, 0.1, equity, OBS, aggression_margin=1.0)
    result = SearchResult(searched, choice, 2000, equity, None)  # type: ignore[arg-type]
    return reason(result, OBS)


def test_the_reason_for_such_a_fold_does_not_say_raising_loses() -> None:
    text = margin_reason(facing(0.3), 0.3)
    assert text.startswith("Fold: raising +0.3 bb (±0.4) over 2000 simulated hands")
    assert "is not clearly better" in text
    assert "loses" not in text


def test_the_reason_says_a_bet_was_not_clearly_better() -> None:
    text = margin_reason(stats(0.25), 0.5)
    assert text.startswith("Check: +0.0 bb")
    assert "betting +0.2 bb (±0.2) is not clearly better" in text
    assert "ahead of" not in text


def test_by_default_the_search_bets_only_what_clearly_beats_checking() -> None:
    """Heads-up flop checked to us: with the default margin, a bet valued within one
    standard error of checking is not made (QdTd: bet +1.75 ± 0.37, check +1.56 ± 0.41);
    a bet that clearly wins is (9h8h: +1.55 ± 0.16 against +0.72 ± 0.10)."""

    def searched(hole: str, config: SearchConfig) -> ActionStats:
        obs = spot(LIMIT2, {1: hole}, [(CALL, 0), (CHECK, 0)], board="Ts7c2h")
        model = OpponentModel(ModelSet.frequency_only())
        ranges = RangeTracker()
        ranges.update(obs, model)
        search = Search(obs, ranges, build_tables(obs, model), config, seed=5)
        return search.run(iterations=600).choice

    assert searched("QdTd", SearchConfig(aggression_margin=0.0)).kind == BET
    assert searched("QdTd", SearchConfig()).kind == CHECK
    assert searched("9h8h", SearchConfig()).kind == BET


def calling(call_value: float) -> list[ActionStats]:
    return [
        ActionStats("fold", FOLD, 0, 0, 0.0, 0.0, 0.0),
        ActionStats("call", CALL, 0, 1000, call_value, 0.4, 0.6),
        ActionStats("raise", RAISE, 8, 700, call_value - 0.2, 0.5, 0.4),
    ]


def test_a_call_within_the_call_margin_of_folding_is_not_made() -> None:
    assert choose(calling(0.7), 0.1, 0.3, OBS).kind == CALL
    assert choose(calling(0.7), 0.1, 0.3, OBS, call_margin=2.0).kind == FOLD
    assert choose(calling(0.9), 0.1, 0.3, OBS, call_margin=2.0).kind == CALL


def test_a_raise_held_back_to_a_call_must_still_beat_the_fold() -> None:
    # The raise leads the call by less than one standard error, so the call stands in for
    # it; the call is within two standard errors of the fold, so we fold.
    searched = [*calling(0.5)[:2], ActionStats("raise", RAISE, 8, 1000, 0.7, 0.5, 0.5)]
    assert choose(searched, 0.1, 0.3, OBS, aggression_margin=1.0).kind == CALL
    assert choose(searched, 0.1, 0.3, OBS, aggression_margin=1.0, call_margin=2.0).kind == FOLD


def test_the_reason_for_a_fold_under_the_call_margin_says_calling_is_not_clearly_better() -> None:
    choice = choose(calling(0.7), 0.1, 0.3, OBS, call_margin=2.0)
    text = reason(SearchResult(calling(0.7), choice, 2000, 0.3, None), OBS)  # type: ignore[arg-type]
    assert text.startswith("Fold: calling +0.7 bb (±0.4) over 2000 simulated hands")
    assert "is not clearly better" in text


def test_the_search_applies_its_call_margin() -> None:
    """Heads-up flop, bet into us with Jc9d on Ts7c2h (frequency tables): the call is
    valued +0.35 bb (±0.23), within two standard errors of the exact fold."""

    def searched(config: SearchConfig) -> ActionStats:
        actions = [(CALL, 0), (CHECK, 0), (CHECK, 0), (BET, 0)]
        obs = spot(LIMIT2, {1: "Jc9d"}, actions, board="Ts7c2h")
        model = OpponentModel(ModelSet.frequency_only())
        ranges = RangeTracker()
        ranges.update(obs, model)
        search = Search(obs, ranges, build_tables(obs, model), config, seed=5)
        return search.run(iterations=600).choice

    assert searched(SearchConfig()).kind == CALL
    assert searched(SearchConfig(call_margin=2.0)).kind == FOLD
