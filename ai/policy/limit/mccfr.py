"""External sampling MCCFR (Lanctot et al., 2009) over a `BettingTree`, compiled.

Per sampled deal (each player's bucket per round and the showdown result), each player
in turn traverses: every action at its own decisions, one sampled action (from the
current strategy) at the other's. Regrets accumulate at the traverser's information
sets, the strategy sum at the other's ("stochastically weighted averaging"). Early on,
regrets and sums are discounted as in Linear CFR (Brown and Sandholm, 2019), which
Pluribus's blueprint also did: the first iterations' poor strategies fade out.

An information set is (betting node, the actor's bucket in the node's round): its
entries start at `base[node] + bucket * n_actions[node]`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ai.math._jit import jit
from ai.math.fastrng import next_state
from ai.policy.limit.game import DECISION, FOLDED, BettingTree
from ai.policy.tree import FloatArray, IntArray

_INV_2_53 = 1.0 / (1 << 53)


@dataclass(frozen=True)
class Layout:
    """Where each decision node's information sets live in the flat arrays."""

    base: IntArray  # per node; -1 for terminals
    n_actions: IntArray  # per node
    round: IntArray  # per node
    buckets: tuple[int, ...]  # per round
    size: int


def layout(tree: BettingTree, buckets: tuple[int, ...]) -> Layout:
    if len(buckets) != tree.game.rounds:
        raise ValueError(f"need a bucket count per round ({tree.game.rounds}), got {buckets}")
    base = np.full(tree.n_nodes, -1, dtype=np.int64)
    n_actions = (tree.child >= 0).sum(axis=1).astype(np.int64)
    size = 0
    for node in range(tree.n_nodes):
        if tree.kind[node] == DECISION:
            base[node] = size
            size += buckets[int(tree.round[node])] * int(n_actions[node])
    return Layout(base=base, n_actions=n_actions, round=tree.round, buckets=buckets, size=size)


@jit
def _uniform(state: NDArray[np.int64]) -> float:
    state[0] = next_state(state[0])
    return float((state[0] >> 11) & ((1 << 53) - 1)) * _INV_2_53


@jit
def _strategy(regret: FloatArray, o: int, k: int, out: FloatArray) -> None:
    total = 0.0
    for a in range(k):
        total += max(regret[o + a], 0.0)
    for a in range(k):
        out[a] = max(regret[o + a], 0.0) / total if total > 0.0 else 1.0 / k


MAX_DEPTH = 64  # actions in one hand; heads-up Limit Hold'em needs at most 4 x 5


