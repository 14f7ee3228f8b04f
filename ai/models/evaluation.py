"""Cross-validated evaluation of the opponent model against its baselines.

Folds are by hand (a hand's decisions stay together). For each fold the
network is trained on the other folds and predicts the held-out decisions;
the baselines predict the same decisions:
- majority: the most frequent action of the training folds, always;
- frequency: Poki's 36-context table, per player (street x bets to call x
  action, counted on the training folds, Laplace-smoothed, the population's
  table for a player it has not seen);
- bots: the model the bots used before this one, each player's prior-smoothed
  frequencies from the hands before the decision (the features' last columns).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from ai.models.dataset import Dataset
from ai.models.features import FEATURES, NO_FOLD_COLUMN, RAISE_COLUMN
from ai.models.inference import NumpyNet
from ai.models.metrics import Score, score
from ai.models.training import DEFAULT_CONFIG, TrainConfig, train

F64 = npt.NDArray[np.float64]
_COST = (
    FEATURES.index("cost_none"),
    FEATURES.index("cost_one_bet"),
    FEATURES.index("cost_two_bets"),
)
_FREQ = slice(FEATURES.index("stat_fold_here"), FEATURES.index("stat_raise_here") + 1)
BASELINES = ("majority", "frequency", "bots")


@dataclass
class CrossValidation:
    folds: int
    probs: F64  # out-of-fold predictions of the network, per example
    baselines: dict[str, F64]  # out-of-fold predictions of each baseline
    data: Dataset
    per_fold: list[Score] = field(default_factory=list)

    def overall(self) -> Score:
        return score(self.probs, self.data.action)

    def baseline(self, name: str) -> Score:
        return score(self.baselines[name], self.data.action)

    def by(self, keys: npt.NDArray[np.str_]) -> dict[str, dict[str, Score]]:
        """Scores of the model and every baseline per key (street name, player type, ...)."""
        out: dict[str, dict[str, Score]] = {}
        for key in sorted(set(keys.tolist())):
            mask = keys == key
            actions = self.data.action[mask]
            row = {"model": score(self.probs[mask], actions)}
            for name, probs in self.baselines.items():
                row[name] = score(probs[mask], actions)
            out[key] = row
        return out


def legal_mask(data: Dataset) -> F64:
    """1 where an action was legal: no fold when checking was free, no raise when capped."""
    mask = np.ones((len(data), 3))
    mask[:, 0] = 1.0 - data.x[:, NO_FOLD_COLUMN]
    mask[:, 2] = data.x[:, RAISE_COLUMN]
    return mask


def costs(data: Dataset) -> npt.NDArray[np.int64]:
    out: npt.NDArray[np.int64] = np.argmax(data.x[:, list(_COST)], axis=1).astype(np.int64)
    return out


def context_table(data: Dataset, rows: npt.NDArray[np.int64]) -> tuple[F64, F64]:
    """(per player, population) action counts + 1 by street x cost, from `rows`."""
    players = len(data.players)
    per_player = np.ones((players, 4, 3, 3))
    cost = costs(data)
    np.add.at(per_player, (data.player[rows], data.street[rows], cost[rows], data.action[rows]), 1)
    population = per_player.sum(axis=0) - (players - 1)
    return per_player, population


def frequency_predict(
    data: Dataset, fit: npt.NDArray[np.int64], test: npt.NDArray[np.int64]
) -> F64:
    per_player, population = context_table(data, fit)
    seen = np.zeros(len(data.players), dtype=bool)
    seen[np.unique(data.player[fit])] = True
    cost = costs(data)
    table = np.where(
        seen[data.player[test], None],
        per_player[data.player[test], data.street[test], cost[test]],
        population[data.street[test], cost[test]],
    )
    out: F64 = table / table.sum(axis=1, keepdims=True)
    return out


def cross_validate(
    data: Dataset,
    folds: int = 5,
    config: TrainConfig = DEFAULT_CONFIG,
    progress: Callable[[int, int], None] | None = None,
) -> CrossValidation:
    hands = np.unique(data.hand)
    rng = np.random.default_rng(config.seed)
    fold_of_hand = rng.permutation(len(hands)) % folds
    fold = fold_of_hand[np.searchsorted(hands, data.hand)]
    n = len(data)
    probs = np.zeros((n, 3))
    baselines = {name: np.zeros((n, 3)) for name in BASELINES}
    bots = data.x[:, _FREQ].astype(np.float64)
    baselines["bots"] = bots / bots.sum(axis=1, keepdims=True)
    result = CrossValidation(folds, probs, baselines, data)
    legal = legal_mask(data)
    for k in range(folds):
        test = np.flatnonzero(fold == k)
        fit = np.flatnonzero(fold != k)
        weights = train(data.take(fit), config)
        probs[test] = NumpyNet(weights).actions(data.x[test])
        majority = np.bincount(data.action[fit], minlength=3).argmax()
        constant = np.full(3, 0.01)
        constant[majority] = 0.98
        baselines["majority"][test] = constant
        baselines["frequency"][test] = frequency_predict(data, fit, test)
        for name in ("majority", "frequency"):
            masked = baselines[name][test] * legal[test]
            baselines[name][test] = masked / masked.sum(axis=1, keepdims=True)
        result.per_fold.append(score(probs[test], data.action[test]))
        if progress is not None:
            progress(k + 1, folds)
    return result
