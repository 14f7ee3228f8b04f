"""Opponent weight tables and per-opponent statistics on fixed spots."""

from __future__ import annotations

import numpy as np
import pytest

from ai.math.combos import N_COMBOS, class_combos, class_index, combo_index
from ai.math.opponent_stats import (
    CALL,
    FLOP,
    FOLD,
    PREFLOP,
    RAISE,
    RIVER,
    TURN,
    OpponentStats,
)
from ai.math.postflop_rank import postflop_strengths
from ai.math.weights import (
    MIN_WEIGHT,
    WeightTable,
    frequency_threshold,
    preflop_percentiles,
    ramp,
)


def _class_weight(table: WeightTable, name: str) -> float:
    weights = {table.weight(int(c)) for c in class_combos(class_index(name))}
    assert len(weights) == 1  # every holding of a class is weighted alike preflop
    return weights.pop()


def test_vpip_table_keeps_the_top_share_by_income_rate() -> None:
    for vpip in (0.1, 0.25, 0.5):
        table = WeightTable.from_vpip(vpip)
        full = table.weights == 1.0
        # Whole classes only (4-12 combos), so the share is just under vpip.
        assert vpip - 12 / N_COMBOS < full.mean() <= vpip
        assert (table.weights[~full] == MIN_WEIGHT).all()
    tight = WeightTable.from_vpip(0.1)
    assert _class_weight(tight, "AA") == 1.0 and _class_weight(tight, "KQs") == 1.0
    assert _class_weight(tight, "72o") == MIN_WEIGHT and _class_weight(tight, "T6o") == MIN_WEIGHT


def test_mu_sigma_table_ramps_and_never_reaches_zero() -> None:
    table = WeightTable.from_mu_sigma(mu=0.5, sigma=0.2)
    p = preflop_percentiles()
    w = table.weights
    assert (w >= MIN_WEIGHT).all() and (w <= 1.0).all()
    assert (w[p >= 0.7] == 1.0).all() and (w[p <= 0.3] == MIN_WEIGHT).all()
    middle = (p > 0.3) & (p < 0.7)
    expected = MIN_WEIGHT + (1 - MIN_WEIGHT) * (p[middle] - 0.3) / 0.4
    assert np.allclose(w[middle], expected)
    assert _class_weight(table, "AA") == 1.0 and _class_weight(table, "32o") == MIN_WEIGHT
    # A wider spread gives some weight to hands the narrow one all but excludes.
    loose = WeightTable.from_mu_sigma(mu=0.5, sigma=0.4)
    weakish = (p > 0.15) & (p < 0.3)
    assert (loose.weights[weakish] > MIN_WEIGHT).all()
    assert ramp([0.0, 1.0], 0.5, 0.0).tolist() == [MIN_WEIGHT, 1.0]


def test_reweighting_by_action_probabilities() -> None:
    table = WeightTable()
    aa, trash = combo_index("As", "Ah"), combo_index("7c", "2d")
    triples = np.tile([0.2, 0.5, 0.3], (N_COMBOS, 1))
    triples[aa] = [0.0, 0.1, 0.9]
    triples[trash] = [0.9, 0.1, 0.0]
    table.observe_action(RAISE, triples)
    assert table.weight(aa) == pytest.approx(0.9)
    assert table.weight(trash) == MIN_WEIGHT  # floored, never 0
    assert table.weight(0) == pytest.approx(0.3)
    table.observe_action(RAISE, triples)
    assert table.weight(aa) == pytest.approx(0.81)
    assert table.weight(trash) == MIN_WEIGHT
    with pytest.raises(ValueError, match="triple"):
        table.observe_action(RAISE, triples[:10])


def test_postflop_reweighting_keeps_strong_holdings() -> None:
    board = ["Kh", "9s", "4d", "2c"]
    table = WeightTable()
    table.observe_postflop(board, frequency=0.2, sigma=0.05)
    sets, air = combo_index("9h", "9d"), combo_index("6h", "3s")
    assert table.weight(sets) == 1.0 and table.weight(air) == MIN_WEIGHT
    strengths = postflop_strengths(board)
    live = table.normalised(board)
    strong = strengths >= frequency_threshold(strengths, 0.2, np.ones(N_COMBOS)) + 0.05
    assert (table.weights[strong & (live > 0)] == 1.0).all()
    # About the top 20% of live holdings keep a high weight, and nearly all the mass.
    kept = (table.weights >= 0.5) & (live > 0)
    assert 0.15 < kept.sum() / (live > 0).sum() < 0.3
    assert live[kept].sum() > 0.8


def test_normalised_table_excludes_dead_cards() -> None:
    table = WeightTable.from_vpip(0.3)
    normal = table.normalised(["Ah", "Kd"])
    assert normal.sum() == pytest.approx(1.0)
    assert normal[combo_index("Ah", "As")] == 0.0
    assert normal[combo_index("Qs", "Qh")] > normal[combo_index("7c", "2d")]
    with pytest.raises(ValueError, match="read-only"):
        table.weights[0] = 5.0  # read-only view


def test_opponent_stats_over_a_few_hands() -> None:
    stats = OpponentStats()
    # Hand 1: raises preflop, bets the flop, calls a raise on the turn, folds the river.
    stats.start_hand()
    stats.record(PREFLOP, 1, RAISE)
    stats.record(FLOP, 0, RAISE)
    stats.record(FLOP, 1, CALL)
    stats.record(TURN, 2, CALL)
    stats.record(RIVER, 1, FOLD)
    # Hand 2: big blind checks preflop (not voluntary), checks and folds the flop.
    stats.start_hand()
    stats.record(PREFLOP, 0, CALL)
    stats.record(FLOP, 0, CALL)
    stats.record(FLOP, 1, FOLD)
    # Hand 3: calls preflop, then raises a bet on the flop.
    stats.start_hand()
    stats.record(PREFLOP, 1, CALL)
    stats.record(FLOP, 1, RAISE)
    # Hand 4: folds preflop.
    stats.start_hand()
    stats.record(PREFLOP, 1, FOLD)
    assert stats.hands == 4
    assert stats.vpip == 0.5 and stats.pfr == 0.25
    # Postflop: 2 bets/raises against 2 calls (the flop check is not a call).
    assert stats.aggression_factor == 1.0
    assert stats.count(FLOP, 0, RAISE) == 1 and stats.count(FLOP, 1, FOLD) == 1
    assert stats.counts.sum() == 11 and stats.counts.shape == (4, 3, 3)
    table = stats.category_table()
    assert table[FLOP, 1].tolist() == pytest.approx([1 / 3, 1 / 3, 1 / 3])
    assert table[PREFLOP, 1].tolist() == pytest.approx([1 / 3, 1 / 3, 1 / 3])
    assert table[RIVER, 0].tolist() == [0.0, 0.0, 0.0]
    assert stats.frequencies(TURN, 2, prior=0).tolist() == [0.0, 1.0, 0.0]
    assert stats.frequencies(TURN, 2).tolist() == pytest.approx([0.25, 0.5, 0.25])
    with pytest.raises(ValueError, match="street"):
        stats.record(4, 0, CALL)
