"""The bots' numeric helpers against references: evaluator order, Monte Carlo kernels,
preflop table, HS and potential against ai.math's exact enumeration."""

from __future__ import annotations

import random

import numpy as np

from ai.bots.evaluator import hand_value_of, hand_values
from ai.bots.montecarlo import equity_vs_random, equity_vs_random_lut
from ai.bots.preflop import hand_percentile, preflop_equity
from ai.bots.strength import (
    COMBO_FIRST,
    COMBO_SECOND,
    combo_values,
    hand_strength,
    potential,
)
from ai.bots.winprob import WinProbability
from ai.math.evaluator import CARD_BITS, CARD_PACK, evaluate_batch
from ai.math.potential import analyse
from ai.math.tables import build_tables
from holdem.cards import FULL_DECK, card_index, parse_cards


def cards(text: str) -> tuple[int, ...]:
    return tuple(card_index(c) for c in parse_cards(text))


def two(text: str) -> tuple[int, int]:
    first, second = cards(text)
    return first, second


def test_evaluator_orders_hands_like_ai_math() -> None:
    rng = np.random.default_rng(1)
    hands = np.array([rng.permutation(52)[:7] for _ in range(20_000)], dtype=np.int64)
    ours = hand_values(hands, 7)
    theirs = evaluate_batch(hands).astype(np.int64)
    a, b = ours[:10_000], ours[10_000:]
    x, y = theirs[:10_000], theirs[10_000:]
    assert np.array_equal(np.sign(a - b), np.sign(x - y))


def test_lookup_table_kernel_matches_the_reference_kernel() -> None:
    tables = build_tables()
    for hole, board, opponents in (("AhKh", "QhJh2c", 1), ("7c2d", "", 5), ("9s9d", "9c4h2s3d", 3)):
        h = np.array(cards(hole), dtype=np.int64)
        b = np.zeros(5, dtype=np.int64)
        b[: len(cards(board))] = cards(board)
        n = len(cards(board))
        slow = equity_vs_random(h, b, n, opponents, 3000, 7)
        fast = equity_vs_random_lut(
            h, b, n, opponents, 3000, 7, CARD_PACK, CARD_BITS, tables.plain, tables.flush
        )
        assert slow == fast


def test_preflop_table_knows_the_classics() -> None:
    aa, kk, seven_deuce = two("AsAh"), two("KsKh"), two("7c2d")
    assert abs(preflop_equity(*aa, 1) - 0.852) < 0.01  # AA vs one random hand
    assert abs(preflop_equity(*seven_deuce, 1) - 0.346) < 0.01
    assert preflop_equity(*aa, 5) > preflop_equity(*kk, 5) > preflop_equity(*seven_deuce, 5)
    assert hand_percentile(*aa, 3) > 0.99 and hand_percentile(*seven_deuce, 3) < 0.05


def test_win_probability_is_reproducible_and_sane() -> None:
    p = WinProbability(seed=3)
    royal = p(two("AhKh"), cards("QhJhTh"), 3)
    assert royal == 1.0
    air = p(two("7c2d"), cards("AhKsQd"), 1)
    assert air < 0.2
    assert WinProbability(seed=3)(two("7c2d"), cards("AhKsQd"), 1) == air


def test_strength_and_potential_agree_with_exact_enumeration() -> None:
    rng = random.Random(5)
    weights = np.array([rng.random() for _ in range(1326)])
    # ai.math indexes holdings by colex rank: reorder our table for it.
    colex = COMBO_SECOND * (COMBO_SECOND - 1) // 2 + COMBO_FIRST
    theirs = np.zeros(1326)
    theirs[colex] = weights
    for hole, board in (("AhKh", "QhJh2c"), ("9s8s", "7s6d2c"), ("Td9d", "8d7c2h")):
        h, b = two(hole), cards(board)
        exact = analyse([FULL_DECK[c] for c in h], [FULL_DECK[c] for c in b], theirs, lookahead=2)
        values = combo_values(b)
        w = weights.copy()
        dead = np.isin(COMBO_FIRST, h) | np.isin(COMBO_SECOND, h)
        w[dead] = 0.0
        assert abs(hand_strength(hand_value_of(h + b), values, w) - exact.hs) < 1e-9
        ppot, npot = potential(h, b, weights, samples=20_000, seed=1)
        assert abs(ppot - exact.ppot) < 0.03 and abs(npot - exact.npot) < 0.03
