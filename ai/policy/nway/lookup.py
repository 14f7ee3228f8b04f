"""The n-player blueprints at a table: `blueprint_for(observation)` and the lookup.

`blueprint_for` picks the artefact for the table (No-Limit heads-up, three-handed
Limit, Limit with four to six players, No-Limit with three to six) or raises
`NotCovered` (heads-up Limit has its own, `ai.policy.blueprint`). A table with fewer
players than the tree plays the tree's last seats (`seat_offset`): the blinds are the
blinds, the others the seats nearest the button, as if the first seats of the tree had
folded.
`NWayBlueprint.action_probabilities(obs)` walks the hand's actions down the tree:
fold, check/call and Limit's raise map one to one; a No-Limit bet or raise maps onto
the tree's sizes by its pot fraction (`translate`, pseudo-harmonic), an all-in onto
the all-in. Its answer is a probability per (action kind, street total): the tree's
pot fractions are applied to the real pot, an all-in is the real stack. A hand that
leaves the tree (a player acting the tree does not expect, a tree that ended at an
all-in the table did not have) raises `NotCovered`, and the bot falls back.

`own_blueprint` is `mcts`'s own preflop play: the table's blueprint, and at a bigger
table (Limit with four or more: the three-handed one; No-Limit with seven or more: the
6-max one) the nearest once enough players have folded first (`folded_out`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np

from ai.game.observation import KIND_NAMES, Observation
from ai.policy.blueprint import NotCovered
from ai.policy.nway.artefact import Artefact, load
from ai.policy.nway.translate import translate
from ai.policy.nway.tree import A_CALL, A_FOLD, A_RAISE, ALL_IN, DECISION
from ai.policy.tree import FloatArray
from ai.sim.rules import BET, CALL, CHECK, FOLD, PREFLOP, RAISE

ARTEFACTS = {
    "nolimit-hu": "blueprint-nolimit-hu.npz",
    "limit-3max": "blueprint-limit-3max.npz",
    "nolimit-6max": "blueprint-nolimit-6max.npz",
    "limit-6max": "blueprint-limit-6max.npz",
}


def game_for(obs: Observation) -> str:
    if not obs.limit and obs.n == 2:
        return "nolimit-hu"
    if obs.limit and obs.n == 3:
        return "limit-3max"
    if obs.limit and 4 <= obs.n <= 6:
        return "limit-6max"
    if not obs.limit and 3 <= obs.n <= 6:
        return "nolimit-6max"
    kind = "Limit" if obs.limit else "No-Limit"
    raise NotCovered(f"no blueprint for {obs.n}-handed {kind} yet")


def seat_offset(tree_players: int, table_players: int) -> int:
    """How many of the tree's first non-blind seats a smaller table leaves out: table
    player i >= 2 is tree player i + offset (the blinds are 0 and 1 in both).

    >>> seat_offset(6, 6), seat_offset(6, 4), seat_offset(6, 3), seat_offset(2, 2)
    (0, 2, 3, 0)
    """
    if table_players > tree_players or (table_players < 3 and tree_players != table_players):
        raise NotCovered(f"a {tree_players}-player tree does not seat {table_players}")
    return tree_players - table_players


def tree_player(table_player: int, offset: int) -> int:
    return table_player if table_player < 2 else table_player + offset


@dataclass(frozen=True)
class Seating:
    """Which tree player each table player is (None: left out of the tree: a player
    whose first action was a fold), and how many of the tree's first non-blind seats
    fold before the hand's actions are walked."""

    tree_of: tuple[int | None, ...]
    skipped: int


def seating(tree_players: int, table_players: int) -> Seating:
    """A table of at most the tree's players: the tree's last seats (`seat_offset`)."""
    offset = seat_offset(tree_players, table_players)
    return Seating(tuple(tree_player(i, offset) for i in range(table_players)), offset)


