"""Numba Monte Carlo kernels: win probability against random hands, seeded.

Two versions of each kernel: on the bots' own evaluator, and on ai.math's lookup
tables (several times faster: the one the bots use; the first stays as the
reference the tests compare it with).

The random source is an xorshift64 kept in an int64 so runs are reproducible
from a seed and cost nothing to start (numba's global generator would need a
reseed per call).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from ai.bots.evaluator import IntArray, hand_value
from ai.math.evaluator import OFFSET_7, value_of

_LOW57 = (1 << 57) - 1
_LOW53 = (1 << 53) - 1


@njit(cache=True, inline="always")
def next_state(x: int) -> int:
    """xorshift64 step; right shifts are made logical on the signed int."""
    x ^= x << 13
    x ^= (x >> 7) & _LOW57
    x ^= x << 17
    return x


@njit(cache=True, inline="always")
def below(x: int, n: int) -> int:
    """A number in [0, n) from the state's high 53 bits (multiply-shift, no division)."""
    return (((x >> 11) & _LOW53) * n) >> 53


@njit(cache=True, inline="always")
def seed_state(seed: int) -> int:
    x = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) | 1
    for _ in range(4):
        x = next_state(x)
    return x


@njit(cache=True)
def equity_vs_random(
    hole: IntArray, board: IntArray, n_board: int, n_opp: int, samples: int, seed: int
) -> float:
    """P(win) + ties shared, for `hole` against `n_opp` random hands, board completed at random."""
    used = np.zeros(52, dtype=np.bool_)
    used[hole[0]] = True
    used[hole[1]] = True
    for i in range(n_board):
        used[board[i]] = True
    deck = np.empty(52, dtype=np.int64)
    n_deck = 0
    for c in range(52):
        if not used[c]:
            deck[n_deck] = c
            n_deck += 1
    mine = np.empty(7, dtype=np.int64)
    theirs = np.empty(7, dtype=np.int64)
    mine[0] = hole[0]
    mine[1] = hole[1]
    for i in range(n_board):
        mine[2 + i] = board[i]
        theirs[2 + i] = board[i]
    missing = 5 - n_board
    need = missing + 2 * n_opp
    x = seed_state(seed)
    total = 0.0
    for _ in range(samples):
        for i in range(need):  # partial Fisher-Yates: the first `need` cards are the deal
            x = next_state(x)
            j = i + below(x, n_deck - i)
            deck[i], deck[j] = deck[j], deck[i]
        for i in range(missing):
            mine[2 + n_board + i] = deck[i]
            theirs[2 + n_board + i] = deck[i]
        my_value = hand_value(mine, 7)
        best = -1
        tied = 0
        for k in range(n_opp):
            theirs[0] = deck[missing + 2 * k]
            theirs[1] = deck[missing + 2 * k + 1]
            value = hand_value(theirs, 7)
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


@njit(cache=True)
def equity_vs_random_lut(
    hole: IntArray,
    board: IntArray,
    n_board: int,
    n_opp: int,
    samples: int,
    seed: int,
    pack: IntArray,
    cbits: IntArray,
    plain: npt.NDArray[np.int32],
    flush: npt.NDArray[np.int32],
) -> float:
    """`equity_vs_random` on ai.math's lookup-table evaluator: a hand is a sum of per-card
    codes and one or two table reads, so the board's part is added once per sample."""
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
        for i in range(need):
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
