"""`blueprint_prior.nway_tables`, compiled: the first 6-max tree's 133,076 nodes took the
Python loop 10-40 s on this shared machine, at the first multiway decision of a process.

The same arithmetic (tested equal on the No-Limit heads-up artefact): per decision node
the blueprint's strategy averaged over the card buckets by their random-deal weights,
the self-play reach carried down the depth-first tree, and per (player, street, cost)
the reach-weighted action shares and raise-size buckets.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from ai.math._jit import jit
from ai.models.features import N_SIZES
from ai.models.model import PRIOR_SIZES
from ai.policy.nway import tree as nway_tree
from ai.policy.nway.lookup import NWayBlueprint
from ai.search.cost_context import cost_of

F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]
STREETS, COSTS = 4, 3


@jit
def _accumulate(
    kind: I64,
    player: I64,
    rnd: I64,
    n_actions: I64,
    child: I64,
    action: I64,
    size_bucket: I64,  # (nodes, MAX_ACTIONS): a raise's kernel size bucket
    cost: I64,  # per node
    base: I64,
    n_buckets: I64,  # per round
    strategy: F64,
    weights: F64,  # (rounds, max buckets)
    acts: F64,  # (players, STREETS, COSTS, 3) out
    sizes: F64,  # (players, STREETS, COSTS, N_SIZES) out
) -> None:
    nodes = kind.shape[0]
    reach = np.zeros(nodes)
    reach[0] = 1.0
    mean = np.zeros(nway_tree.MAX_ACTIONS)
    for node in range(nodes):  # depth first: a node's parent comes before it
        if kind[node] != nway_tree.DECISION:
            continue
        k = n_actions[node]
        r = rnd[node]
        o = base[node]
        total = 0.0
        for a in range(k):
            mean[a] = 0.0
        for b in range(n_buckets[r]):
            row = 0.0
            for a in range(k):
                row += strategy[o + b * k + a]
            if row > 0.0:
                w = weights[r, b]
                total += w
                for a in range(k):
                    mean[a] += w * strategy[o + b * k + a]
        for a in range(k):
            if total > 0.0:
                mean[a] /= total
            else:
                mean[a] = 1.0 if action[node, a] == nway_tree.A_CALL else 0.0
        p, c = player[node], cost[node]
        for a in range(k):
            act = action[node, a]
            share = reach[node] * mean[a]
            acts[p, r, c, act] += share
            if act == nway_tree.A_RAISE:
                sizes[p, r, c, size_bucket[node, a]] += share
            reach[child[node, a]] += share


def fast_tables(
    bp: NWayBlueprint, weights: list[F64], size_bucket_of: Callable[[float], int]
) -> tuple[F64, F64]:
    """(shares[player, street, cost], sizes[...]) as `blueprint_prior.nway_tables`;
    `weights`: per round, the share of random holdings in each bucket; `size_bucket_of`:
    a tree raise's pot fraction to the kernel's size bucket."""
    t = bp.tree
    chips = t if t.pot.size else nway_tree.build_tree(bp.game)
    art = bp.artefact
    game = bp.game
    units = (game.big_blind, game.big_blind, 2 * game.big_blind, 2 * game.big_blind)
    decision = t.kind == nway_tree.DECISION
    cost = np.zeros(t.n_nodes, dtype=np.int64)
    faced = np.flatnonzero(decision & (t.action[:, 0] == nway_tree.A_FOLD))
    for node in faced:
        call, pot = int(chips.to_call[node]), int(chips.pot[node])
        cost[node] = max(1, cost_of(call, pot, units[int(t.round[node])], game.limit))
    buckets = {f: size_bucket_of(f) for f in np.unique(t.frac[np.isfinite(t.frac)]).tolist()}
    size_bucket = np.zeros(t.frac.shape, dtype=np.int64)
    for f, b in buckets.items():
        size_bucket[t.frac == f] = b
    widest = max(len(w) for w in weights)
    padded = np.zeros((len(weights), widest))
    for r, w in enumerate(weights):
        padded[r, : len(w)] = w
    acts = np.zeros((game.n, STREETS, COSTS, 3))
    sizes = np.zeros((game.n, STREETS, COSTS, N_SIZES))
    _accumulate(
        t.kind, t.player, t.round, t.n_actions, t.child, t.action, size_bucket, cost,
        art.lay.base, np.asarray(art.lay.buckets, dtype=np.int64), art.strategy, padded,
        acts, sizes,
    )  # fmt: skip
    return normalised(acts, sizes)


def normalised(acts: F64, sizes: F64) -> tuple[F64, F64]:
    """Reach-weighted action and size counts as shares (what `nway_tables` returns)."""
    # A context never reached (No-Limit cost 2 is facing an all-in): cost 1's shares.
    seen2 = acts[:, :, 2].sum(axis=-1, keepdims=True) > 0
    acts[:, :, 2] = np.where(seen2, acts[:, :, 2], acts[:, :, 1])
    total = acts.sum(axis=-1, keepdims=True)
    shares = np.where(total > 0, acts / np.where(total > 0, total, 1.0), 0.0)
    shares[..., 1] += np.where(total[..., 0] > 0, 0.0, 1.0)  # never reached: check/call
    raised = sizes.sum(axis=-1, keepdims=True)
    sizes = np.where(raised > 0, sizes / np.where(raised > 0, raised, 1.0), PRIOR_SIZES)
    return shares, sizes
