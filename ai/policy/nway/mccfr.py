"""External sampling MCCFR for n players (Lanctot et al., 2009), compiled.

The heads-up kernel (`ai.policy.limit.mccfr`) generalised: per sampled deal (each
player's bucket per round and final hand value) each player in turn traverses, trying
every action at its own decisions and sampling one from the current strategy at
everyone else's; regrets accumulate at the traverser's information sets, the strategy
sum at the others'. Beyond two players this has no equilibrium guarantee, but it is
what Pluribus's blueprint did. A terminal pays the traverser its share of the pot
(split among the best hands still in) minus what it put in: with equal starting
stacks everyone still in has put in the same, so there are no side pots.

An information set is (node, the actor's bucket in the node's round): its entries start
at `base[node] + bucket * n_actions[node]`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ai.math._jit import jit
from ai.math.fastrng import next_state
from ai.policy.nway.tree import DECISION, MAX_ACTIONS, NWayTree
from ai.policy.tree import FloatArray, IntArray

_INV_2_53 = 1.0 / (1 << 53)
MAX_DEPTH = 128


@dataclass(frozen=True)
class Layout:
    base: IntArray  # per node; -1 at terminals
    buckets: tuple[int, ...]  # per round
    size: int


def layout(tree: NWayTree, buckets: tuple[int, ...]) -> Layout:
    base = np.full(tree.n_nodes, -1, dtype=np.int64)
    size = 0
    for node in np.flatnonzero(tree.kind == DECISION):
        base[node] = size
        size += buckets[int(tree.round[node])] * int(tree.n_actions[node])
    return Layout(base=base, buckets=buckets, size=size)


@jit
def _uniform(state: NDArray[np.int64]) -> float:
    state[0] = next_state(state[0])
    return float((state[0] >> 11) & ((1 << 53) - 1)) * _INV_2_53


@jit
def terminal_value(node: int, t: int, ranks: IntArray, put: IntArray, alive: IntArray) -> float:
    """What the terminal pays player `t` (the pot share won minus the chips put in)."""
    n = put.shape[1]
    mine = float(put[node, t])
    if not (alive[node] >> t) & 1:
        return -mine
    pot = 0.0
    for p in range(n):
        pot += put[node, p]
    best = -1
    winners = 0
    for p in range(n):
        if (alive[node] >> p) & 1:
            if ranks[p] > best:
                best = ranks[p]
                winners = 1
            elif ranks[p] == best:
                winners += 1
    if ranks[t] != best:
        return -mine
    return pot / winners - mine


@jit
def _traverse(
    t: int,
    deal: IntArray,  # (n, rounds)
    ranks: IntArray,  # (n,)
    kind: IntArray,
    player: IntArray,
    rnd: IntArray,
    n_actions: IntArray,
    child: IntArray,
    put: IntArray,
    alive: IntArray,
    base: IntArray,
    regret: FloatArray,
    average: FloatArray,
    rng: NDArray[np.int64],
    frame_node: IntArray,
    frame_j: IntArray,
    frame_values: FloatArray,
    frame_sigma: FloatArray,
) -> float:
    """Depth first with an explicit stack (numba cannot cache recursive kernels)."""
    depth = 0
    frame_node[0] = 0
    entering = True
    ret = 0.0
    while True:
        node = frame_node[depth]
        if entering:
            if kind[node] != DECISION:
                ret = terminal_value(node, t, ranks, put, alive)
                if depth == 0:
                    return ret
                depth -= 1
                entering = False
                continue
            actor = player[node]
            k = n_actions[node]
            o = base[node] + deal[actor, rnd[node]] * k
            sigma = frame_sigma[depth]
            total = 0.0
            for a in range(k):
                total += max(regret[o + a], 0.0)
            for a in range(k):
                sigma[a] = max(regret[o + a], 0.0) / total if total > 0.0 else 1.0 / k
            if actor != t:
                for a in range(k):
                    average[o + a] += sigma[a]
                u = _uniform(rng)
                pick = k - 1
                acc = 0.0
                for a in range(k):
                    acc += sigma[a]
                    if u < acc:
                        pick = a
                        break
                frame_node[depth] = child[node, pick]  # a tail call
                continue
            frame_j[depth] = 0
            depth += 1
            frame_node[depth] = child[node, 0]
            continue
        j = frame_j[depth]
        frame_values[depth, j] = ret
        j += 1
        frame_j[depth] = j
        k = n_actions[node]
        if j < k:
            depth += 1
            frame_node[depth] = child[node, j]
            entering = True
            continue
        o = base[node] + deal[t, rnd[node]] * k
        ev = 0.0
        for b in range(k):
            ev += frame_sigma[depth, b] * frame_values[depth, b]
        for b in range(k):
            regret[o + b] += frame_values[depth, b] - ev
        ret = ev
        if depth == 0:
            return ret
        depth -= 1


@jit
def run_deals(
    buckets: IntArray,  # (deals, n, rounds)
    ranks: IntArray,  # (deals, n)
    kind: IntArray,
    player: IntArray,
    rnd: IntArray,
    n_actions: IntArray,
    child: IntArray,
    put: IntArray,
    alive: IntArray,
    base: IntArray,
    regret: FloatArray,
    average: FloatArray,
    rng: NDArray[np.int64],
    values: FloatArray,  # (n,) out: each traverser's mean sampled value
) -> None:
    n = put.shape[1]
    frame_node = np.zeros(MAX_DEPTH, dtype=np.int64)
    frame_j = np.zeros(MAX_DEPTH, dtype=np.int64)
    frame_values = np.zeros((MAX_DEPTH, MAX_ACTIONS))
    frame_sigma = np.zeros((MAX_DEPTH, MAX_ACTIONS))
    for p in range(n):
        values[p] = 0.0
    for i in range(buckets.shape[0]):
        for t in range(n):
            values[t] += _traverse(
                t, buckets[i], ranks[i], kind, player, rnd, n_actions, child, put, alive,
                base, regret, average, rng, frame_node, frame_j, frame_values, frame_sigma,
            )  # fmt: skip
    for p in range(n):
        values[p] /= max(buckets.shape[0], 1)


def normalised(tree: NWayTree, lay: Layout, weights: FloatArray) -> FloatArray:
    """Per information set: weights / their sum; NaN where nothing was accumulated."""
    out = np.empty_like(weights)
    for node in np.flatnonzero(lay.base >= 0):
        o, k = int(lay.base[node]), int(tree.n_actions[node])
        n = lay.buckets[int(tree.round[node])] * k
        rows = weights[o : o + n].reshape(-1, k)
        sums = rows.sum(axis=1, keepdims=True)
        out[o : o + n] = np.where(sums > 0, rows / np.where(sums > 0, sums, 1.0), np.nan).ravel()
    return out