def folded_out(obs: Observation, tree_players: int) -> Seating:
    """A preflop decision at a table bigger than the tree, as the tree's hand of the
    players still in: the non-blind players whose first action was a fold are left
    out (they put no chips in), the others keep their order on the tree's last seats.
    `NotCovered` while more players than the tree seats are still in.

    A 6-handed Limit table after UTG, MP and the cutoff folded is the three-handed
    tree's hand exactly; after UTG folded and MP limped, MP plays the tree's button
    (the cutoff and the button still to act are the blinds' places short)."""
    if obs.street != PREFLOP:
        raise NotCovered("a bigger table's hand is mapped preflop only")
    first: dict[int, int] = {}
    for rec in obs.history:
        first.setdefault(rec.player, rec.kind)
    kept = [p for p in range(2, obs.n) if first.get(p) != FOLD]
    skipped = tree_players - 2 - len(kept)
    if skipped < 0:
        raise NotCovered(
            f"{len(kept) + 2} players still in: more than the {tree_players}-player blueprint seats"
        )
    where = {p: 2 + skipped + j for j, p in enumerate(kept)}
    return Seating(tuple(p if p < 2 else where.get(p) for p in range(obs.n)), skipped)


@dataclass(frozen=True)
class Walked:
    node: int
    exact: bool  # False: a bet was translated onto another size


class NWayBlueprint:
    def __init__(self, path: Path) -> None:
        self.artefact: Artefact = load(path)
        self.tree = self.artefact.tree
        self.version = self.artefact.version
        self.game = self.artefact.game

    def walk(self, obs: Observation, seats: Seating | None = None) -> Walked:
        """The tree node of this decision (see the module docstring); `seats`: how the
        table's players sit in the tree (default: `seating`, the table's own size)."""
        t = self.tree
        n = obs.n
        bb = obs.big_blind
        history = obs.history
        sb = history[0].pot - bb if history and history[0].street == 0 else bb // 2
        start = [obs.stacks[i] + obs.invested(i) for i in range(n)]
        bets = [0] * n
        bets[0 if n == 2 else 1] = bb
        bets[1 if n == 2 else 0] = sb
        collected = [0] * n
        street = 0
        node, exact = 0, True
        if seats is None:
            seats = seating(self.game.n, n)
        for skipped in range(2, 2 + seats.skipped):  # the seats this table does not have fold
            if t.kind[node] != DECISION or t.player[node] != skipped:
                raise NotCovered("the hand left the blueprint's tree")
            acts = [int(a) for a in t.action[node, : t.n_actions[node]]]
            node = int(t.child[node, acts.index(A_FOLD)])
        for rec in history:
            if rec.street != street:
                collected = [c + b for c, b in zip(collected, bets, strict=True)]
                bets = [0] * n
                street = rec.street
            p = rec.player
            tp = seats.tree_of[p]
            if tp is None:
                continue  # folded first: not in the tree's hand
            if t.kind[node] != DECISION or t.player[node] != tp or t.round[node] != street:
                raise NotCovered("the hand left the blueprint's tree")
            acts = [int(a) for a in t.action[node, : t.n_actions[node]]]
            if rec.kind == FOLD:
                want = acts.index(A_FOLD) if A_FOLD in acts else acts.index(A_CALL)
            elif rec.kind in (CHECK, CALL) or A_RAISE not in acts:
                want = acts.index(A_CALL)
                exact = exact and rec.kind in (CHECK, CALL)
            elif self.game.limit:
                want = acts.index(A_RAISE)
            else:
                facing, pot = bets[p] + rec.to_call, rec.pot + rec.to_call
                want, hit = self._translate(
                    node, acts, rec.to, facing, pot, start[p] - collected[p]
                )
                exact = exact and hit
            if rec.kind != FOLD and rec.kind != CHECK:
                bets[p] = rec.to
            node = int(t.child[node, want])
        me = seats.tree_of[obs.index]
        at = t.kind[node] == DECISION and t.player[node] == me and t.round[node] == obs.street
        if me is None or not at:
            raise NotCovered("the hand left the blueprint's tree")
        return Walked(node, exact)

    def _translate(
        self, node: int, acts: Sequence[int], to: int, facing: int, pot: int, cap: int
    ) -> tuple[int, bool]:
        """The raise action a real raise to `to` maps to, and whether it is on the tree."""
        raises = [a for a, act in enumerate(acts) if act == A_RAISE]
        fracs = [float(self.tree.frac[node, a]) for a in raises]
        if to >= cap and fracs[-1] == ALL_IN:
            return raises[-1], True
        x = (to - facing) / max(pot, 1)
        sizes = [f if f != ALL_IN else (cap - facing) / max(pot, 1) for f in fracs]
        i = translate(x, sizes)
        return raises[i], abs(sizes[i] - x) < 0.02

    def action_probabilities(
        self, obs: Observation, seats: Seating | None = None
    ) -> dict[tuple[int, int], float]:
        """Probability per (action kind, street total) at this decision (0 for fold and
        check/call's total); `seats` as in `walk`."""
        node = self.walk(obs, seats).node
        art = self.artefact
        t = self.tree
        k = int(t.n_actions[node])
        bucket = art.abstraction.bucket(obs.hole, obs.board)
        probs = self._row(node, bucket, k)
        legal = obs.legal
        passive = CHECK if legal.can_check else CALL
        facing = obs.bets[obs.index] + legal.call_amount
        out: dict[tuple[int, int], float] = {}
        for a in range(k):
            act = int(t.action[node, a])
            key = (passive, 0)
            if act == A_FOLD and legal.can_fold:
                key = (FOLD, 0)
            elif act == A_RAISE and legal.raise_kind in (BET, RAISE):
                frac = float(t.frac[node, a])
                if self.game.limit or frac == ALL_IN:
                    to = legal.min_to if self.game.limit else legal.max_to
                else:
                    to = facing + round(frac * (obs.pot + legal.call_amount))
                to = min(max(to, legal.min_to), legal.max_to)
                key = (legal.raise_kind, to)
            out[key] = out.get(key, 0.0) + float(probs[a])
        return out

    def _row(self, node: int, bucket: int, k: int) -> FloatArray:
        """The strategy at (node, bucket); an unvisited one borrows the nearest visited
        bucket; none visited: check or call."""
        o = int(self.artefact.lay.base[node])
        n_buckets = self.artefact.lay.buckets[int(self.tree.round[node])]
        for step in range(n_buckets):
            for b in (bucket - step, bucket + step):
                if 0 <= b < n_buckets:
                    row = self.artefact.strategy[o + b * k : o + (b + 1) * k]
                    if row.sum() > 0:
                        out: FloatArray = row / row.sum()
                        return out
        passive = np.zeros(k)
        passive[[int(a) for a in self.tree.action[node, :k]].index(A_CALL)] = 1.0
        return passive


