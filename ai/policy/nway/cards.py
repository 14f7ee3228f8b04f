"""The n-player card abstraction of hold'em, and Kuhn's for the tests.

Each player's bucket per round is the heads-up blueprint's (`ai.policy.limit.holdem`:
169 preflop classes; hand strength against one random holding, cut at the same
quantiles, split by a draw flag on the flop and turn): a player's HS does not depend
on how many others are dealt in, so the heads-up cuts serve every table size. The
kernel also gets each player's final hand value, to settle the showdown among those
still in.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ai.math._jit import jit
from ai.math.evaluator import CARD_BITS, CARD_PACK, OFFSET_5, OFFSET_6, OFFSET_7, value_of
from ai.math.fastrng import below, next_state
from ai.policy.limit.holdem import HoldemAbstraction, _bucket, _draw, _tables
from ai.policy.tree import FloatArray, IntArray


@jit
def _strengths(
    board: IntArray,
    nb: int,
    hole: IntArray,  # (n, 2)
    pack: IntArray,
    cbits: IntArray,
    plain: NDArray[np.int32],
    flush: NDArray[np.int32],
    hs: FloatArray,  # (n,) out
    values: IntArray,  # (n,) out: each player's hand value on board[:nb]
) -> None:
    n = hole.shape[0]
    offset = OFFSET_5 if nb == 3 else (OFFSET_6 if nb == 4 else OFFSET_7)
    bp = 0
    bb = 0
    used = 0
    for i in range(nb):
        bp += pack[board[i]]
        bb |= cbits[board[i]]
        used |= 1 << board[i]
    masks = np.empty(n, dtype=np.int64)
    score = np.zeros(n)
    total = np.zeros(n)
    for p in range(n):
        a, b = hole[p, 0], hole[p, 1]
        values[p] = value_of(bp + pack[a] + pack[b], bb | cbits[a] | cbits[b], offset, plain, flush)
        masks[p] = (1 << a) | (1 << b)
    for hi in range(52):
        if used >> hi & 1:
            continue
        for lo in range(hi):
            if used >> lo & 1:
                continue
            m = (1 << hi) | (1 << lo)
            theirs = value_of(
                bp + pack[hi] + pack[lo], bb | cbits[hi] | cbits[lo], offset, plain, flush
            )
            for p in range(n):
                if masks[p] & m:
                    continue
                total[p] += 1.0
                if values[p] > theirs:
                    score[p] += 1.0
                elif values[p] == theirs:
                    score[p] += 0.5
    for p in range(n):
        hs[p] = score[p] / total[p]


@jit
def _sample(
    count: int,
    n: int,
    rng: NDArray[np.int64],
    classes: IntArray,
    cuts: FloatArray,
    n_cuts: IntArray,
    pack: IntArray,
    cbits: IntArray,
    plain: NDArray[np.int32],
    flush: NDArray[np.int32],
    buckets: IntArray,  # (count, n, 4) out
    ranks: IntArray,  # (count, n) out
) -> None:
    deck = np.arange(52)
    hole = np.empty((n, 2), dtype=np.int64)
    hs = np.empty(n)
    values = np.empty(n, dtype=np.int64)
    dealt = 2 * n + 5
    for i in range(count):
        for j in range(dealt):  # partial Fisher-Yates
            rng[0] = next_state(rng[0])
            k = j + below(rng[0], 52 - j)
            deck[j], deck[k] = deck[k], deck[j]
        for p in range(n):
            hole[p, 0], hole[p, 1] = deck[2 * p], deck[2 * p + 1]
            buckets[i, p, 0] = classes[hole[p, 0], hole[p, 1]]
        board = deck[2 * n : dealt]
        for r in range(1, 4):
            _strengths(board, 2 + r, hole, pack, cbits, plain, flush, hs, values)
            for p in range(n):
                bucket = _bucket(hs[p], cuts[r], n_cuts[r])
                if r < 3:
                    bucket = 2 * bucket + _draw(hole[p, 0], hole[p, 1], board, 2 + r)
                buckets[i, p, r] = bucket
        for p in range(n):
            ranks[i, p] = values[p]


class NWayHoldem:
    """`players` hold'em hands per deal, bucketed as the heads-up abstraction does."""

    def __init__(self, players: int, hs: tuple[int, int, int]) -> None:
        self.players = players
        self.base = HoldemAbstraction(hs)
        self.buckets = self.base.buckets
        self.name = self.base.name

    def sample(self, count: int, rng: NDArray[np.int64]) -> tuple[IntArray, IntArray]:
        plain, flush = _tables()
        buckets = np.empty((count, self.players, 4), dtype=np.int64)
        ranks = np.empty((count, self.players), dtype=np.int64)
        b = self.base
        _sample(
            count, self.players, rng, b.classes, b.cuts, b.n_cuts, CARD_PACK, CARD_BITS,
            plain, flush, buckets, ranks,
        )  # fmt: skip
        return buckets, ranks

    def metadata(self) -> dict[str, object]:
        return self.base.metadata()


class Kuhn3Cards:
    """Three-player Kuhn: each player one of J, Q, K, A; the card is bucket and rank."""

    name = "kuhn"
    buckets: tuple[int, ...] = (4,)
    players = 3

    def sample(self, count: int, rng: NDArray[np.int64]) -> tuple[IntArray, IntArray]:
        buckets = np.empty((count, 3, 1), dtype=np.int64)
        for i in range(count):
            deck = [0, 1, 2, 3]
            for p in range(3):
                rng[0] = next_state(rng[0])
                j = int(below(rng[0], len(deck)))
                buckets[i, p, 0] = deck.pop(j)
        return buckets, buckets[:, :, 0].copy()

    def metadata(self) -> dict[str, object]:
        return {"abstraction": self.name}
