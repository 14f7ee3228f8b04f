"""Weight tables from the opponent model (DOMAIN.md §3): each opponent's range through a hand.

Every opponent starts a hand with all 1326 holdings at weight 1. After each of
their actions, the model's public prediction for that spot (fold f, call c,
raise r) is turned into a probability per holding by its strength: the
strongest r share of holdings bets or raises and the next c share calls, each
edge a linear ramp of width 2 * SIGMA (the mu-sigma weighting). Weights are
multiplied by the probability of the action taken and never fall below
MIN_WEIGHT**2 (nothing is ever ruled out).
Strength is the Income Rate percentile preflop and the rank on the board after.
"""

from __future__ import annotations

from collections.abc import Hashable

import numpy as np

from ai.bots.observation import ActionRecord, Observation
from ai.bots.observe import observe, step_and_record
from ai.math.combos import N_COMBOS, class_of_pair
from ai.math.preflop_rank import income_rate_percentile
from ai.math.range_strength import COMBO_FIRST, COMBO_SECOND, FloatArray, percentiles
from ai.models.model import OpponentModel
from ai.sim.rules import BET, FOLD, PREFLOP
from ai.sim.state import SimState

MIN_WEIGHT = 0.01
SIGMA = 0.12


def holding_strengths(board: tuple[int, ...], opponents: int) -> FloatArray:
    """Strength 0..1 per holding: preflop the Income Rate percentile, later the board rank."""
    if not board:
        classes = class_of_pair()[COMBO_FIRST, COMBO_SECOND]
        strength: FloatArray = income_rate_percentile(max(opponents, 1))[classes]
        return strength
    return percentiles(board)


def ramp(strength: FloatArray, mu: float, sigma: float) -> FloatArray:
    """0 below mu - sigma, 1 above mu + sigma, linear in between."""
    out: FloatArray = np.clip((strength - (mu - sigma)) / (2 * sigma), 0.0, 1.0)
    return out


def holding_triples(
    shares: tuple[float, float, float], strength: FloatArray, can_fold: bool = True
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """P(fold), P(check/call), P(bet/raise) per holding for a spot where the model predicts
    `shares`: the top `raise` share of all holdings by strength bets or raises, the next
    `call` share continues (mu-sigma ramps, DOMAIN.md §3). A ramp is never wider than the
    share on either side of its edge, so a player who always calls or always raises is
    predicted to, with every holding."""
    _, call, raise_ = shares
    p_raise = _edge(strength, raise_)
    if can_fold:
        p_continue = np.maximum(_edge(strength, raise_ + call), p_raise)
    else:
        p_continue = np.ones_like(strength)
    return 1.0 - p_continue, p_continue - p_raise, p_raise


def _edge(strength: FloatArray, share: float) -> FloatArray:
    """1 for the strongest `share` of holdings, 0 below, a ramp of width 2 * sigma between."""
    share = min(max(share, 0.0), 1.0)
    sigma = min(SIGMA, share, 1.0 - share)
    mu = 1.0 - share
    if sigma <= 0:
        out: FloatArray = (
            (strength >= mu).astype(np.float64) if share < 1 else np.ones_like(strength)
        )
        return out if share > 0 else np.zeros_like(strength)
    return ramp(strength, mu, sigma)


class RangeTracker:
    """Every player's weight table through one hand, updated as actions are seen.

    The past decisions are replayed on a copy of the hand's start so that the model
    is asked about each action in the exact spot it was taken.
    """

    def __init__(self) -> None:
        self.hand_key: Hashable = None
        self.weights: dict[int, FloatArray] = {}
        self.seen = 0
        self._replay: SimState | None = None
        self._history: list[ActionRecord] = []

    def reset(self, obs: Observation) -> None:
        self.hand_key = obs.hand_key
        self.weights = {i: np.ones(N_COMBOS) for i in range(obs.n)}
        self.seen = 0
        self._history = []
        sim = obs.sim
        self._replay = (
            None
            if sim is None
            else SimState(sim.rules, sim.seats, sim.start, sim.holes, sim.runout)
        )

    def update(self, obs: Observation, model: OpponentModel) -> None:
        """Re-weight for the actions of `obs.history` not seen yet (resets on a new hand)."""
        if self.hand_key != obs.hand_key or self.seen > len(obs.history) or not self.weights:
            self.reset(obs)
        replay = self._replay
        for record in obs.history[self.seen :]:
            if replay is None or replay.over:
                break
            weights = self.weights.get(record.player)
            if weights is not None and record.kind != FOLD and record.player != obs.index:
                spot = observe(replay, self._history, obs.hand_key, obs.players)
                shares = model.predict(spot).actions
                board = replay.runout[: replay.board_len] if record.street != PREFLOP else ()
                strength = holding_strengths(board, spot.n_in_hand - 1)
                _, p_call, p_raise = holding_triples(
                    (float(shares[0]), float(shares[1]), float(shares[2])),
                    strength,
                    spot.legal.can_fold,
                )
                likelihood = p_raise if record.kind >= BET else p_call
                weights *= np.maximum(likelihood, MIN_WEIGHT)
                peak = weights.max()
                if peak > 0:
                    weights /= peak  # keep the best holding at 1 so the floor stays meaningful
                np.maximum(weights, MIN_WEIGHT * MIN_WEIGHT, out=weights)
            step_and_record(replay, record.kind, record.to, self._history)
        self.seen = len(obs.history)

    def range_of(self, index: int, dead: tuple[int, ...]) -> FloatArray:
        """A copy of `index`'s weights with holdings using `dead` cards removed."""
        weights = self.weights[index].copy()
        if dead:
            dead_cards = np.zeros(52, dtype=np.bool_)
            dead_cards[list(dead)] = True
            weights[dead_cards[COMBO_FIRST] | dead_cards[COMBO_SECOND]] = 0.0
        return weights

    def width(self, index: int) -> float:
        """The share of all holdings the range still holds (weight-averaged)."""
        weights = self.weights.get(index)
        return float(weights.mean()) if weights is not None else 1.0

    def grid(self, index: int, dead: tuple[int, ...]) -> list[list[float]]:
        """The range as a 13x13 grid (row/column rank A..2; suited above the diagonal,
        offsuit below, pairs on it): each cell the average weight of its holdings, 0..1."""
        weights = self.range_of(index, dead)
        total = np.zeros((13, 13))
        count = np.zeros((13, 13))
        r1 = 12 - (COMBO_FIRST >> 2)
        r2 = 12 - (COMBO_SECOND >> 2)
        suited = (COMBO_FIRST & 3) == (COMBO_SECOND & 3)
        high = np.minimum(r1, r2)
        low = np.maximum(r1, r2)
        row = np.where(suited, high, low)
        col = np.where(suited, low, high)
        alive = weights > 0
        np.add.at(total, (row[alive], col[alive]), weights[alive])
        np.add.at(count, (row[alive], col[alive]), 1)
        cells = np.divide(total, count, out=np.zeros((13, 13)), where=count > 0)
        return [[round(float(v), 3) for v in r] for r in cells]
