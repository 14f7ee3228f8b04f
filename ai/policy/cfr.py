"""CFR+ (Tammelin, 2014) and the exact best response over a `FlatTree`.

CFR+: regret matching on regrets floored at zero after every update, alternating
updates (one player per pass), and the average strategy weighted by the iteration
number. Exploitability is (BR_0(sigma_1) + BR_1(sigma_0)) / 2, OpenSpiel's convention:
zero exactly at an equilibrium, in the game's payoff units per hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ai.math._jit import jit
from ai.policy.tree import KIND_CHANCE, KIND_DECISION, KIND_TERMINAL, FlatTree, FloatArray, IntArray

Policy = Mapping[str, Sequence[float]]  # information set -> probability per legal action


@jit
def _regret_matching(
    regret: FloatArray, offset: IntArray, n_actions: IntArray, out: FloatArray
) -> None:
    for i in range(offset.shape[0]):
        o, k = offset[i], n_actions[i]
        total = 0.0
        for a in range(k):
            total += max(regret[o + a], 0.0)
        for a in range(k):
            out[o + a] = max(regret[o + a], 0.0) / total if total > 0.0 else 1.0 / k


@jit
def _values(
    kind: IntArray,
    infoset: IntArray,
    first: IntArray,
    count: IntArray,
    chance_prob: FloatArray,
    utility: FloatArray,
    offset: IntArray,
    strategy: FloatArray,
    sign: float,
    value: FloatArray,
) -> None:
    """Expected payoff (player 0's times sign) of every node under `strategy`, bottom-up."""
    for n in range(kind.shape[0] - 1, -1, -1):
        if kind[n] == KIND_TERMINAL:
            value[n] = sign * utility[n]
            continue
        v = 0.0
        c = first[n]
        for j in range(count[n]):
            w = chance_prob[c + j] if kind[n] == KIND_CHANCE else strategy[offset[infoset[n]] + j]
            v += w * value[c + j]
        value[n] = v


@jit
def _cfr_plus_pass(
    kind: IntArray,
    player: IntArray,
    infoset: IntArray,
    first: IntArray,
    count: IntArray,
    chance_prob: FloatArray,
    utility: FloatArray,
    offset: IntArray,
    n_actions: IntArray,
    regret: FloatArray,
    average: FloatArray,
    strategy: FloatArray,
    traverser: int,
    weight: float,
    reach_other: FloatArray,
    reach_own: FloatArray,
    value: FloatArray,
    delta: FloatArray,
) -> None:
    n_nodes = kind.shape[0]
    _regret_matching(regret, offset, n_actions, strategy)
    reach_other[0] = 1.0
    reach_own[0] = 1.0
    for n in range(n_nodes):  # forward: reach of the others (chance included) and our own
        if kind[n] == KIND_TERMINAL:
            continue
        c = first[n]
        for j in range(count[n]):
            ro, rs = reach_other[n], reach_own[n]
            if kind[n] == KIND_CHANCE:
                ro *= chance_prob[c + j]
            elif player[n] == traverser:
                rs *= strategy[offset[infoset[n]] + j]
            else:
                ro *= strategy[offset[infoset[n]] + j]
            reach_other[c + j] = ro
            reach_own[c + j] = rs
    _values(
        kind, infoset, first, count, chance_prob, utility, offset, strategy,
        1.0 if traverser == 0 else -1.0, value,
    )  # fmt: skip
    delta[:] = 0.0
    for n in range(n_nodes):
        if kind[n] != KIND_DECISION or player[n] != traverser:
            continue
        o = offset[infoset[n]]
        c = first[n]
        for j in range(count[n]):
            delta[o + j] += reach_other[n] * (value[c + j] - value[n])
            average[o + j] += weight * reach_own[n] * strategy[o + j]
    for i in range(offset.shape[0]):
        o = offset[i]
        for a in range(n_actions[i]):
            regret[o + a] = max(regret[o + a] + delta[o + a], 0.0)


@jit
def _best_response_value(
    kind: IntArray,
    player: IntArray,
    infoset: IntArray,
    first: IntArray,
    count: IntArray,
    chance_prob: FloatArray,
    utility: FloatArray,
    depth: IntArray,
    offset: IntArray,
    strategy: FloatArray,
    responder: int,
    n_entries: int,
) -> float:
    """The responder's best value against `strategy` for the other player.

    Level by level from the deepest: a responder's information set picks the action of
    the highest counterfactual value summed over its nodes (weighted by the chance and
    opponent reach), all of which lie at one depth (checked by `ai.policy.tree`).
    """
    n_nodes = kind.shape[0]
    reach = np.zeros(n_nodes)
    reach[0] = 1.0
    for n in range(n_nodes):
        if kind[n] == KIND_TERMINAL:
            continue
        c = first[n]
        for j in range(count[n]):
            r = reach[n]
            if kind[n] == KIND_CHANCE:
                r *= chance_prob[c + j]
            elif player[n] != responder:
                r *= strategy[offset[infoset[n]] + j]
            reach[c + j] = r
    sign = 1.0 if responder == 0 else -1.0
    value = np.zeros(n_nodes)
    action_value = np.zeros(n_entries)
    end = n_nodes
    while end > 0:
        start = end - 1
        while start > 0 and depth[start - 1] == depth[end - 1]:
            start -= 1
        for n in range(start, end):  # this level's responder nodes: sum per infoset action
            if kind[n] == KIND_DECISION and player[n] == responder:
                o, c = offset[infoset[n]], first[n]
                for j in range(count[n]):
                    action_value[o + j] += reach[n] * value[c + j]
        for n in range(start, end):
            c = first[n]
            if kind[n] == KIND_TERMINAL:
                value[n] = sign * utility[n]
            elif kind[n] == KIND_CHANCE:
                v = 0.0
                for j in range(count[n]):
                    v += chance_prob[c + j] * value[c + j]
                value[n] = v
            elif player[n] == responder:
                o = offset[infoset[n]]
                best = 0
                for j in range(1, count[n]):
                    if action_value[o + j] > action_value[o + best]:
                        best = j
                value[n] = value[c + best]
            else:
                o = offset[infoset[n]]
                v = 0.0
                for j in range(count[n]):
                    v += strategy[o + j] * value[c + j]
                value[n] = v
        end = start
    return float(value[0])


def _arrays(tree: FlatTree) -> tuple[IntArray, IntArray, IntArray, IntArray, IntArray]:
    return tree.kind, tree.player, tree.infoset, tree.first_child, tree.n_children


def policy_array(tree: FlatTree, policy: Policy) -> FloatArray:
    """A policy as the tree's flat (information set, action) array; uniform where missing."""
    out = np.empty(tree.size)
    for i, key in enumerate(tree.infoset_keys):
        o, k = int(tree.offset[i]), int(tree.n_actions[i])
        probs = policy.get(key)
        if probs is None:
            out[o : o + k] = 1.0 / k
        else:
            row = np.asarray(probs, dtype=np.float64)
            out[o : o + k] = row / row.sum()
    return out


def best_response_value(tree: FlatTree, strategy: FloatArray, responder: int) -> float:
    """What `responder` gains per hand, best responding to the other's part of `strategy`."""
    return _best_response_value(
        *_arrays(tree), tree.chance_prob, tree.utility, tree.depth, tree.offset,
        strategy, responder, tree.size,
    )  # fmt: skip


def expected_value(tree: FlatTree, strategy: FloatArray) -> float:
    """Player 0's expected payoff when both play `strategy`."""
    value = np.zeros(tree.n_nodes)
    _values(
        tree.kind, tree.infoset, tree.first_child, tree.n_children, tree.chance_prob,
        tree.utility, tree.offset, strategy, 1.0, value,
    )  # fmt: skip
    return float(value[0])


def exploitability(tree: FlatTree, strategy: FloatArray) -> float:
    """(BR_0 + BR_1) / 2: how much a best responder wins per hand, averaged over seats."""
    return 0.5 * (best_response_value(tree, strategy, 0) + best_response_value(tree, strategy, 1))


@dataclass
class CFRPlus:
    """CFR+ over a flattened game; `run(n)` continues where the last call stopped."""

    tree: FlatTree
    iterations: int = 0
    regret: FloatArray = field(init=False)
    average: FloatArray = field(init=False)

    def __post_init__(self) -> None:
        self.regret = np.zeros(self.tree.size)
        self.average = np.zeros(self.tree.size)

    def run(self, n: int) -> None:
        t = self.tree
        reach_other, reach_own, value = (np.zeros(t.n_nodes) for _ in range(3))
        strategy, delta = np.zeros(t.size), np.zeros(t.size)
        for _ in range(n):
            self.iterations += 1
            for traverser in (0, 1):
                _cfr_plus_pass(
                    *_arrays(t), t.chance_prob, t.utility, t.offset, t.n_actions,
                    self.regret, self.average, strategy, traverser, float(self.iterations),
                    reach_other, reach_own, value, delta,
                )  # fmt: skip

    def average_strategy(self) -> FloatArray:
        return normalise(self.tree, self.average)

    def average_policy(self) -> dict[str, list[float]]:
        return as_policy(self.tree, self.average_strategy())


def normalise(tree: FlatTree, weights: FloatArray) -> FloatArray:
    """Per information set: weights / their sum (uniform where all are zero)."""
    out = np.empty_like(weights)
    for o, k in zip(tree.offset, tree.n_actions, strict=True):
        row = weights[o : o + k]
        total = row.sum()
        out[o : o + k] = row / total if total > 0 else 1.0 / k
    return out


def as_policy(tree: FlatTree, strategy: FloatArray) -> dict[str, list[float]]:
    return {
        key: strategy[o : o + k].tolist()
        for key, o, k in zip(tree.infoset_keys, tree.offset, tree.n_actions, strict=True)
    }
