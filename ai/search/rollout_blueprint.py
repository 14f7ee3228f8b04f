"""The blueprint as our own later play inside the search's simulations.

The kernel (`ai.search.kernel`) plays our later decisions, in the tree's nodes below
the root and in the rollouts after them, by the blueprint wherever the simulated hand
is still on the blueprint's betting tree: the blueprint's strategy at that node for
our card bucket on that street. So an action's value is what the blueprint, a sound
self-play policy, makes of the hand after it, not what a fast fixed rule makes of it
(a rule that calls too much made a free check look worse than folding). Off the tree
(a raise the abstraction does not have, an all-in for less) the kernel falls back to
the rule.

`Pack` flattens either kind of blueprint (heads-up Limit, `ai.policy.blueprint`; the
n-player ones, `ai.policy.nway`) into the arrays the kernel walks:
- `ints[node]`: the actor, the street, the number of actions (0: the hand is over on
  the tree), the strategy's offset, then per action slot its child and its action
  (A_FOLD, A_CALL, A_RAISE);
- `fracs[node, slot]`: a No-Limit raise's pot fraction (`ALL_IN` for all-in);
- `strategy`: per (node, bucket) the probabilities of the node's actions, an
  information set training never reached filled from the nearest visited bucket
  (as the lookups do), none visited: check or call.

Our bucket per street is the blueprint's (`ai.policy.limit.holdem`): the preflop class,
then hand strength against a random holding cut at the artefact's quantiles, split by a
draw flag on the flop and turn. The current street's is exact; later streets' are
estimated per deal from `BUCKET_SAMPLES` random holdings (`deal_buckets`), cheap
enough for every deal of a batch.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ai.game.observation import Observation
from ai.math._jit import jit
from ai.math.evaluator import CARD_BITS, CARD_PACK, OFFSET_5, OFFSET_6, OFFSET_7, value_of
from ai.math.fastrng import below, next_state, seed_state
from ai.math.range_strength import LEX_INDEX
from ai.policy.blueprint import DEFAULT_ARTEFACT, Blueprint, NotCovered, default_blueprint
from ai.policy.limit import game as limit_game
from ai.policy.limit.holdem import HoldemAbstraction, _bucket, _draw, _tables
from ai.policy.nway import tree as nway_tree
from ai.policy.nway.lookup import ARTEFACTS, NWayBlueprint, game_for, shipped
from ai.search.prior_cache import cached

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]

SLOTS = 6  # action slots per node (ai.policy.nway.tree.MAX_ACTIONS)
B_PLAYER, B_ROUND, B_NACT, B_BASE, B_CHILD, B_ACT, B_FIELDS = 0, 1, 2, 3, 4, 10, 16
ALL_IN = nway_tree.ALL_IN
BUCKET_SAMPLES = 64  # random holdings per later street's strength estimate
# The n-player games whose tree players are the table's indices (a blueprint that maps a
# smaller table onto its seats, as No-Limit 6-max would, is not followed here yet).
NWAY_GAMES = ("nolimit-hu", "limit-3max")


@dataclass(frozen=True)
class Pack:
    name: str
    limit: bool
    ints: I64  # (nodes, B_FIELDS)
    fracs: F64  # (nodes, SLOTS)
    strategy: F64
    abstraction: HoldemAbstraction

    @property
    def arrays(self) -> tuple[I64, F64, F64]:
        return self.ints, self.fracs, self.strategy


def _filled(rows: F64, call: int) -> F64:
    """Rows never visited borrow the nearest visited bucket's; none: check or call."""
    visited = np.flatnonzero(rows.sum(axis=1) > 0)
    out = rows.copy()
    if not len(visited):
        out[:] = 0.0
        out[:, call] = 1.0
        return out
    for b in np.flatnonzero(rows.sum(axis=1) <= 0):
        # The nearest, the lower on a tie (the lookups try bucket - step first).
        near = visited[np.argmin(np.abs(visited - b) * 2 + (visited > b))]
        out[b] = rows[near]
    out /= out.sum(axis=1, keepdims=True)
    return out


