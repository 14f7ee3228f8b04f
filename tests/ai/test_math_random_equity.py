"""ai.math.random_equity: the Monte Carlo against random hands agrees with the exact
enumeration of ai.math.equity, and the simple bots' cached p is reproducible."""

from __future__ import annotations

import numpy as np

from ai.math.combos import N_COMBOS, combo_index_of
from ai.math.equity import equity
from ai.math.evaluator import CARD_BITS, CARD_PACK
from ai.math.random_equity import WinProbability, equity_vs_random
from ai.math.tables import build_tables
from holdem.cards import card_index, parse_cards


def cards(text: str) -> tuple[int, ...]:
    return tuple(card_index(c) for c in parse_cards(text))


def two(text: str) -> tuple[int, int]:
    first, second = cards(text)
    return first, second


def _vs_random(hole: str, board: str, opponents: int, samples: int, seed: int) -> float:
    tables = build_tables()
    b = np.zeros(5, dtype=np.int64)
    b[: len(cards(board))] = cards(board)
    return float(
        equity_vs_random(
            np.array(cards(hole), dtype=np.int64), b, len(cards(board)), opponents, samples,
            seed, CARD_PACK, CARD_BITS, tables.plain, tables.flush,
        )
    )  # fmt: skip


def test_equity_against_one_random_hand_matches_exact_enumeration() -> None:
    for hole, board in (("AhKh", "QhJh2c"), ("9s9d", "9c4h2s3d"), ("7c2d", "AhKsQd")):
        h = two(hole)
        exact = equity([[combo_index_of(*h)], list(range(N_COMBOS))], cards(board)).equities[0]
        assert abs(_vs_random(hole, board, 1, 40_000, 7) - exact) < 0.01


def test_equity_against_random_hands_is_seeded() -> None:
    first = _vs_random("7c2d", "", 5, 3_000, 7)
    assert _vs_random("7c2d", "", 5, 3_000, 7) == first != _vs_random("7c2d", "", 5, 3_000, 8)
    assert _vs_random("AhKh", "QhJhTh", 3, 500, 1) == 1.0


def test_win_probability_is_reproducible_and_sane() -> None:
    p = WinProbability(seed=3)
    royal = p(two("AhKh"), cards("QhJhTh"), 3)
    assert royal == 1.0
    air = p(two("7c2d"), cards("AhKsQd"), 1)
    assert air < 0.2
    assert WinProbability(seed=3)(two("7c2d"), cards("AhKsQd"), 1) == air
    assert abs(p(two("AsAh"), (), 1) - 0.852) < 0.01  # preflop: the class table
    assert p(two("7c2d"), cards("AhKsQd"), 0) == 1.0