@functools.cache
def shipped(game: str) -> NWayBlueprint:
    """The artefact under ai/data for `game` (loaded once per process)."""
    with resources.as_file(resources.files("ai.data") / ARTEFACTS[game]) as path:
        if not path.exists():
            raise NotCovered(f"no {game} blueprint artefact shipped ({ARTEFACTS[game]})")
        return NWayBlueprint(path)


def blueprint_for(obs: Observation) -> NWayBlueprint:
    """The n-player blueprint covering this table, or `NotCovered`."""
    return shipped(game_for(obs))


def own_blueprint(obs: Observation) -> tuple[NWayBlueprint, Seating]:
    """The blueprint for our own preflop play and how the table sits in it: the table's
    (`blueprint_for`), else at a bigger table the nearest blueprint of its game
    (three-handed Limit, No-Limit 6-max) with the players who folded first left out
    (`folded_out`); `NotCovered` where neither applies. Limit with four or more is
    such a bigger table: playing the Limit 6-max blueprint there lost on the training
    set (docs/experiments/2026-11-27-limit-6max-blueprint.md)."""
    if not (obs.limit and obs.n >= 4):
        try:
            lookup = blueprint_for(obs)
            return lookup, seating(lookup.game.n, obs.n)
        except NotCovered:
            if obs.n <= 2:
                raise
    lookup = shipped("limit-3max" if obs.limit else "nolimit-6max")
    if obs.n <= lookup.game.n:
        raise NotCovered(f"no blueprint for {obs.n}-handed play here")
    return lookup, folded_out(obs, lookup.game.n)


def sample_action(probs: dict[tuple[int, int], float], u: float) -> tuple[int, int]:
    """The (kind, street total) that a uniform draw ``u`` picks from ``probs``.

    >>> mix = {(0, 0): 0.25, (4, 6): 0.75}
    >>> sample_action(mix, 0.1), sample_action(mix, 0.5), describe(mix)
    ((0, 0), (4, 6), 'fold 25%, raise 6 75%')
    """
    keys = sorted(probs)
    acc = 0.0
    for key in keys:
        acc += probs[key]
        if u < acc:
            return key
    return keys[-1]  # rounding left u above the total


def describe(probs: dict[tuple[int, int], float]) -> str:
    """The mix in words, for a decision's reason: "fold 25%, raise 6 75%"."""
    return ", ".join(
        f"{KIND_NAMES[k]}{f' {t}' if t else ''} {100 * p:.0f}%"
        for (k, t), p in sorted(probs.items())
    )
