"""ai.sim.showdown: pokerkit's pot splitting (the ranks: tests/ai/test_math_evaluator.py)."""

from __future__ import annotations

from ai.sim.showdown import settle


def test_settle_single_pot_with_folded_money_and_odd_chip() -> None:
    # Three players tie for 3 + 3 + 3 + 2 folded = 11: both odd chips go to the first
    # winner left of the button (pokerkit), not one each to the first two.
    assert settle([3, 3, 3, 2], [True, True, True, False], [5, 5, 5, -1]) == [5, 3, 3, 0]


def test_settle_side_pots() -> None:
    # Index 0 all-in for 10 with the best hand; 1 and 2 contest the side pot.
    assert settle([10, 50, 50], [True, True, True], [9, 5, 7]) == [30, 0, 80]


def test_settle_kills_losing_hands_before_splitting() -> None:
    # Levels 3 and 8 (with money from two folded players) make pots of 13 and 11 for
    # the tied indices 3 and 4; index 1 cannot win either, so its hand is killed and
    # the two pots merge into one of 24.
    contrib = [1, 3, 4, 8, 8]
    in_hand = [False, True, False, True, True]
    assert settle(contrib, in_hand, [-1, 1, -1, 6, 6]) == [0, 0, 0, 12, 12]
