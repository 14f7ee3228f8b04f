"""Equity against random hands: a seeded numba Monte Carlo, and the simple bots' cached p.

`equity_vs_random` deals the missing board cards and `n_opp` random holdings per sample
(a partial Fisher-Yates on the xorshift stream of `ai.math.fastrng`) and evaluates on the
lookup tables: a hand is a sum of per-card codes and one or two table reads, so the
board's part is added once per sample. Against ranges, use `ai.math.equity`.

`WinProbability` is p for the simple personalities: preflop from the class table of
`ai.math.preflop_rank` (O(1)), after the flop this Monte Carlo, cached per (cards,
opponents) so a player deciding again on the same street pays nothing. The seed comes
from the cards themselves, so p is a pure function of the spot (reproducible arenas).

>>> from holdem.cards import card_index
>>> p = WinProbability(seed=3)
>>> p((card_index("Ah"), card_index("Kh")), tuple(card_index(c) for c in ("Qh", "Jh", "Th")), 3)
1.0
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ai.math._jit import jit
from ai.math.evaluator import CARD_BITS, CARD_PACK, OFFSET_7, value_of
from ai.math.fastrng import below, next_state, seed_state
from ai.math.preflop_rank import preflop_equity
from ai.math.tables import build_tables

DEFAULT_SAMPLES = 96
_CACHE_LIMIT = 50_000


@jit
def equity_vs_random(
    hole: NDArray[np.int64],
    board: NDArray[np.int64],
    n_board: int,
    n_opp: int,
    samples: int,
    seed: int,
    pack: NDArray[np.int64],
    cbits: NDArray[np.int64],
    plain: NDArray[np.int32],
    flush: NDArray[np.int32],
) -> float:
    """P(win) + ties shared, for `hole` against `n_opp` random hands, board completed at random.

    `board` holds `n_board` cards (the rest ignored); the tables are `CARD_PACK`,
    `CARD_BITS` and `build_tables()`'s plain and flush arrays.
    """
    used = np.zeros(52, dtype=np.bool_)
    used[hole[0]] = True
    used[hole[1]] = True
    board_pack = 0
    board_bits = 0
    for i in range(n_board):
        used[board[i]] = True
        board_pack += pack[board[i]]
        board_bits |= cbits[board[i]]
    deck = np.empty(52, dtype=np.int64)
    n_deck = 0
    for c in range(52):
        if not used[c]:
            deck[n_deck] = c
            n_deck += 1
    hole_pack = pack[hole[0]] + pack[hole[1]]
    hole_bits = cbits[hole[0]] | cbits[hole[1]]
    missing = 5 - n_board
    need = missing + 2 * n_opp
    x = seed_state(seed)
    total = 0.0
    for _ in range(samples):
        for i in range(need):  # partial Fisher-Yates: the first `need` cards are the deal
            x = next_state(x)
            j = i + below(x, n_deck - i)
            deck[i], deck[j] = deck[j], deck[i]
        full_pack = board_pack
        full_bits = board_bits
        for i in range(missing):
            full_pack += pack[deck[i]]
            full_bits |= cbits[deck[i]]
        my_value = value_of(full_pack + hole_pack, full_bits | hole_bits, OFFSET_7, plain, flush)
        best = -1
        tied = 0
        for k in range(n_opp):
            a = deck[missing + 2 * k]
            b = deck[missing + 2 * k + 1]
            value = value_of(
                full_pack + pack[a] + pack[b],
                full_bits | cbits[a] | cbits[b],
                OFFSET_7,
                plain,
                flush,
            )
            if value > best:
                best = value
                tied = 0
            if value == best:
                tied += 1
            if best > my_value:
                break
        if my_value > best:
            total += 1.0
        elif my_value == best:
            total += 1.0 / (tied + 1)
    return total / samples


class WinProbability:
    """p(hole, board, opponents): the chance to win (ties shared) against random hands."""

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
            equity_vs_random(
                self._hole, self._board, len(board), opponents, samples, seed, *self._tables
            )
        )
        if len(self._cache) >= _CACHE_LIMIT:
            self._cache.clear()
        self._cache[key] = p
        return p
