"""The simple personalities' win probability p, fast enough for thousands of hands a second.

p is the chance to win (ties shared) against the active opponents holding
random hands: preflop from the precomputed class table (O(1)); after the flop
a small numba Monte Carlo, cached per (cards, opponents) so a player deciding
again on the same street pays nothing. The Monte Carlo seed comes from the
cards themselves, so p is a pure function of the spot (reproducible arenas).
"""

from __future__ import annotations

import numpy as np

from ai.bots.montecarlo import equity_vs_random_lut
from ai.bots.preflop import preflop_equity
from ai.math.evaluator import CARD_BITS, CARD_PACK
from ai.math.tables import build_tables

DEFAULT_SAMPLES = 96
_CACHE_LIMIT = 50_000


class WinProbability:
    def __init__(self, samples: int = DEFAULT_SAMPLES, seed: int = 0) -> None:
        self.samples = samples
        self.seed = seed
        self._cache: dict[tuple[int, ...], float] = {}
        self._hole = np.zeros(2, dtype=np.int64)
        self._board = np.zeros(5, dtype=np.int64)
        tables = build_tables()
        self._tables = (CARD_PACK, CARD_BITS, tables.plain, tables.flush)

    def __call__(self, hole: tuple[int, int], board: tuple[int, ...], opponents: int) -> float:
        if opponents <= 0:
            return 1.0
        if not board:
            return preflop_equity(hole[0], hole[1], opponents)
        key = (*hole, opponents, *board)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        self._hole[0], self._hole[1] = hole
        for i, card in enumerate(board):
            self._board[i] = card
        seed = hash((self.seed, *key)) & 0x7FFFFFFF
        # Fewer samples against many opponents: each sample evaluates every hand.
        samples = max(24, self.samples * 2 // (opponents + 1))
        p = float(
            equity_vs_random_lut(
                self._hole, self._board, len(board), opponents, samples, seed, *self._tables
            )
        )
        if len(self._cache) >= _CACHE_LIMIT:
            self._cache.clear()
        self._cache[key] = p
        return p
