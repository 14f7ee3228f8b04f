"""CFR+ and the exact best response on the small games whose equilibria are known."""

from __future__ import annotations

import numpy as np
import pytest

from ai.policy.cfr import (
    CFRPlus,
    best_response_value,
    expected_value,
    exploitability,
    policy_array,
)
from ai.policy.games.kuhn import GAME_VALUE, KuhnPoker
from ai.policy.games.leduc import LeducPoker
from ai.policy.tree import flatten

LEDUC_VALUE = -0.0856  # player 0's equilibrium value (Southey et al.; OpenSpiel)


def test_kuhn_cfr_plus_reaches_the_equilibrium() -> None:
    tree = flatten(KuhnPoker())
    solver = CFRPlus(tree)
    solver.run(300)
    average = solver.average_strategy()
    assert exploitability(tree, average) < 0.001
    assert expected_value(tree, average) == pytest.approx(GAME_VALUE, abs=1e-3)
    # The equilibrium family: with a king the second player always calls a bet.
    assert solver.average_policy()["Kb"][1] == pytest.approx(1.0, abs=1e-3)


def test_best_response_to_known_kuhn_strategies() -> None:
    tree = flatten(KuhnPoker())
    always_bet = policy_array(tree, {key: [0.0, 1.0] for key in tree.infoset_keys})
    # Against a player who always bets and calls: fold J (-1), Q breaks even, K wins 2.
    br1 = best_response_value(tree, always_bet, 1)
    br0 = best_response_value(tree, always_bet, 0)
    assert br1 == pytest.approx(1.0 / 3.0)  # J folds (-1), Q calls (0 on average), K calls (+2)
    assert br0 == pytest.approx(1.0 / 3.0)
    uniform = policy_array(tree, {})
    assert exploitability(tree, uniform) > 0.4


def test_leduc_cfr_plus_exploitability_falls_below_the_bound() -> None:
    tree = flatten(LeducPoker())
    assert len(tree.infoset_keys) == 288  # 18 first-round + 270 second-round (ranks only)
    solver = CFRPlus(tree)
    solver.run(20)
    early = exploitability(tree, solver.average_strategy())
    solver.run(280)
    average = solver.average_strategy()
    late = exploitability(tree, average)
    assert late < 0.005 < early
    assert expected_value(tree, average) == pytest.approx(LEDUC_VALUE, abs=0.005)


def test_cfr_plus_is_deterministic() -> None:
    tree = flatten(LeducPoker())
    a, b = CFRPlus(tree), CFRPlus(tree)
    a.run(30)
    b.run(10)
    b.run(20)  # resumed in pieces: the same iterations
    assert np.array_equal(a.average, b.average)
