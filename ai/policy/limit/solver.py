"""The training loop around the MCCFR kernel: batches of deals, discounting, checkpoints.

Everything is a function of the seed and the iteration count: the deal and action
samplers are xorshift states kept in the checkpoint, and batches have a fixed size, so a
run resumed from a checkpoint continues exactly as the uninterrupted run would have.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ai.math.fastrng import seed_state
from ai.policy.limit.abstraction import CardAbstraction
from ai.policy.limit.game import BettingTree, LimitGame, build_tree
from ai.policy.limit.mccfr import Layout, layout, normalised, run_deals
from ai.policy.tree import FloatArray

CHECKPOINT_FORMAT = 1


@dataclass
class MCCFR:
    game: LimitGame
    abstraction: CardAbstraction
    seed: int = 0
    batch: int = 1000  # deals per kernel call; part of the result (discounting steps)
    # Linear-CFR discount after each of the first `discount_batches` batches.
    discount_batches: int = 0
    iterations: int = 0
    # A best response: this player (0/1) plays `fixed` and learns nothing; -1: self-play.
    frozen: int = -1
    fixed: FloatArray = field(default_factory=lambda: np.zeros(1))
    tree: BettingTree = field(init=False)
    lay: Layout = field(init=False)
    regret: FloatArray = field(init=False)
    average: FloatArray = field(init=False)
    deal_rng: NDArray[np.int64] = field(init=False)
    action_rng: NDArray[np.int64] = field(init=False)

    def __post_init__(self) -> None:
        self.tree = build_tree(self.game)
        self.lay = layout(self.tree, self.abstraction.buckets)
        self.regret = np.zeros(self.lay.size)
        self.average = np.zeros(self.lay.size)
        self.deal_rng = np.array([seed_state(2 * self.seed + 1)], dtype=np.int64)
        self.action_rng = np.array([seed_state(2 * self.seed + 2)], dtype=np.int64)

    def run(self, iterations: int) -> float:
        """Continue by whole batches up to `iterations` more; player 0's sampled mean value."""
        if iterations % self.batch:
            raise ValueError(f"iterations must be a multiple of the batch ({self.batch})")
        t = self.tree
        total = 0.0
        for _ in range(iterations // self.batch):
            buckets, results = self.abstraction.sample(self.batch, self.deal_rng)
            total += run_deals(
                buckets, results, t.kind, t.player, t.round, t.child, t.put,
                self.lay.base, self.lay.n_actions, self.regret, self.average, self.action_rng,
                self.fixed, self.frozen,
            )  # fmt: skip
            self.iterations += self.batch
            done = self.iterations // self.batch
            if done <= self.discount_batches:
                factor = done / (done + 1.0)
                self.regret *= factor
                self.average *= factor
        return total / max(iterations // self.batch, 1)

    def average_strategy(self) -> FloatArray:
        return normalised(self.lay, self.average)

    def current_strategy(self) -> FloatArray:
        return normalised(self.lay, np.maximum(self.regret, 0.0))

    def mean_positive_regret(self) -> float:
        """Average over visited information sets of max_a R+(I, a) / T: the convergence
        figure (with perfect recall, summed it bounds the exploitability)."""
        if not self.iterations:
            return float("inf")
        best = np.zeros(0)
        parts = []
        for node in np.flatnonzero(self.lay.base >= 0):
            o, k = int(self.lay.base[node]), int(self.lay.n_actions[node])
            n = self.lay.buckets[int(self.lay.round[node])] * k
            rows = self.regret[o : o + n].reshape(-1, k)
            seen = np.abs(rows).sum(axis=1) > 0
            parts.append(np.maximum(rows[seen], 0.0).max(axis=1))
        best = np.concatenate(parts) if parts else best
        return float(best.mean() / self.iterations) if best.size else 0.0

    # --- checkpoints -----------------------------------------------------------------

    def settings(self) -> dict[str, object]:
        return {
            "format": CHECKPOINT_FORMAT,
            "game": self.game.name,
            "abstraction": self.abstraction.metadata(),
            "seed": self.seed,
            "batch": self.batch,
            "discount_batches": self.discount_batches,
        }

    def save(self, path: Path) -> None:
        tmp = path.with_name(path.name + ".tmp.npz")
        np.savez_compressed(
            tmp,
            settings=np.array(json.dumps(self.settings())),
            iterations=np.array(self.iterations),
            regret=self.regret,
            average=self.average,
            deal_rng=self.deal_rng,
            action_rng=self.action_rng,
        )
        tmp.replace(path)  # atomic: a checkpoint is whole or the previous one

    def load(self, path: Path) -> None:
        with np.load(path) as data:
            saved = json.loads(str(data["settings"]))
            if saved != self.settings():
                raise ValueError(f"{path} was trained with other settings: {saved}")
            self.iterations = int(data["iterations"])
            self.regret = data["regret"].astype(np.float64)
            self.average = data["average"].astype(np.float64)
            self.deal_rng = data["deal_rng"].astype(np.int64)
            self.action_rng = data["action_rng"].astype(np.int64)
