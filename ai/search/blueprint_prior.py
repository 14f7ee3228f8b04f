"""The blueprint as every opponent's prior in the search, and safe exploitation.

The search's kernel plays an opponent from flat tables: (fold, call, raise) shares per
street and cost of calling, the top `raise` share of its holdings raising and the next
`call` share continuing (`ai.search.opponents`). Asking the blueprint per holding at
every simulated action would need its buckets inside the kernel; the seam here is the
tables themselves. Player i's blueprint shares for (street, cost) are the blueprint's
strategy at the tree nodes where i acts on that street (cost 0: nothing to call;
cost 1 and 2: facing a bet), averaged over the card buckets by how often random deals
fall in each (`bucket_weights`) and over those nodes by how often the blueprint itself
reaches them (`node_reach`). The kernel's strength thresholds then give each holding
its action, the stronger ones raising: the blueprint per holding, made monotone.

Safe exploitation (`blend`): each opponent's shares are the blueprint's moved towards
what the opponent model says about that player in proportion to the evidence,
w = n / (n + k) with n the decisions seen of that player and k `MctsConfig.evidence_k`.
With nothing seen the search plays against the blueprint; with many decisions, against
the model.
"""

from __future__ import annotations

import functools

import numpy as np
import numpy.typing as npt

from ai.policy.blueprint import Blueprint, default_blueprint
from ai.policy.limit.game import CALL, DECISION, FOLD, RAISE

F64 = npt.NDArray[np.float64]
STREETS, COSTS = 4, 3
# Random deals whose buckets weigh the blueprint's strategy per bucket.
WEIGHT_DEALS = 20_000
WEIGHT_SEED = 20261126


def bucket_weights(bp: Blueprint) -> list[F64]:
    """Per round, the share of a random player's holdings in each bucket."""
    from ai.math.fastrng import seed_state

    rng = np.array([seed_state(WEIGHT_SEED)], dtype=np.int64)
    buckets, _ = bp.abstraction.sample(WEIGHT_DEALS, rng)  # (deals, 2 players, 4 rounds)
    out = []
    for r, n in enumerate(bp.abstraction.buckets):
        counts = np.bincount(buckets[:, :, r].ravel(), minlength=n).astype(np.float64)
        out.append(counts / counts.sum())
    return out


def node_strategies(bp: Blueprint, weights: list[F64]) -> dict[int, F64]:
    """Per decision node, the blueprint's (fold, call, raise) averaged over the buckets."""
    t, lay = bp.tree, bp.lay
    out: dict[int, F64] = {}
    for found in np.flatnonzero(t.kind == DECISION):
        node = int(found)
        legal = t.legal(node)
        k = len(legal)
        r = int(t.round[node])
        o = int(lay.base[node])
        rows = bp.strategy[o : o + lay.buckets[r] * k].reshape(-1, k)
        seen = rows.sum(axis=1) > 0
        w = weights[r] * seen
        mean = (
            (rows * w[:, None]).sum(axis=0) / w.sum()
            if w.sum() > 0
            else np.eye(k)[legal.index(CALL)]
        )
        triple = np.zeros(3)
        for action, p in zip(legal, mean, strict=True):
            triple[action] += p
        out[node] = triple
    return out


def node_reach(bp: Blueprint, strategies: dict[int, F64]) -> F64:
    """How often the blueprint in self-play reaches each node (parents precede children)."""
    t = bp.tree
    reach = np.zeros(t.n_nodes)
    reach[0] = 1.0
    for node in range(t.n_nodes):
        if t.kind[node] != DECISION or reach[node] == 0:
            continue
        for action in (FOLD, CALL, RAISE):
            child = int(t.child[node, action])
            if child >= 0:
                reach[child] += reach[node] * strategies[node][action]
    return reach


@functools.cache
def blueprint_shares(bp: Blueprint | None = None) -> F64:
    """shares[tree player, street, cost] = (fold, call, raise): the blueprint per context.

    Heads-up Limit calls cost at most one bet, so cost 2 (two or more bets to call, a
    multiway context) repeats cost 1. Nothing to call: never a fold."""
    bp = default_blueprint() if bp is None else bp
    strategies = node_strategies(bp, bucket_weights(bp))
    reach = node_reach(bp, strategies)
    t = bp.tree
    sums = np.zeros((2, STREETS, COSTS, 3))
    for node, triple in strategies.items():
        cost = 1 if t.child[node, FOLD] >= 0 else 0
        sums[int(t.player[node]), int(t.round[node]), cost] += reach[node] * triple
    sums[:, :, 2] = sums[:, :, 1]
    total = sums.sum(axis=-1, keepdims=True)
    shares = np.where(total > 0, sums / np.where(total > 0, total, 1.0), 0.0)
    shares[..., 1] += np.where(total[..., 0] > 0, 0.0, 1.0)  # never reached: check/call
    return shares


def evidence_weight(decisions: int, k: float) -> float:
    """How far a player's model moves its shares from the blueprint: n / (n + k)."""
    return decisions / (decisions + k) if decisions > 0 else 0.0


def blend(prior: F64, model: F64, decisions: int, k: float) -> F64:
    """The blueprint's shares moved towards the model's by the evidence (safe exploitation)."""
    w = evidence_weight(decisions, k)
    return (1.0 - w) * prior + w * model
