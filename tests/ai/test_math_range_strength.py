"""ai.math.range_strength (the bots' HS and Monte Carlo potential) against the exact
enumeration of ai.math.potential, and ai.math.rollout_strength on dealt rollouts."""

from __future__ import annotations

import random

import numpy as np

from ai.math.combos import N_COMBOS, combo_index_of
from ai.math.evaluator import strength_of
from ai.math.potential import analyse
from ai.math.range_strength import (
    COMBO_FIRST,
    COMBO_SECOND,
    LEX_INDEX,
    LEX_TO_COLEX,
    blocked_mask,
    combo_values,
    hand_strength,
    percentiles,
    potential,
    river_percentiles,
)
from ai.math.rollout_strength import sampled_strengths, showdown_equity
from holdem.cards import FULL_DECK, card_index, parse_cards


def cards(text: str) -> tuple[int, ...]:
    return tuple(card_index(c) for c in parse_cards(text))


def two(text: str) -> tuple[int, int]:
    first, second = cards(text)
    return first, second


def test_lexicographic_order_and_its_colex_map() -> None:
    assert len(COMBO_FIRST) == N_COMBOS and bool((COMBO_FIRST < COMBO_SECOND).all())
    assert sorted(LEX_TO_COLEX.tolist()) == list(range(N_COMBOS))
    for k in (0, 1, 700, N_COMBOS - 1):
        a, b = int(COMBO_FIRST[k]), int(COMBO_SECOND[k])
        assert LEX_INDEX[a, b] == LEX_INDEX[b, a] == k
        assert LEX_TO_COLEX[k] == combo_index_of(a, b)


def test_combo_values_are_the_evaluators_strengths() -> None:
    board = cards("Ah7d2c9s")
    values = combo_values(board)
    blocked = blocked_mask(board)
    assert bool((values[blocked] == -1).all())
    for k in np.flatnonzero(~blocked)[::97]:
        assert values[k] == strength_of((int(COMBO_FIRST[k]), int(COMBO_SECOND[k]), *board))


def test_percentiles_rank_holdings_on_the_board() -> None:
    board = cards("Ah7d2c")
    pct = percentiles(board)
    assert pct[LEX_INDEX[cards("As")[0], cards("Ad")[0]]] > 0.99
    assert pct[LEX_INDEX[cards("3s")[0], cards("4d")[0]]] < 0.2
    assert pct[LEX_INDEX[cards("Ah")[0], cards("Kd")[0]]] == 0.0  # uses a board card


def test_strength_and_potential_agree_with_exact_enumeration() -> None:
    rng = random.Random(5)
    weights = np.array([rng.random() for _ in range(N_COMBOS)])
    theirs = np.zeros(N_COMBOS)  # ai.math.potential indexes holdings by colex rank
    theirs[LEX_TO_COLEX] = weights
    for hole, board in (("AhKh", "QhJh2c"), ("9s8s", "7s6d2c"), ("Td9d", "8d7c2h")):
        h, b = two(hole), cards(board)
        exact = analyse([FULL_DECK[c] for c in h], [FULL_DECK[c] for c in b], theirs, lookahead=2)
        w = np.where(blocked_mask(h), 0.0, weights)
        assert abs(hand_strength(strength_of(h + b), combo_values(b), w) - exact.hs) < 1e-9
        ppot, npot = potential(h, b, weights, samples=20_000, seed=1)
        assert abs(ppot - exact.ppot) < 0.03 and abs(npot - exact.npot) < 0.03
    h, b = two("AhKh"), cards("QhJh2c")
    assert potential(h, b, weights, 300, seed=4) == potential(h, b, weights, 300, seed=4)
    assert potential(h, (*b, *cards("3d4s")), weights) == (0.0, 0.0)  # river: nothing to come


def test_sampled_strengths_estimate_the_board_percentile() -> None:
    board = cards("Ah7d2c9sKd")
    holes = np.array([[two("AsAd"), two("3h4h")]], dtype=np.int64)
    runouts = np.array([board], dtype=np.int64)
    out = sampled_strengths(holes, runouts, 1, 4_000, seed=2)
    for player, (a, b) in enumerate(holes[0].tolist()):
        for street, n_board in ((1, 3), (2, 4), (3, 5)):
            exact = percentiles(board[:n_board])[LEX_INDEX[a, b]]
            assert abs(out[0, player, street] - exact) < 0.03
    assert bool((out[:, :, 0] == 0).all())
    assert showdown_equity(holes, runouts, 0, (1,)) == 1.0
    assert showdown_equity(holes, runouts, 1, (0,)) == 0.0


def test_sampled_strengths_with_potential_estimate_the_river_strength_over_the_runouts() -> None:
    # A flush draw is a weak holding on the flop now, a middling one over the runouts.
    board = cards("Ks7h2h3c9s")
    holes = np.array([[two("5h4h"), two("KdQc")]], dtype=np.int64)
    runouts = np.array([board], dtype=np.int64)
    out = sampled_strengths(holes, runouts, 1, 8_000, seed=2, potential=True)
    for player, (a, b) in enumerate(holes[0].tolist()):
        for street, n_board in ((1, 3), (2, 4)):
            exact = river_percentiles(board[:n_board])[LEX_INDEX[a, b]]
            assert abs(out[0, player, street] - exact) < 0.03
        assert abs(out[0, player, 3] - percentiles(board)[LEX_INDEX[a, b]]) < 0.03
    assert out[0, 0, 1] > 0.4 > sampled_strengths(holes, runouts, 1, 8_000, seed=2)[0, 0, 1]
