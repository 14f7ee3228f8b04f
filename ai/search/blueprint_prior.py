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

No-Limit heads-up (`nway_prior`): the same shares from the n-player blueprint
(`ai.policy.nway`), the cost context of each node the kernel's own (`cost_context.cost_of`:
a bet up to the pot is cost 1, beyond it cost 2), and with them the blueprint's bet
sizes per context as the kernel's size buckets (half pot, pot, all-in), moved towards
the model's sizes by the same evidence weight.

No-Limit with three to six players (`multiway_nolimit_prior`): the same from the 6-max
blueprint, its seats mapped onto a smaller table's as its lookup maps them.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

import numpy as np
import numpy.typing as npt

from ai.game.observation import Observation
from ai.models.features import N_SIZES, SIZE_FRACTIONS
from ai.policy.blueprint import DEFAULT_ARTEFACT, Blueprint, NotCovered, default_blueprint
from ai.policy.limit.abstraction import CardAbstraction
from ai.policy.limit.game import CALL, DECISION, FOLD, RAISE
from ai.policy.nway import tree as nway_tree
from ai.policy.nway.lookup import ARTEFACTS, NWayBlueprint, seat_offset, shipped, tree_player
from ai.search.cost_context import cost_of
from ai.search.nway_tables_fast import fast_tables, normalised
from ai.search.prior_cache import cached

F64 = npt.NDArray[np.float64]
STREETS, COSTS = 4, 3
# Random deals whose buckets weigh the blueprint's strategy per bucket.
WEIGHT_DEALS = 20_000
WEIGHT_SEED = 20261126


def bucket_weights(bp: Blueprint) -> list[F64]:
    """Per round, the share of a random player's holdings in each bucket."""
    return abstraction_weights(bp.abstraction)


def abstraction_weights(abstraction: CardAbstraction) -> list[F64]:
    """Per round, the share of a random player's holdings in each bucket."""
    from ai.math.fastrng import seed_state

    rng = np.array([seed_state(WEIGHT_SEED)], dtype=np.int64)
    buckets, _ = abstraction.sample(WEIGHT_DEALS, rng)  # (deals, 2 players, 4 rounds)
    out = []
    for r, n in enumerate(abstraction.buckets):
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
    if bp is None:  # the shipped one: its shares kept on disk (`prior_cache`)
        (shares,) = cached("shares", DEFAULT_ARTEFACT, lambda: (shares_of(default_blueprint()),))
        return np.asarray(shares, dtype=np.float64)
    return shares_of(bp)


def shares_of(bp: Blueprint) -> F64:
    """`blueprint_shares` of the heads-up Limit blueprint `bp`, computed."""
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


def size_bucket_of(frac: float) -> int:
    """The kernel's size bucket of a tree raise: all-in, else the nearest of
    `SIZE_FRACTIONS` on a log scale (`ai.search.kernel.size_bucket`)."""
    if frac == nway_tree.ALL_IN:
        return N_SIZES - 1
    logs = np.log(np.asarray(SIZE_FRACTIONS))
    return int(np.argmin(np.abs(logs - np.log(max(frac, 1e-6)))))


@functools.cache
def nway_prior(game: str) -> tuple[F64, F64]:
    """(shares[player, street, cost], sizes[player, street, cost, size bucket]) of the
    shipped n-player blueprint `game` (`ai.policy.nway.lookup.shipped`), as
    `blueprint_shares` does for heads-up Limit. Cached per process and on disk
    (`prior_cache`: seconds to build, the 3-max tree's chips rebuilt)."""
    bp = shipped(game)  # NotCovered where the artefact is not shipped
    return _pair(cached(f"nway-{game}", ARTEFACTS[game], lambda: nway_tables(bp)))


def _pair(arrays: tuple[npt.NDArray[np.generic], ...]) -> tuple[F64, F64]:
    shares, sizes = arrays
    return np.asarray(shares, dtype=np.float64), np.asarray(sizes, dtype=np.float64)


def chips_tree(bp: NWayBlueprint) -> nway_tree.NWayTree:
    """The blueprint's tree with each node's pot and call. The stored tree holds no chips;
    the same game built again (tested equal) does. The 6-max artefacts store the pot and
    call per node (tested equal): no rebuild."""
    t = bp.tree
    chips = t if t.pot.size else nway_tree.build_tree(bp.game)
    if chips.n_nodes != t.n_nodes:
        raise ValueError(f"{bp.version}: the stored tree differs from the game's")
    return chips


