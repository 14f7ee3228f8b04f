"""The shipped blueprint: a compact artefact and the lookup a bot or a search calls.

Artefact (`.npz`, written by `ai.policy.training`):
- `metadata`: JSON: `format` (ARTEFACT_FORMAT), `version` (game, UTC time of the export,
  a hash of the strategy: like the opponent models' versions), the game, the abstraction
  and its bucket counts, iterations, seed, and the training figures.
- `strategy`: uint8, the average strategy per (betting node, bucket, action), each
  information set's entries scaled to sum to 255 (all zero: never visited in training).
- `cuts`: float32, the HS quantiles cutting the postflop buckets.

`Blueprint.action_probabilities(obs)` maps an Observation of a heads-up Limit hand to its
abstract information set: the betting node reached by the hand's actions (player index =
tree player: 0 the big blind, 1 the button) and the bucket of the cards. Off the tree
(a table whose raise cap is not four bets, a short stack's all-in) it takes the first
node of the same street, actor, bets so far and call-or-not, checking and calling
through the earlier streets; an information set training never reached borrows the
nearest visited bucket of the same node; none: check or call. Tables it does not cover
(No-Limit, more than two players) raise `NotCovered`.
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ai.game.observation import Observation
from ai.policy.limit.game import CALL, DECISION, FOLD, HOLDEM_HU, RAISE, BettingTree, build_tree
from ai.policy.limit.holdem import HoldemAbstraction
from ai.policy.limit.mccfr import Layout, layout
from ai.policy.tree import FloatArray
from ai.sim.rules import BET, CHECK
from ai.sim.rules import CALL as SIM_CALL
from ai.sim.rules import FOLD as SIM_FOLD

ARTEFACT_FORMAT = 1
DEFAULT_ARTEFACT = "blueprint-limit-hu.npz"  # under ai/data
GAMES = {HOLDEM_HU.name: HOLDEM_HU}


class NotCovered(ValueError):
    """The blueprint has no strategy for this kind of table (yet)."""


def quantise(lay: Layout, strategy: FloatArray) -> NDArray[np.uint8]:
    """Per information set, probabilities as uint8 summing to 255 (largest remainders);
    sets with no accumulated weight (`strategy` NaN there) stay all zero."""
    out = np.zeros(lay.size, dtype=np.uint8)
    for node in np.flatnonzero(lay.base >= 0):
        o, k = int(lay.base[node]), int(lay.n_actions[node])
        n = lay.buckets[int(lay.round[node])] * k
        rows = strategy[o : o + n].reshape(-1, k)
        seen = np.asarray(np.isfinite(rows).all(axis=1))
        scaled = np.where(seen.reshape(-1, 1), np.nan_to_num(rows) * 255.0, 0.0)
        q = np.floor(scaled).astype(np.int64)
        short = np.where(seen, 255 - q.sum(axis=1), 0)
        order = np.argsort(-(scaled - q), axis=1, kind="stable")
        for j in range(k):  # give the missing units to the largest remainders
            rows_short = np.flatnonzero(short > j)
            q[rows_short, order[rows_short, j]] += 1
        out[o : o + n] = q.ravel().astype(np.uint8)
    return out


def write_artefact(
    path: Path,
    tree: BettingTree,
    lay: Layout,
    abstraction: HoldemAbstraction,
    average: FloatArray,
    extra: dict[str, Any],
) -> dict[str, Any]:
    sums = np.zeros_like(average)
    for node in np.flatnonzero(lay.base >= 0):
        o, k = int(lay.base[node]), int(lay.n_actions[node])
        n = lay.buckets[int(lay.round[node])] * k
        rows = average[o : o + n].reshape(-1, k)
        total = rows.sum(axis=1, keepdims=True)
        sums[o : o + n] = np.where(total > 0, rows / np.where(total > 0, total, 1), np.nan).ravel()
    strategy = quantise(lay, sums)
    digest = hashlib.sha256(strategy.tobytes()).hexdigest()[:8]
    metadata = {
        "format": ARTEFACT_FORMAT,
        "version": f"{tree.game.name}-{datetime.now(UTC):%Y%m%dT%H%M%S}-{digest}",
        "game": tree.game.name,
        **abstraction.metadata(),
        "buckets": list(lay.buckets),
        **extra,
    }
    np.savez_compressed(
        path,
        metadata=np.array(json.dumps(metadata)),
        strategy=strategy,
        cuts=abstraction.cuts.astype(np.float32),
    )
    return metadata


@dataclass(frozen=True)
class Located:
    node: int
    bucket: int
    exact: bool  # False: the node or the bucket is a fallback's


class Blueprint:
    """The average strategy of a trained artefact, looked up per decision."""

    def __init__(self, path: Path) -> None:
        with np.load(path) as data:
            self.metadata: dict[str, Any] = json.loads(str(data["metadata"]))
            if self.metadata.get("format") != ARTEFACT_FORMAT:
                raise ValueError(f"{path}: artefact format {self.metadata.get('format')}")
            strategy = data["strategy"].astype(np.float64)
            cuts = data["cuts"].astype(np.float64)
        game = GAMES[self.metadata["game"]]
        hs = tuple(int(b) for b in self.metadata["hs_buckets"])
        self.abstraction = HoldemAbstraction((hs[0], hs[1], hs[2]), cuts=cuts)
        self.tree = build_tree(game)
        self.lay = layout(self.tree, self.abstraction.buckets)
        if strategy.shape != (self.lay.size,):
            raise ValueError(f"{path}: {strategy.shape[0]} entries, the layout has {self.lay.size}")
        self.strategy = strategy / 255.0
        self.version = str(self.metadata["version"])
        self._signatures = self._node_signatures()
        self._tables: dict[int, FloatArray] = {}

    # --- the abstract game ---------------------------------------------------------------

    def probabilities_at(self, node: int, bucket: int) -> tuple[FloatArray, bool]:
        """The strategy over the node's legal tree actions; False when borrowed."""
        k = int(self.lay.n_actions[node])
        o = int(self.lay.base[node])
        n_buckets = self.lay.buckets[int(self.tree.round[node])]
        for step in range(n_buckets):
            for b in (bucket - step, bucket + step):
                if 0 <= b < n_buckets:
                    row = self.strategy[o + b * k : o + (b + 1) * k]
                    if row.sum() > 0:
                        return row / row.sum(), step == 0
        passive = np.zeros(k)
        passive[list(self.tree.legal(node)).index(CALL)] = 1.0
        return passive, False

    def _node_signatures(self) -> dict[tuple[int, int, int, bool], int]:
        """(round, actor, bets this round, facing a bet) -> the first such node."""
        first: dict[tuple[int, int, int, bool], int] = {}
        t = self.tree
        for node in np.flatnonzero(t.kind == DECISION):
            h = t.history[int(node)].split("/")[-1]
            bets = h.count("r") + (1 if t.round[node] == 0 else 0)
            facing = t.child[node, FOLD] >= 0
            first.setdefault((int(t.round[node]), int(t.player[node]), bets, facing), int(node))
        return first

    def locate(self, obs: Observation) -> Located:
        node, exact = self.node_of(obs)
        return Located(node, self.abstraction.bucket(obs.hole, obs.board), exact)

    def node_of(self, obs: Observation) -> tuple[int, bool]:
        """The betting node of the decision at `obs` (cards aside); False: a fallback's."""
        if not obs.limit or obs.n != 2:
            raise NotCovered("the blueprint covers heads-up Limit only")
        t = self.tree
        node, exact = 0, True
        for record in obs.history:
            action = RAISE if record.kind >= BET else (FOLD if record.kind == SIM_FOLD else CALL)
            if (
                t.kind[node] != DECISION
                or t.player[node] != record.player
                or t.round[node] != record.street
                or t.child[node, action] < 0
            ):
                exact = False
                break
            node = int(t.child[node, action])
        if not exact or t.kind[node] != DECISION or t.round[node] != obs.street:
            exact = False
            facing = obs.legal.call_amount > 0
            cap = 4
            bets = min(obs.raises_this_street(), cap)
            key = (obs.street, obs.index, bets, facing)
            found = self._signatures.get(key)
            while found is None and bets > 0:
                bets -= 1  # e.g. a cap above four: treat as the capped node
                found = self._signatures.get((obs.street, obs.index, bets, facing))
            if found is None:
                raise NotCovered(f"no betting node like {key}")
            node = found
        return node, exact

    def table_at(self, node: int) -> FloatArray:
        """(buckets, 3): the (fold, call, raise) probabilities of every bucket at `node`,
        the unvisited ones borrowed as `probabilities_at` borrows them (cached)."""
        table = self._tables.get(node)
        if table is None:
            n_buckets = self.lay.buckets[int(self.tree.round[node])]
            table = np.zeros((n_buckets, 3))
            legal = list(self.tree.legal(node))
            for b in range(n_buckets):
                probs, _ = self.probabilities_at(node, b)
                table[b, legal] = probs
            self._tables[node] = table
        return table

    def action_probabilities(self, obs: Observation) -> dict[int, float]:
        """Probability per legal action kind of ai.sim.rules (FOLD..RAISE) at this decision."""
        at = self.locate(obs)
        probs, _ = self.probabilities_at(at.node, at.bucket)
        legal = obs.legal
        out: dict[int, float] = {}
        passive = CHECK if legal.can_check else SIM_CALL
        for action, p in zip(self.tree.legal(at.node), probs, strict=True):
            if action == RAISE and legal.raise_kind is not None:
                kind = legal.raise_kind
            elif action == FOLD and legal.can_fold:
                kind = SIM_FOLD
            else:
                kind = passive  # a fold when checking is free, a raise past the cap
            out[kind] = out.get(kind, 0.0) + float(p)
        return out


@functools.cache
def default_blueprint() -> Blueprint:
    """The artefact shipped under ai/data (loaded once per process)."""
    with resources.as_file(resources.files("ai.data") / DEFAULT_ARTEFACT) as path:
        return Blueprint(path)
