"""Leduc hold'em for the MCCFR kernel: the exact (lossless) abstraction.

Round 0 bucket: the private card's rank (3); round 1: private rank * 3 + public rank (9).
Strategies map back to `ai.policy.games.leduc` information sets, whose exact best
response then measures the kernel's convergence.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ai.math._jit import jit
from ai.math.fastrng import below, next_state
from ai.policy.games.leduc import RANKS
from ai.policy.limit.game import DECISION, BettingTree
from ai.policy.limit.mccfr import Layout
from ai.policy.tree import FlatTree, FloatArray, IntArray


@jit
def _sample(n: int, rng: NDArray[np.int64], buckets: IntArray, results: IntArray) -> None:
    deck = np.arange(6)
    for i in range(n):
        for j in range(3):  # partial Fisher-Yates: deck[0..2] are the three cards
            rng[0] = next_state(rng[0])
            k = j + below(rng[0], 6 - j)
            deck[j], deck[k] = deck[k], deck[j]
        a, b, pub = deck[0] // 2, deck[1] // 2, deck[2] // 2
        buckets[i, 0, 0] = a
        buckets[i, 1, 0] = b
        buckets[i, 0, 1] = a * 3 + pub
        buckets[i, 1, 1] = b * 3 + pub
        sa = 10 + a if a == pub else a
        sb = 10 + b if b == pub else b
        results[i] = 1 if sa > sb else (-1 if sa < sb else 0)


class LeducAbstraction:
    name = "leduc-exact"
    buckets: tuple[int, ...] = (3, 9)

    def sample(self, n: int, rng: NDArray[np.int64]) -> tuple[IntArray, IntArray]:
        buckets = np.empty((n, 2, 2), dtype=np.int64)
        results = np.empty(n, dtype=np.int64)
        _sample(n, rng, buckets, results)
        return buckets, results

    def metadata(self) -> dict[str, object]:
        return {"abstraction": self.name}


def to_flat_strategy(
    tree: BettingTree, lay: Layout, strategy: FloatArray, flat: FlatTree
) -> FloatArray:
    """The kernel's strategy as `flat`'s (information set, action) array (Leduc's keys)."""
    index = flat.index()
    out = np.zeros(flat.size)
    for node in (int(n) for n in np.flatnonzero(tree.kind == DECISION)):
        r, k, o = int(tree.round[node]), int(lay.n_actions[node]), int(lay.base[node])
        for bucket in range(lay.buckets[r]):
            cards = RANKS[bucket] if r == 0 else RANKS[bucket // 3] + RANKS[bucket % 3]
            key = f"{cards}:{tree.history[node]}"
            if key not in index:
                continue  # e.g. a pair bucket nobody can hold twice: unreachable
            i = index[key]
            if flat.actions[i] != tree.legal(node):
                raise ValueError(f"{key}: actions {flat.actions[i]} != {tree.legal(node)}")
            fo = int(flat.offset[i])
            out[fo : fo + k] = strategy[o + bucket * k : o + (bucket + 1) * k]
    return out
