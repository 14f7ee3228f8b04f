"""A best response to a fixed strategy in the abstract game, and its value.

The abstract heads-up Limit game is too large for the exact best response of
`ai.policy.cfr` (its chance events are card deals, not bucket transitions), so the
responder learns one: MCCFR with the other player frozen to the fixed strategy
(Johanson et al., 2012, call this CFR-BR's inner step), then the greedy action of its
cumulative regret at every information set, which is the action of the highest summed
counterfactual value. Its value is measured without sampling any action: for each of
`deals` fresh deals the whole tree is valued under both strategies
(`ai.policy.limit.mccfr.expected_values`), so the only noise is the deal's. The result
is a lower bound on the exploitability within the abstraction (a learned response
is at most a best one).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ai.math.fastrng import seed_state
from ai.policy.limit.abstraction import CardAbstraction
from ai.policy.limit.game import LimitGame
from ai.policy.limit.mccfr import Layout, expected_values
from ai.policy.limit.solver import MCCFR
from ai.policy.tree import FloatArray, IntArray

Z95 = 1.959963984540054


@dataclass(frozen=True)
class ResponseValue:
    responder: int
    value: float  # chips per hand the responder wins against the fixed strategy
    half_width: float  # 95% CI


def greedy(lay: Layout, regret: FloatArray, fallback: FloatArray) -> FloatArray:
    """Per information set: all weight on the largest cumulative regret; `fallback` where
    the responder never got there (all zero)."""
    out = fallback.copy()
    for node in np.flatnonzero(lay.base >= 0):
        o, k = int(lay.base[node]), int(lay.n_actions[node])
        n = lay.buckets[int(lay.round[node])] * k
        rows = regret[o : o + n].reshape(-1, k)
        seen = np.abs(rows).sum(axis=1) > 0
        best = np.zeros_like(rows)
        best[np.arange(rows.shape[0]), rows.argmax(axis=1)] = 1.0
        block = out[o : o + n].reshape(-1, k)
        block[seen] = best[seen]
        out[o : o + n] = block.ravel()
    return out


def evaluate(
    solver: MCCFR,
    strategy0: FloatArray,
    strategy1: FloatArray,
    buckets: IntArray,
    results: IntArray,
) -> tuple[float, float]:
    """Player 0's mean exact payoff over the given deals, and the 95% CI half width."""
    t = solver.tree
    out = np.empty(buckets.shape[0])
    expected_values(
        buckets, results, t.kind, t.player, t.round, t.child, t.put, solver.lay.base,
        solver.lay.n_actions, strategy0, strategy1, out,
    )  # fmt: skip
    half = Z95 * float(out.std(ddof=1)) / math.sqrt(len(out)) if len(out) > 1 else math.inf
    return float(out.mean()), half


def best_response(
    game: LimitGame,
    abstraction: CardAbstraction,
    fixed: FloatArray,
    responder: int,
    iterations: int,
    deals: int,
    seed: int = 0,
    batch: int = 1000,
) -> ResponseValue:
    """Learn `responder`'s response to `fixed` (the other seat's strategy) and value it."""
    solver = MCCFR(game, abstraction, seed, batch, frozen=1 - responder, fixed=fixed)
    solver.run(iterations)
    response = greedy(solver.lay, solver.regret, fixed)
    rng = np.array([seed_state(seed + 7919)], dtype=np.int64)
    buckets, results = abstraction.sample(deals, rng)
    if responder == 0:
        mean, half = evaluate(solver, response, fixed, buckets, results)
        return ResponseValue(0, mean, half)
    mean, half = evaluate(solver, fixed, response, buckets, results)
    return ResponseValue(1, -mean, half)
