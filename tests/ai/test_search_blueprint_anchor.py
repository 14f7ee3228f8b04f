"""The blueprint-anchored search (#33, `MctsConfig.blueprint_anchor`): at heads-up Limit
after the flop the blueprint's sampled action stands unless the search's choice beats it
by more than k standard errors of the difference; k = 0 is the search's own choice."""

from __future__ import annotations

import math
from dataclasses import replace

from search_spots import LIMIT2, bot, spot

from ai.bots.mcts import beats_anchor
from ai.game.observation import Observation
from ai.policy.blueprint import default_blueprint
from ai.search.mcts import ActionStats
from ai.search.profiles import DEFAULT
from ai.sim.rules import BET, CALL, CHECK, FOLD, RAISE


def checked_to_on_the_flop() -> Observation:
    """King-ten first to act on Qs6s3d: the blueprint checks (all of its probability)."""
    obs = spot(LIMIT2, {1: "KcTh"}, [(CALL, 0), (CHECK, 0)], board="3d6sQs")
    assert default_blueprint().action_probabilities(obs)[CHECK] == 1.0
    return obs


def facing_a_flop_bet() -> Observation:
    """Seven-six facing a bet on 4sAs3d (a gutshot): the blueprint folds."""
    obs = spot(LIMIT2, {1: "7c6s"}, [(CALL, 0), (CHECK, 0), (CHECK, 0), (BET, 2)], board="4sAs3d")
    assert default_blueprint().action_probabilities(obs)[FOLD] == 1.0
    return obs


def decided(obs: Observation, k: float | None) -> tuple[int, int]:
    """(the bot's action, the unanchored search's best) at `obs` with anchor `k`."""
    mcts = bot(iterations=300, config=replace(DEFAULT, blueprint_anchor=k))
    kind = mcts.decide(obs).kind
    assert mcts.last is not None
    best = max(mcts.last.actions, key=lambda a: a.value_bb)
    return kind, best.kind


def test_a_huge_k_plays_the_blueprint_and_zero_the_searchs_best() -> None:
    obs = checked_to_on_the_flop()
    kind, best = decided(obs, math.inf)
    assert best == BET and kind == CHECK  # the search's bet is not sure: the check stands
    assert decided(obs, 0.0) == (BET, BET)
    assert decided(obs, None) == (BET, BET)
    # The default profile (k = 1): a bet valued within a standard error of the check.
    assert bot(iterations=300).decide(obs).kind == CHECK


def test_a_sure_search_overrules_the_blueprints_fold() -> None:
    """The raise is valued more than 3 standard errors above the exact fold: k = 2
    raises, k = infinity folds as the blueprint does."""
    obs = facing_a_flop_bet()
    assert decided(obs, 2.0) == (RAISE, RAISE)
    assert decided(obs, math.inf)[0] == FOLD


def stats(kind: int, value: float, stderr: float, visits: int = 100) -> ActionStats:
    return ActionStats("", kind, 0, visits, value, stderr, 0.5)


def test_the_margin_is_k_standard_errors_of_the_difference() -> None:
    best, anchor = stats(BET, 1.0, 0.3), stats(CHECK, 0.5, 0.4)  # gap 0.5, se 0.5
    assert beats_anchor(best, anchor, 0.9) and not beats_anchor(best, anchor, 1.1)
    assert not beats_anchor(best, anchor, math.inf)
    fold = stats(FOLD, 0.0, 0.0, visits=0)  # exact, never simulated
    assert beats_anchor(stats(CALL, 0.5, 0.2), fold, 2.4)
    assert not beats_anchor(stats(CALL, 0.5, 0.2), fold, 2.6)
    # The search's fold, exact too, overrules a call valued clearly below it.
    assert beats_anchor(fold, stats(CALL, -1.0, 0.2), 4.9)
    assert not beats_anchor(fold, stats(CALL, -1.0, 0.2), 5.1)
    # An anchor the search never played cannot be told apart from the best: it stands.
    assert not beats_anchor(best, stats(CHECK, 0.0, 0.0, visits=0), 0.0)