def reached_means(bp: NWayBlueprint) -> Iterator[tuple[int, F64, float]]:
    """(node, strategy, reach) for each decision node of the blueprint's tree, depth
    first: the strategy averaged over card buckets (weighed by the abstraction; an
    unvisited node calls) and how often self-play reaches the node."""
    t = bp.tree
    art = bp.artefact
    weights = abstraction_weights(art.abstraction)
    reach = np.zeros(t.n_nodes)
    reach[0] = 1.0
    for node in range(t.n_nodes):  # depth first: a node's parent comes before it
        if t.kind[node] != nway_tree.DECISION:
            continue
        k = int(t.n_actions[node])
        r = int(t.round[node])
        o = int(art.lay.base[node])
        rows = art.strategy[o : o + art.lay.buckets[r] * k].reshape(-1, k)
        w = weights[r] * (rows.sum(axis=1) > 0)
        if w.sum() > 0:
            mean = (rows * w[:, None]).sum(axis=0) / w.sum()
        else:
            mean = np.array([float(a == nway_tree.A_CALL) for a in t.action[node, :k]])
        yield node, mean, float(reach[node])
        for a in range(k):
            reach[int(t.child[node, a])] += reach[node] * float(mean[a])


def nway_tables(bp: NWayBlueprint) -> tuple[F64, F64]:
    t = bp.tree
    chips = chips_tree(bp)
    game = bp.game
    units = (game.big_blind, game.big_blind, 2 * game.big_blind, 2 * game.big_blind)
    n = game.n
    acts = np.zeros((n, STREETS, COSTS, 3))
    sizes = np.zeros((n, STREETS, COSTS, N_SIZES))
    for node, mean, reach in reached_means(bp):
        r = int(t.round[node])
        p, cost = int(t.player[node]), 0
        if t.action[node, 0] == nway_tree.A_FOLD:
            call, pot = int(chips.to_call[node]), int(chips.pot[node])
            cost = max(1, int(cost_of(call, pot, units[r], game.limit)))
        for a in range(len(mean)):
            act, share = int(t.action[node, a]), float(mean[a])
            acts[p, r, cost, act] += reach * share
            if act == nway_tree.A_RAISE:
                sizes[p, r, cost, size_bucket_of(float(t.frac[node, a]))] += reach * share
    return normalised(acts, sizes)


def prior_for(obs: Observation) -> tuple[F64, F64 | None] | None:
    """The blueprint's (shares, sizes or None) for this table, or None where no blueprint
    stands behind the search: heads-up Limit (sizes are Limit's), No-Limit heads-up,
    three-handed Limit (the n-player `limit-3max`) and No-Limit of three to six
    (`nolimit-6max`)."""
    if not obs.limit and 3 <= obs.n <= 6:
        return multiway_nolimit_prior(obs)
    if obs.limit and obs.n == 3:
        try:
            return nway_prior("limit-3max")[0], None
        except NotCovered:
            return None
    if obs.n != 2:
        return None
    if obs.limit:
        return blueprint_shares(), None
    try:
        return nway_prior("nolimit-hu")
    except NotCovered:
        return None


def multiway_nolimit_prior(obs: Observation) -> tuple[F64, F64] | None:
    """No-Limit with three to six players: the 6-max blueprint's (shares, sizes), the
    tree's seats mapped onto the table's as the lookup maps them (`seat_offset`: a
    smaller table plays the tree's blinds and its seats nearest the button). None
    while no 6-max artefact is shipped."""
    try:
        shares, sizes = sixmax_prior()
        offset = seat_offset(shares.shape[0], obs.n)
    except NotCovered:
        return None
    seats = [tree_player(i, offset) for i in range(obs.n)]
    return shares[seats], sizes[seats]


@functools.cache
def sixmax_prior() -> tuple[F64, F64]:
    """`nway_prior("nolimit-6max")`, compiled (`nway_tables_fast`): its tree is large."""
    bp = shipped("nolimit-6max")
    return _pair(
        cached(
            "nway-nolimit-6max",
            ARTEFACTS["nolimit-6max"],
            lambda: fast_tables(bp, abstraction_weights(bp.artefact.abstraction), size_bucket_of),
        )
    )


def evidence_weight(decisions: int, k: float) -> float:
    """How far a player's model moves its shares from the blueprint: n / (n + k)."""
    return decisions / (decisions + k) if decisions > 0 else 0.0


def blend(prior: F64, model: F64, decisions: int, k: float) -> F64:
    """The blueprint's shares moved towards the model's by the evidence (safe exploitation)."""
    w = evidence_weight(decisions, k)
    return (1.0 - w) * prior + w * model