def _pack_limit_hu(bp: Blueprint) -> Pack:
    t, lay = bp.tree, bp.lay
    n = t.n_nodes
    ints = np.full((n, B_FIELDS), -1, dtype=np.int64)
    ints[:, B_NACT] = 0
    fracs = np.zeros((n, SLOTS))
    strategy = np.zeros(lay.size)
    for found in np.flatnonzero(t.kind == limit_game.DECISION):
        node = int(found)
        legal = t.legal(node)
        k = len(legal)
        r = int(t.round[node])
        o = int(lay.base[node])
        ints[node, B_PLAYER] = int(t.player[node])
        ints[node, B_ROUND] = r
        ints[node, B_NACT] = k
        ints[node, B_BASE] = o
        for slot, action in enumerate(legal):
            ints[node, B_CHILD + slot] = int(t.child[node, action])
            ints[node, B_ACT + slot] = action  # FOLD, CALL, RAISE = A_FOLD, A_CALL, A_RAISE
        rows = bp.strategy[o : o + lay.buckets[r] * k].reshape(-1, k)
        strategy[o : o + rows.size] = _filled(rows, legal.index(limit_game.CALL)).ravel()
    return Pack("limit-hu", True, ints, fracs, strategy, bp.abstraction)


def _pack_nway(bp: NWayBlueprint) -> Pack:
    t, art = bp.tree, bp.artefact
    n = t.n_nodes
    ints = np.full((n, B_FIELDS), -1, dtype=np.int64)
    ints[:, B_NACT] = 0
    fracs = np.zeros((n, SLOTS))
    strategy = np.zeros(art.lay.size)
    for found in np.flatnonzero(t.kind == nway_tree.DECISION):
        node = int(found)
        k = int(t.n_actions[node])
        r = int(t.round[node])
        o = int(art.lay.base[node])
        ints[node, B_PLAYER] = int(t.player[node])
        ints[node, B_ROUND] = r
        ints[node, B_NACT] = k
        ints[node, B_BASE] = o
        ints[node, B_CHILD : B_CHILD + k] = t.child[node, :k]
        ints[node, B_ACT : B_ACT + k] = t.action[node, :k]
        fracs[node, :k] = np.nan_to_num(t.frac[node, :k])
        rows = art.strategy[o : o + art.lay.buckets[r] * k].reshape(-1, k)
        call = [int(a) for a in t.action[node, :k]].index(nway_tree.A_CALL)
        strategy[o : o + rows.size] = _filled(rows, call).ravel()
    return Pack(bp.game.name, bp.game.limit, ints, fracs, strategy, art.abstraction)


@functools.cache
def pack(game: str) -> Pack:
    """The blueprint `game` ("limit-hu" or an `ai.policy.nway` game) packed, once per
    process (a second or two; the worker's warm-up loads it)."""
    if game == "limit-hu":
        bp = default_blueprint()
        ints, fracs, strategy = cached(
            "pack-limit-hu", DEFAULT_ARTEFACT, lambda: _pack_limit_hu(bp).arrays
        )
        return Pack("limit-hu", True, _i64(ints), _f64(fracs), _f64(strategy), bp.abstraction)
    nway = shipped(game)
    ints, fracs, strategy = cached(f"pack-{game}", ARTEFACTS[game], lambda: _pack_nway(nway).arrays)
    return Pack(
        nway.game.name, nway.game.limit, _i64(ints), _f64(fracs), _f64(strategy),
        nway.artefact.abstraction,
    )  # fmt: skip


def _i64(a: npt.NDArray[np.generic]) -> I64:
    return np.asarray(a, dtype=np.int64)


def _f64(a: npt.NDArray[np.generic]) -> F64:
    return np.asarray(a, dtype=np.float64)


def for_observation(obs: Observation) -> tuple[Pack, int] | None:
    """The packed blueprint of this table and the node of our decision on its tree, or
    None where no blueprint covers the table or the hand has left its tree."""
    try:
        if obs.limit and obs.n == 2:
            bp = default_blueprint()
            return pack("limit-hu"), bp.locate(obs).node
        game = game_for(obs)
        if game not in NWAY_GAMES or obs.n != shipped(game).game.n:
            return None
        return pack(game), shipped(game).walk(obs).node
    except NotCovered:
        return None


