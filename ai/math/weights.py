"""Opponent weight tables (DOMAIN.md §3): how likely each of the 1326 holdings is.

A table starts each hand from the opponent's preflop tendencies: holdings are ranked
by Income Rate (as a percentile of all 1326 combos) and weighted by a ramp around the
median hand mu with spread sigma: 1 above mu + sigma, MIN_WEIGHT below mu - sigma,
linear in between. Weights never reach 0, so a surprising holding is never ruled out.
After each observed action every weight is multiplied by the probability that the
opponent would have taken that action with that holding; postflop the holdings are
ranked by EHS' (`ai.math.postflop_rank`) instead of Income Rate.

>>> t = WeightTable.from_vpip(0.2)
>>> from ai.math.combos import combo_index
>>> t.weight(combo_index("As", "Ah")), t.weight(combo_index("7c", "2d"))
(1.0, 0.01)
"""

from __future__ import annotations

import functools

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ai.math.cardsets import CardsLike, to_indices
from ai.math.combos import COMBO_CLASS, N_COMBOS, class_combos
from ai.math.income_rate import load_income_rates
from ai.math.multiway import normalised
from ai.math.postflop_rank import postflop_strengths

MIN_WEIGHT = 0.01
FOLD, CALL, RAISE = 0, 1, 2  # index into a (fold, check/call, bet/raise) probability triple


def ramp(values: ArrayLike, mu: float, sigma: float) -> NDArray[np.float64]:
    """MIN_WEIGHT at or below mu - sigma, 1 at or above mu + sigma, linear in between.

    >>> ramp([0.1, 0.5, 0.9], mu=0.5, sigma=0.2).round(3).tolist()
    [0.01, 0.505, 1.0]
    >>> ramp([0.49, 0.5], mu=0.5, sigma=0.0).tolist()
    [0.01, 1.0]
    """
    v = np.asarray(values, dtype=np.float64)
    if sigma < 0:
        raise ValueError("sigma must be non-negative")
    if sigma == 0:
        return np.where(v >= mu, 1.0, MIN_WEIGHT)
    share = np.clip((v - (mu - sigma)) / (2 * sigma), 0.0, 1.0)
    out: NDArray[np.float64] = MIN_WEIGHT + (1.0 - MIN_WEIGHT) * share
    return out


@functools.cache
def preflop_percentiles(opponents: int = 3) -> NDArray[np.float64]:
    """Per combo: the share of all 1326 combos in classes with a lower Income Rate.

    AA is near 1, the worst class 0; "the top 20%" is `percentile >= 0.8`.
    """
    ranking = load_income_rates().ranking(opponents)
    by_class = np.zeros(len(ranking))
    seen = 0
    for cls in ranking:  # best first
        seen += len(class_combos(int(cls)))
        by_class[cls] = 1.0 - seen / N_COMBOS
    percentiles: NDArray[np.float64] = by_class[COMBO_CLASS]
    percentiles.setflags(write=False)
    return percentiles


def frequency_threshold(strengths: ArrayLike, frequency: float, weights: ArrayLike) -> float:
    """The strength above which a weighted `frequency` share of the holdings lie.

    Turns an observed action frequency (e.g. raises 30% here) into the mu of a ramp.
    """
    s = np.asarray(strengths, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    order = np.argsort(-s, kind="stable")
    cumulative = np.cumsum(w[order])
    if cumulative[-1] <= 0:
        raise ValueError("no weight to rank")
    position = int(np.searchsorted(cumulative, frequency * cumulative[-1]))
    return float(s[order[min(position, len(order) - 1)]])


class WeightTable:
    """1326 weights in [MIN_WEIGHT, 1] for one opponent's holding, re-made each hand."""

    def __init__(self, weights: ArrayLike | None = None) -> None:
        if weights is None:
            table = np.ones(N_COMBOS)
        else:
            table = np.array(weights, dtype=np.float64)
            if table.shape != (N_COMBOS,):
                raise ValueError(f"a weight table has {N_COMBOS} entries, got {table.shape}")
        self._weights = np.clip(table, MIN_WEIGHT, 1.0)

    @classmethod
    def from_mu_sigma(
        cls, mu: float, sigma: float, strengths: ArrayLike | None = None
    ) -> WeightTable:
        """Ramp over `strengths` (default: preflop IR percentiles against 3 opponents)."""
        values = preflop_percentiles() if strengths is None else strengths
        return cls(ramp(values, mu, sigma))

    @classmethod
    def from_vpip(cls, vpip: float, sigma: float = 0.0, opponents: int = 3) -> WeightTable:
        """The top `vpip` share of holdings by Income Rate (a soft edge when sigma > 0)."""
        if not 0.0 <= vpip <= 1.0:
            raise ValueError("vpip is a share in 0..1")
        return cls(ramp(preflop_percentiles(opponents), 1.0 - vpip, sigma))

    @property
    def weights(self) -> NDArray[np.float64]:
        """A read-only view of the weights (combo index order)."""
        view = self._weights.view()
        view.setflags(write=False)
        return view

    def weight(self, combo: int) -> float:
        return float(self._weights[combo])

    def copy(self) -> WeightTable:
        return WeightTable(self._weights)

    def reweight(self, likelihood: ArrayLike) -> None:
        """Multiply by P(observed action | holding); the floor keeps every holding possible."""
        p = np.asarray(likelihood, dtype=np.float64)
        if p.shape != (N_COMBOS,) or (p < 0).any() or (p > 1).any():
            raise ValueError(f"need {N_COMBOS} probabilities in 0..1")
        self._weights = np.maximum(self._weights * p, MIN_WEIGHT)

    def observe_action(self, action: int, triples: ArrayLike) -> None:
        """Re-weight after an action (FOLD, CALL, RAISE) given each holding's predicted
        (fold, call, raise) probability triple, an array of shape (1326, 3)."""
        t = np.asarray(triples, dtype=np.float64)
        if t.shape != (N_COMBOS, 3) or action not in (FOLD, CALL, RAISE):
            raise ValueError("need a (1326, 3) triple array and an action 0, 1 or 2")
        self.reweight(t[:, action])

    def observe_by_strength(self, strengths: ArrayLike, mu: float, sigma: float) -> None:
        """Re-weight by a ramp over a strength ranking: an action taken with hands above mu."""
        self.reweight(ramp(strengths, mu, sigma))

    def observe_postflop(
        self, board: CardsLike, frequency: float, sigma: float, dead: CardsLike = ()
    ) -> None:
        """Re-weight after a postflop bet/raise seen with `frequency`: rank the holdings by
        EHS' and keep (softly, width sigma) the strongest `frequency` share of the table."""
        strengths = postflop_strengths(board, dead)
        known = np.concatenate([to_indices(board), to_indices(dead)])
        mu = frequency_threshold(strengths, frequency, self.normalised(known))
        self.observe_by_strength(strengths, mu, sigma)

    def normalised(self, dead: CardsLike = ()) -> NDArray[np.float64]:
        """Weights of the holdings that avoid the dead cards, summing to 1."""
        return normalised(self._weights, dead)