@jit
def _traverse(
    traverser: int,
    deal_buckets: IntArray,  # (2, rounds)
    result: int,  # +1: player 0 wins the showdown, -1: player 1, 0: split
    kind: IntArray,
    player: IntArray,
    rnd: IntArray,
    child: IntArray,
    put: IntArray,
    base: IntArray,
    n_actions: IntArray,
    regret: FloatArray,
    average: FloatArray,
    rng: NDArray[np.int64],
    fixed: FloatArray,
    frozen: int,
    frame_node: IntArray,
    frame_next: IntArray,
    frame_j: IntArray,
    frame_values: FloatArray,
    frame_sigma: FloatArray,
) -> float:
    """One traversal, depth first with an explicit stack (numba cannot cache recursion).

    The traverser's frames stay on the stack until every action's value is back; the
    other player's decisions are tail calls (one sampled action replaces the frame).
    The `frozen` player (-1: none) plays `fixed` and learns nothing: a best response.
    """
    depth = 0
    frame_node[0] = 0
    entering = True
    ret = 0.0
    while True:
        node = frame_node[depth]
        if entering:
            if kind[node] != DECISION:
                if kind[node] == FOLDED:
                    winner = player[node]
                    ret = float(
                        put[node, 1 - winner] if winner == traverser else -put[node, traverser]
                    )
                elif result == 0:
                    ret = 0.0
                else:
                    p0 = float(put[node, 1]) if result > 0 else -float(put[node, 0])
                    ret = p0 if traverser == 0 else -p0
                if depth == 0:
                    return ret
                depth -= 1
                entering = False
                continue
            actor = player[node]
            k = n_actions[node]
            o = base[node] + deal_buckets[actor, rnd[node]] * k
            sigma = frame_sigma[depth]
            if actor == frozen:
                for a in range(k):
                    sigma[a] = fixed[o + a]
            else:
                _strategy(regret, o, k, sigma)
            if actor != traverser:
                if actor != frozen:
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
                j = 0
                for a in range(3):
                    if child[node, a] >= 0:
                        if j == pick:
                            frame_node[depth] = child[node, a]
                            break
                        j += 1
                continue
            frame_j[depth] = 0
            a = 0
            while child[node, a] < 0:
                a += 1
            frame_next[depth] = a + 1
            depth += 1
            frame_node[depth] = child[node, a]
            continue
        # A value comes back to the traverser's frame at `depth`.
        j = frame_j[depth]
        frame_values[depth, j] = ret
        frame_j[depth] = j + 1
        a = frame_next[depth]
        while a < 3 and child[node, a] < 0:
            a += 1
        if a < 3:
            frame_next[depth] = a + 1
            depth += 1
            frame_node[depth] = child[node, a]
            entering = True
            continue
        k = n_actions[node]
        o = base[node] + deal_buckets[traverser, rnd[node]] * k
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
    buckets: IntArray,  # (deals, 2, rounds)
    results: IntArray,  # (deals,)
    kind: IntArray,
    player: IntArray,
    rnd: IntArray,
    child: IntArray,
    put: IntArray,
    base: IntArray,
    n_actions: IntArray,
    regret: FloatArray,
    average: FloatArray,
    rng: NDArray[np.int64],
    fixed: FloatArray,
    frozen: int,
) -> float:
    """One iteration per deal (each player not `frozen` traverses it); returns the first
    traverser's mean sampled value."""
    frame_node = np.zeros(MAX_DEPTH, dtype=np.int64)
    frame_next = np.zeros(MAX_DEPTH, dtype=np.int64)
    frame_j = np.zeros(MAX_DEPTH, dtype=np.int64)
    frame_values = np.zeros((MAX_DEPTH, 3))
    frame_sigma = np.zeros((MAX_DEPTH, 3))
    total = 0.0
    first = 1 if frozen == 0 else 0
    for i in range(buckets.shape[0]):
        for traverser in range(2):
            if traverser == frozen:
                continue
            v = _traverse(
                traverser, buckets[i], results[i], kind, player, rnd, child, put, base,
                n_actions, regret, average, rng, fixed, frozen, frame_node, frame_next,
                frame_j, frame_values, frame_sigma,
            )  # fmt: skip
            if traverser == first:
                total += v
    return total / max(int(buckets.shape[0]), 1)


@jit
def expected_values(
    buckets: IntArray,  # (deals, 2, rounds)
    results: IntArray,
    kind: IntArray,
    player: IntArray,
    rnd: IntArray,
    child: IntArray,
    put: IntArray,
    base: IntArray,
    n_actions: IntArray,
    strategy0: FloatArray,
    strategy1: FloatArray,
    out: FloatArray,  # (deals,): player 0's exact expected payoff given each deal
) -> None:
    """No sampling of actions: the tree is in depth-first order, so one sweep from the
    last node back to the root values every node of a deal."""
    value = np.zeros(kind.shape[0])
    for i in range(buckets.shape[0]):
        for node in range(kind.shape[0] - 1, -1, -1):
            if kind[node] == FOLDED:
                value[node] = put[node, 1] if player[node] == 0 else -put[node, 0]
            elif kind[node] != DECISION:
                r = results[i]
                value[node] = put[node, 1] if r > 0 else (-put[node, 0] if r < 0 else 0.0)
            else:
                actor = player[node]
                k = n_actions[node]
                o = base[node] + buckets[i, actor, rnd[node]] * k
                sigma = strategy0 if actor == 0 else strategy1
                v = 0.0
                j = 0
                for a in range(3):
                    c = child[node, a]
                    if c >= 0:
                        v += sigma[o + j] * value[c]
                        j += 1
                value[node] = v
        out[i] = value[0]


def normalised(lay: Layout, weights: FloatArray) -> FloatArray:
    """Per information set: weights / their sum, uniform where nothing was accumulated."""
    out = np.empty_like(weights)
    for node in np.flatnonzero(lay.base >= 0):
        o, k = int(lay.base[node]), int(lay.n_actions[node])
        n = lay.buckets[int(lay.round[node])] * k
        rows = weights[o : o + n].reshape(-1, k)
        sums = rows.sum(axis=1, keepdims=True)
        out[o : o + n] = np.where(sums > 0, rows / np.where(sums > 0, sums, 1.0), 1.0 / k).ravel()
    return out