@jit
def _sampled_buckets(
    holes: I64,  # (deals, 2): the holding on each deal
    runouts: I64,
    first: int,
    samples: int,
    seed: int,
    cuts: F64,
    n_cuts: I64,
    pack_: I64,
    cbits: I64,
    plain: npt.NDArray[np.int32],
    flush: npt.NDArray[np.int32],
    out: I64,  # (deals, 4)
) -> None:
    x = seed_state(seed)
    used = np.zeros(52, dtype=np.bool_)
    for d in range(runouts.shape[0]):
        a, b = holes[d, 0], holes[d, 1]
        for street in range(first, 4):
            nb = street + 2
            offset = OFFSET_5 if nb == 3 else (OFFSET_6 if nb == 4 else OFFSET_7)
            bp = 0
            bb = 0
            used[:] = False
            for i in range(nb):
                bp += pack_[runouts[d, i]]
                bb |= cbits[runouts[d, i]]
                used[runouts[d, i]] = True
            used[a] = True
            used[b] = True
            mine = value_of(
                bp + pack_[a] + pack_[b], bb | cbits[a] | cbits[b], offset, plain, flush
            )
            score = 0.0
            for _ in range(samples):
                while True:
                    x = next_state(x)
                    c = below(x, 52)
                    if not used[c]:
                        break
                while True:
                    x = next_state(x)
                    e = below(x, 52)
                    if not used[e] and e != c:
                        break
                theirs = value_of(
                    bp + pack_[c] + pack_[e], bb | cbits[c] | cbits[e], offset, plain, flush
                )
                score += 1.0 if mine > theirs else (0.5 if mine == theirs else 0.0)
            bucket = _bucket(score / samples, cuts[street], n_cuts[street])
            if street < 3:
                bucket = 2 * bucket + _draw(a, b, runouts[d], nb)
            out[d, street] = bucket


def deal_buckets(
    abstraction: HoldemAbstraction,
    hole: tuple[int, int],
    board: tuple[int, ...],
    runouts: I64,
    seed: int,
    current: int | None = None,
) -> I64:
    """buckets[deal, street] of our cards on each deal's board: the current street's
    exact (the board is known; `current` if already computed), later streets' from
    `BUCKET_SAMPLES` random holdings."""
    out = np.zeros((runouts.shape[0], 4), dtype=np.int64)
    street = {0: 0, 3: 1, 4: 2, 5: 3}[len(board)]
    out[:, street] = abstraction.bucket(hole, board) if current is None else current
    if street < 3:
        plain, flush = _tables()
        _sampled_buckets(
            np.tile(np.array(hole, dtype=np.int64), (runouts.shape[0], 1)), runouts,
            street + 1, BUCKET_SAMPLES, seed,
            abstraction.cuts, abstraction.n_cuts, CARD_PACK, CARD_BITS, plain, flush, out,
        )  # fmt: skip
    return out


def holding_buckets(
    abstraction: HoldemAbstraction,
    holes: I64,
    board: tuple[int, ...],
    runouts: I64,
    seed: int,
) -> I64:
    """buckets[deal, street] of an opponent's holding `holes[deal]` (dealt from its
    range) on each deal's board, as `deal_buckets` for ours: the current street's exact
    (every holding's on the known board at once), later streets' sampled."""
    out = np.zeros((runouts.shape[0], 4), dtype=np.int64)
    street = {0: 0, 3: 1, 4: 2, 5: 3}[len(board)]
    out[:, street] = np.maximum(_all_on(abstraction, board)[LEX_INDEX[holes[:, 0], holes[:, 1]]], 0)
    if street < 3:
        plain, flush = _tables()
        _sampled_buckets(
            np.ascontiguousarray(holes, dtype=np.int64), runouts, street + 1, BUCKET_SAMPLES,
            seed, abstraction.cuts, abstraction.n_cuts, CARD_PACK, CARD_BITS, plain, flush, out,
        )  # fmt: skip
    return out


@functools.lru_cache(maxsize=8)
def _all_on(abstraction: HoldemAbstraction, board: tuple[int, ...]) -> I64:
    """Every holding's bucket on `board` (the few boards of the hands in play)."""
    return abstraction.buckets_of_all(board)


def empty_arrays() -> tuple[I64, F64, F64]:
    """The kernel's arguments where no blueprint plays (root node -1)."""
    return np.zeros((1, B_FIELDS), dtype=np.int64), np.zeros((1, SLOTS)), np.zeros(1)
