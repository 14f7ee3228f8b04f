"""The n-player training loop: batches of deals, Linear-CFR discounting, checkpoints.

As `ai.policy.limit.solver`: everything is a function of the seed and the iteration
count (xorshift samplers in the checkpoint, fixed batches), so a resumed run continues
exactly as the uninterrupted one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from ai.math.fastrng import seed_state
from ai.policy.nway.mccfr import Layout, layout, normalised, run_deals
from ai.policy.nway.tree import NWayTree
from ai.policy.tree import FloatArray, IntArray

CHECKPOINT_FORMAT = 1


class Cards(Protocol):
    name: str
    buckets: tuple[int, ...]

    def sample(self, count: int, rng: NDArray[np.int64]) -> tuple[IntArray, IntArray]: ...

    def metadata(self) -> dict[str, object]: ...


@dataclass
class NWayMCCFR:
    tree: NWayTree
    cards: Cards
    seed: int = 0
    batch: int = 1000
    discount_batches: int = 0
    iterations: int = 0
    lay: Layout = field(init=False)
    regret: FloatArray = field(init=False)
    average: FloatArray = field(init=False)
    deal_rng: NDArray[np.int64] = field(init=False)
    action_rng: NDArray[np.int64] = field(init=False)

    def __post_init__(self) -> None:
        self.lay = layout(self.tree, self.cards.buckets)
        self.regret = np.zeros(self.lay.size)
        self.average = np.zeros(self.lay.size)
        self.deal_rng = np.array([seed_state(2 * self.seed + 1)], dtype=np.int64)
        self.action_rng = np.array([seed_state(2 * self.seed + 2)], dtype=np.int64)

    @property
    def players(self) -> int:
        return int(self.tree.put.shape[1])

    def run(self, iterations: int) -> FloatArray:
        """Whole batches up to `iterations` more; each player's mean sampled value."""
        if iterations % self.batch:
            raise ValueError(f"iterations must be a multiple of the batch ({self.batch})")
        t = self.tree
        total = np.zeros(self.players)
        values = np.zeros(self.players)
        for _ in range(iterations // self.batch):
            buckets, ranks = self.cards.sample(self.batch, self.deal_rng)
            run_deals(
                buckets, ranks, t.kind, t.player, t.round, t.n_actions, t.child, t.put,
                t.alive, self.lay.base, self.regret, self.average, self.action_rng, values,
            )  # fmt: skip
            total += values
            self.iterations += self.batch
            done = self.iterations // self.batch
            if done <= self.discount_batches:
                factor = done / (done + 1.0)
                self.regret *= factor
                self.average *= factor
        out: FloatArray = total / max(iterations // self.batch, 1)
        return out

    def average_strategy(self) -> FloatArray:
        return normalised(self.tree, self.lay, self.average)

    def mean_positive_regret(self) -> float:
        """Mean over visited information sets of max_a R+(I, a) / T."""
        if not self.iterations:
            return float("inf")
        parts = []
        for node in np.flatnonzero(self.lay.base >= 0):
            o, k = int(self.lay.base[node]), int(self.tree.n_actions[node])
            n = self.lay.buckets[int(self.tree.round[node])] * k
            rows = self.regret[o : o + n].reshape(-1, k)
            seen = np.abs(rows).sum(axis=1) > 0
            parts.append(np.maximum(rows[seen], 0.0).max(axis=1))
        best = np.concatenate(parts) if parts else np.zeros(0)
        return float(best.mean() / self.iterations) if best.size else 0.0

    def settings(self) -> dict[str, object]:
        return {
            "format": CHECKPOINT_FORMAT,
            "game": self.tree.game.name,
            "cards": self.cards.metadata(),
            "seed": self.seed,
            "batch": self.batch,
            "discount_batches": self.discount_batches,
            "size": self.lay.size,
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
        tmp.replace(path)

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
