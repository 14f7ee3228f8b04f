"""Exact NashConv of a small n-player game: the sum over players of what a best
response gains over the strategy profile (zero exactly at a Nash equilibrium).

For games small enough to enumerate every deal (three-player Kuhn in the tests). An
information set is (node, bucket), as in the MCCFR kernel; the tree's nodes encode the
whole public history, so a best response is chosen per (node, bucket) from the deepest
node up, weighting each deal by the others' probability of reaching the node.
"""

from __future__ import annotations

import numpy as np

from ai.policy.nway.mccfr import Layout, terminal_value
from ai.policy.nway.tree import DECISION, NWayTree
from ai.policy.tree import FloatArray, IntArray


def nash_conv(
    tree: NWayTree,
    lay: Layout,
    strategy: FloatArray,  # normalised; NaN rows play uniformly
    buckets: IntArray,  # (deals, n, rounds)
    ranks: IntArray,  # (deals, n)
    probs: FloatArray,  # (deals,)
) -> float:
    n = tree.put.shape[1]
    m = tree.n_nodes
    deals = len(probs)

    def sigma(node: int, d: int) -> FloatArray:
        k = int(tree.n_actions[node])
        b = int(buckets[d, int(tree.player[node]), int(tree.round[node])])
        row = strategy[int(lay.base[node]) + b * k : int(lay.base[node]) + (b + 1) * k]
        return np.full(k, 1.0 / k) if np.isnan(row).any() else row

    total = 0.0
    for p in range(n):
        reach = np.ones((m, deals))  # the others' and chance's part
        for node in range(m):
            if tree.kind[node] != DECISION:
                continue
            for d in range(deals):
                s = sigma(node, d) if tree.player[node] != p else None
                for a in range(int(tree.n_actions[node])):
                    c = int(tree.child[node, a])
                    reach[c, d] = reach[node, d] * (1.0 if s is None else s[a])
        on = np.zeros((m, deals))
        br = np.zeros((m, deals))
        for node in range(m - 1, -1, -1):
            if tree.kind[node] != DECISION:
                for d in range(deals):
                    on[node, d] = br[node, d] = terminal_value(
                        node, p, ranks[d], tree.put, tree.alive
                    )
                continue
            kids = [int(tree.child[node, a]) for a in range(int(tree.n_actions[node]))]
            for d in range(deals):
                s = sigma(node, d)
                on[node, d] = sum(s[a] * on[c, d] for a, c in enumerate(kids))
                if tree.player[node] != p:
                    br[node, d] = sum(s[a] * br[c, d] for a, c in enumerate(kids))
            if tree.player[node] == p:
                rnd = int(tree.round[node])
                for b in np.unique(buckets[:, p, rnd]):
                    ds = np.flatnonzero(buckets[:, p, rnd] == b)
                    weight = probs[ds] * reach[node, ds]
                    q = [float((weight * br[c, ds]).sum()) for c in kids]
                    best = kids[int(np.argmax(q))]
                    br[node, ds] = br[best, ds]
        total += float((probs * (br[0] - on[0])).sum())
    return total


def kuhn3_deals() -> tuple[IntArray, IntArray, FloatArray]:
    from itertools import permutations

    perms = np.array(list(permutations(range(4), 3)), dtype=np.int64)
    return perms[:, :, None].copy(), perms.copy(), np.full(len(perms), 1.0 / len(perms))
