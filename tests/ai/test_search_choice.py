"""The root's choice among the searched actions: the best value, except an overbet (a
No-Limit bet above the pot), which must be clearly best; the reason names a close call when the two
best values' 95% intervals overlap, and the folds a bet's value assumes."""

from __future__ import annotations

from search_spots import LIMIT2, NL2, spot

from ai.search.explain import reason
from ai.search.mcts import ActionStats, SearchResult, choose, close_call
from ai.sim.rules import BET, CALL, CHECK

OBS = spot(LIMIT2, {1: "AhKd"}, [(CALL, 0), (CHECK, 0)], board="Ks7c2h")
# Heads-up No-Limit flop checked to us, 4 in the pot and 398 behind: all-in is ~100 pots.
NL_FLOP = spot(NL2, {1: "3h6d"}, [(CALL, 0), (CHECK, 0), (CHECK, 0)], board="4d3cJs")


def stats(bet_value: float, stderr: float = 0.2) -> list[ActionStats]:
    return [
        ActionStats("check", CHECK, 0, 1000, 0.0, stderr, 0.5),
        ActionStats("bet", BET, 2, 1000, bet_value, stderr, 0.5, folds=0.4),
    ]


def result(searched: list[ActionStats], equity: float, obs: object = OBS) -> SearchResult:
    choice = choose(searched, 0.1, equity, obs)  # type: ignore[arg-type]
    close = close_call(searched, choice, 0.1)
    return SearchResult(searched, choice, 2000, equity, None, close=close)  # type: ignore[arg-type]


def test_the_best_value_is_chosen() -> None:
    assert choose(stats(0.05), 0.1, 0.5, OBS).kind == BET
    assert choose(stats(-0.05), 0.1, 0.5, OBS).kind == CHECK


def shove(all_in_value: float, all_in_stderr: float) -> list[ActionStats]:
    return [
        ActionStats("check", CHECK, 0, 1000, 0.0, 0.2, 0.4),
        ActionStats("bet 4", BET, 4, 1000, 0.5, 0.3, 0.4),
        ActionStats("bet 398", BET, 398, 500, all_in_value, all_in_stderr, 0.2, folds=0.9),
    ]


def test_an_overbet_must_be_clearly_best() -> None:
    assert NL_FLOP.legal.max_to == 398 and NL_FLOP.pot == 4 and NL_FLOP.legal.can_check
    # Valued highest, but its interval [-1, 3] overlaps the pot bet's [-0.1, 1.1].
    assert choose(shove(1.0, 1.0), 0.1, 0.3, NL_FLOP).to == 4
    # A shove clear of every smaller action's interval (3.0 - 0.98 > 0.5 + 0.59) is made;
    # a bet of two pots is held to the same test; a bet of a pot never is.
    assert choose(shove(3.0, 0.5), 0.1, 0.3, NL_FLOP).to == 398
    two_pots = [*shove(1.0, 1.0)[:2], ActionStats("bet 8", BET, 8, 500, 1.0, 1.0, 0.2)]
    assert choose(two_pots, 0.1, 0.3, NL_FLOP).to == 4
    pot_bet = [shove(1.0, 1.0)[0], ActionStats("bet 4", BET, 4, 500, 1.0, 1.0, 0.2)]
    assert choose(pot_bet, 0.1, 0.3, NL_FLOP).to == 4
    # The reason says the shove was passed over and how often the opponent folds to the
    # bet made; the shove's own reason shows the folds it assumes.
    held = reason(result(shove(1.0, 1.0), 0.3, NL_FLOP), NL_FLOP)
    assert held.startswith("Bet to 4: +0.5 bb (±0.3)")
    assert (
        "bet 398 +1.0 bb (±1.0) is not clearly better" in held
        and "they all fold in 0% of those hands" in held
    )
    made = reason(result(shove(3.0, 0.5), 0.3, NL_FLOP), NL_FLOP)
    assert made.startswith("Bet to 398") and "they all fold in 90% of those hands" in made


def test_a_close_call_shows_both_actions() -> None:
    # 0.1 bb apart with standard errors of 0.2: the intervals overlap.
    text = reason(result(stats(0.1), 0.5), OBS)
    assert text.startswith("Bet: +0.1 bb (±0.2)")
    assert "a close call with check +0.0 bb (±0.2)" in text
    assert "they all fold in 40% of those hands" in text
    clear = reason(result(stats(1.0), 0.5), OBS)
    assert "close call" not in clear and "ahead of check +0.0 bb (±0.2)" in clear
