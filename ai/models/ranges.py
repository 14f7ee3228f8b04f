"""Weight tables from the opponent model (DOMAIN.md §3): each opponent's range through a hand.

Every opponent starts a hand with all 1326 holdings at weight 1. After each of
their actions, the model's public prediction for that spot (fold f, call c,
raise r) is turned into a probability per holding by its strength: the
strongest r share of holdings bets or raises and the next c share calls, each
edge a linear ramp of width 2 * SIGMA (the mu-sigma weighting). Weights are
multiplied by the probability of the action taken and never fall below
MIN_WEIGHT**2 (nothing is ever ruled out).
Strength is the Income Rate percentile preflop and the rank on the board after;
a tracker with `potential` ranks a flop or turn holding by its river rank averaged
over the runouts instead (`river_ranks`; the average is about its equity against a
random holding), so a draw that bets is read the way players who count equity bet it.

In No-Limit a tracker with `size_trust` > 0 also reads the size of a bet: within
the raising holdings, bigger sizes are taken to come from stronger ones (the
player's size shares cut them into slices, the largest at the top: the model's
shares corrected by the sizes the tracker has seen, `ai.models.sizes`), mixed
with a size-blind reading in proportion 1 - size_trust.

A tracker with `holding_reading` reads an action per holding by the hook's probabilities
(heads-up Limit: the blueprint's own strategy for each holding's card bucket at the node
reached, moved towards the model's reading by the evidence: `MctsBot._holding_reading`),
not by strength thresholds on flat shares.

A tracker with `own_play` reads an action by the model's shares moved towards the
actor's own frequencies in that context (street, cost, players in the hand) as far as
they were seen (`ai.models.stats.with_own_play`), as the search's tables do: a player
seen betting 79% of its heads-up flops with nothing to call says little by betting one.
It does so for actions taken with at most `own_play_in_hand` players in the hand, from
the model's statistics or from `own_stats` (the search bot's: the decisions each player
made while we were in the hand).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable

import numpy as np

from ai.game.observation import ActionRecord, Observation
from ai.game.observe import observe, step_and_record
from ai.math.combos import N_COMBOS, class_of_pair
from ai.math.preflop_rank import income_rate_percentile
from ai.math.range_strength import (
    COMBO_FIRST,
    COMBO_SECOND,
    FloatArray,
    percentiles,
    river_ranks,
)
from ai.models.features import size_bucket
from ai.models.model import OpponentModel
from ai.models.sizes import SizeBook
from ai.models.stats import PlayerStats, cost_bucket, crowd_of, with_own_play
from ai.sim.rules import BET, FOLD, PREFLOP
from ai.sim.state import SimState

MIN_WEIGHT = 0.01
SIGMA = 0.12
# A third of a flop's runouts: every holding within 0.02 of all of them (rms 0.002 on
# three flops), in a third of the time.
RUNOUT_STRIDE = 3
# Width of the edges between bet sizes, as a share of the raising holdings.
SIZE_RAMP = 0.1
# A bet of more than this many pots after calling is read by its size with
# `overbet_sizes`: the size buckets' edge between a pot and two pots
# (`ai.models.features.size_bucket`); a preflop open to 3.25 blinds (1.1 pots) is not.
OVERBET_POTS = 1.4


def holding_strengths(
    board: tuple[int, ...], opponents: int, potential: bool = False
) -> FloatArray:
    """Strength 0..1 per holding: preflop the Income Rate percentile, later the board rank
    (with `potential`, ranked by the river rank averaged over the runouts)."""
    if not board:
        classes = class_of_pair()[COMBO_FIRST, COMBO_SECOND]
        strength: FloatArray = income_rate_percentile(max(opponents, 1))[classes]
        return strength
    return river_ranks(board, RUNOUT_STRIDE) if potential else percentiles(board)


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


def size_given_raise(
    p_raise: FloatArray,
    sizes: FloatArray,
    bucket: int,
    trust: float,
    strength: FloatArray,
    or_bigger: bool = False,
) -> FloatArray:
    """P(a bet or raise is of size `bucket` | it is made, holding) per holding: the
    bucket's share whatever the holding (size-blind), mixed by `trust` with the ordinal
    reading: the raising holdings (`p_raise`), ranked by strength, are cut into the
    model's size shares with the biggest size at the top (edges SIZE_RAMP wide).

    >>> s = np.linspace(0.0, 1.0, 11)
    >>> raising = (s >= 0.55).astype(float)  # the top 5 of 11 raise
    >>> sizes = np.array([0.0, 0.6, 0.0, 0.0, 0.0, 0.4])
    >>> size_given_raise(raising, sizes, 5, 1.0, s)[6:].round(2).tolist()  # all-in: the top 2
    [0.0, 0.0, 0.0, 1.0, 1.0]
    >>> size_given_raise(raising, sizes, 1, 1.0, s)[6:].round(2).tolist()  # half pot: 3 below
    [1.0, 1.0, 1.0, 0.0, 0.0]
    >>> size_given_raise(raising, sizes, 1, 0.5, s)[6:].round(2).tolist()
    [0.8, 0.8, 0.8, 0.3, 0.3]

    `or_bigger`: the slice of this size and every bigger one (the top is not cut off):
    an overbet comes from holdings at least as strong as its slice's.

    >>> size_given_raise(raising, sizes, 1, 1.0, s, or_bigger=True)[6:].round(2).tolist()
    [1.0, 1.0, 1.0, 1.0, 1.0]
    """
    share = float(sizes[bucket])
    total = float(p_raise.sum())
    if trust <= 0 or total <= 0:
        return np.full_like(strength, share)
    # u: the share of the raising mass stronger than the holding (ties count half).
    values, group = np.unique(strength, return_inverse=True)
    mass = np.bincount(group, weights=p_raise, minlength=len(values))
    stronger = np.cumsum(mass[::-1])[::-1] - mass
    u = (stronger + mass / 2)[group] / total
    bigger = float(sizes[bucket + 1 :].sum())  # the share of raises bigger than this one
    window = _below(u, bigger + share) - (0.0 if or_bigger else _below(u, bigger))
    out: FloatArray = (1.0 - trust) * share + trust * window
    return out


def is_overbet(spot: Observation, to: int) -> bool:
    """Whether a No-Limit bet or raise to street total `to` at `spot` puts in more than
    OVERBET_POTS pots after calling (a size of the two-pot or all-in bucket, not an
    all-in for less).

    >>> from ai.sim.state import SimState
    >>> from ai.game.observe import observe
    >>> from holdem.config import TableConfig, Variant
    >>> cfg = TableConfig(variant=Variant.NO_LIMIT, seats=2, small_blind=1, big_blind=2)
    >>> obs = observe(SimState.new_hand(cfg, {1: 200, 2: 200}, button=1, seed=1), [])
    >>> is_overbet(obs, 7), is_overbet(obs, 8), is_overbet(obs, 200)
    (False, True, True)
    """
    legal = spot.legal
    if spot.limit:
        return False
    call = legal.call_amount
    return to - legal.committed - call > OVERBET_POTS * (spot.pot + call)


def _below(u: FloatArray, cut: float) -> FloatArray:
    """1 where u is below `cut`, 0 above, a ramp SIZE_RAMP wide between; exact at 0 and 1."""
    if cut <= 0:
        return np.zeros_like(u)
    if cut >= 1:
        return np.ones_like(u)
    out: FloatArray = np.clip((cut - u) / SIZE_RAMP + 0.5, 0.0, 1.0)
    return out


# (spot, (fold, call, raise) shares) -> the shares the action is read by.
Reading = Callable[[Observation, tuple[float, float, float]], tuple[float, float, float]]
# (spot, action kind taken, the model's probability of it per holding) -> the probability
# per holding the action is read by, or None to keep the model's.
HoldingReading = Callable[[Observation, int, FloatArray], FloatArray | None]


class RangeTracker:
    """Every player's weight table through one hand, updated as actions are seen.

    The past decisions are replayed on a copy of the hand's start so that the model
    is asked about each action in the exact spot it was taken. `size_trust` (0..1): how
    far a No-Limit bet's size is read as a sign of strength (0: not at all);
    `potential`: flop and turn holdings ranked by their averaged river rank.
    """

    def __init__(
        self, size_trust: float = 0.0, potential: bool = False, own_play: bool = False
    ) -> None:
        self.size_trust = size_trust
        # No-Limit bets beyond the pot read by their size (trust 1) whatever size_trust
        # says for smaller ones (`is_overbet`): the top slice of the raising holdings
        # that this size and bigger ones take; sizes are then counted for every bet.
        self.overbet_sizes = False
        self.potential = potential
        # The model's shares moved towards the player's own frequencies in the spot's
        # context and crowd (`with_own_play`), as the search's tables are, for actions
        # taken with at most `own_play_in_hand` players in the hand.
        self.own_play = own_play
        self.own_play_in_hand = 10
        # Where own play is counted, if not in the model's statistics of every decision.
        self.own_stats: Callable[[str], PlayerStats] | None = None
        # The shares an action is finally read by, given the spot and the shares above:
        # the searching bot's own blend (heads-up Limit: the blueprint's moved towards
        # the model by the evidence, as its search plays the player), or None.
        self.reading: Reading | None = None
        # Per holding, after the shares: the searching bot's own policy for each holding
        # (heads-up Limit: the blueprint's strategy at the node reached, per card bucket,
        # moved towards the model's reading by the evidence), or None.
        self.holding_reading: HoldingReading | None = None
        self.sizes = SizeBook()  # kept across hands: how each player sizes its bets
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
                prediction = model.predict(spot)
                triple = self.action_shares(spot, model, prediction.actions)
                board = replay.runout[: replay.board_len] if record.street != PREFLOP else ()
                strength = holding_strengths(board, spot.n_in_hand - 1, self.potential)
                _, p_call, p_raise = holding_triples(
                    triple,
                    strength,
                    spot.legal.can_fold,
                )
                taken = p_raise if record.kind >= BET else p_call
                if self.holding_reading is not None:
                    read = self.holding_reading(spot, record.kind, taken)
                    taken = taken if read is None else read
                likelihood = np.maximum(taken, MIN_WEIGHT)
                reads_size = self.size_trust > 0 or self.overbet_sizes
                if record.kind >= BET and reads_size and not spot.limit:
                    player = spot.player_id(record.player)
                    facing = spot.legal.call_amount > 0
                    sizes = self.sizes.shares(player, spot.street, facing, prediction.sizes)
                    bucket = size_bucket(spot, record.to)
                    trust, or_bigger = self.size_trust, False
                    if self.overbet_sizes and is_overbet(spot, record.to):
                        trust, or_bigger = 1.0, True
                    if trust > 0:
                        likelihood *= size_given_raise(
                            p_raise, sizes, bucket, trust, strength, or_bigger
                        )
                    self.sizes.add(player, spot.street, facing, bucket)
                weights *= likelihood
                peak = weights.max()
                if peak > 0:
                    weights /= peak  # keep the best holding at 1 so the floor stays meaningful
                np.maximum(weights, MIN_WEIGHT * MIN_WEIGHT, out=weights)
            step_and_record(replay, record.kind, record.to, self._history)
        self.seen = len(obs.history)

    def action_shares(
        self, spot: Observation, model: OpponentModel, predicted: FloatArray
    ) -> tuple[float, float, float]:
        """The (fold, call, raise) shares the action at `spot` is read by: the model's
        `predicted` shares, with `own_play` (and at most `own_play_in_hand` players in
        the hand) moved towards the actor's own frequencies in this context and crowd."""
        shares = (float(predicted[0]), float(predicted[1]), float(predicted[2]))
        own = self.own_play and spot.n_in_hand <= self.own_play_in_hand
        if own:
            stats = (self.own_stats or model.stats)(spot.player_id(spot.index))
            cost = cost_bucket(spot.legal.call_amount, spot.bet_unit, spot.pot, spot.limit)
            shares = with_own_play(shares, stats, spot.street, cost, crowd_of(spot.n_in_hand))
        if self.reading is not None:
            shares = self.reading(spot, shares)
        elif not own:
            return shares
        fold, call, raise_ = shares
        return (0.0, fold + call, raise_) if not spot.legal.can_fold else (fold, call, raise_)

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
        """The range as a 13x13 grid (`grid_of`)."""
        return grid_of(self.range_of(index, dead))


def grid_of(weights: FloatArray) -> list[list[float]]:
    """Weights over the 1326 holdings as a 13x13 grid (row/column rank A..2; suited above
    the diagonal, offsuit below, pairs on it): each cell the average weight of its live
    holdings, 0..1."""
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
