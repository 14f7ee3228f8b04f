"""Opponent modelling (DOMAIN.md §3): statistics per player, weight tables per hand.

`StatsBook` counts, per player id, VPIP, preflop raises, and the 36 categories
street x cost (0, 1, 2+ bets to call) x fold/call/raise. Counts start from a
generic prior (a few imaginary observations of a typical player), so a new
opponent is played like "anyone" and an observed one like themself: the
generic model turning into a specific one as data comes in.

`triple(stats, street, cost, strength)` is the model's probability triple
(fold, check/call, bet/raise) for a holding of that strength: the player bets
with the top f_raise share of holdings and continues with the top
f_raise + f_call share, each edge a linear ramp of width 2*sigma (mu-sigma
weighting). `RangeTracker` re-weights every opponent's 1326 holdings after
each of their actions by the probability the model gives that action with that
holding (never below 0.01), ranking holdings preflop by Income Rate and after
the flop by strength on the board.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ai.bots.observation import ActionRecord
from ai.math.combos import N_COMBOS, class_of_pair
from ai.math.preflop_rank import income_rate_percentile
from ai.math.range_strength import COMBO_FIRST, COMBO_SECOND, FloatArray, percentiles
from ai.sim.rules import BET, CALL, CHECK, FOLD, PREFLOP

FOLD_I, CALL_I, RAISE_I = 0, 1, 2
MIN_WEIGHT = 0.01
# Generic prior per street x cost: (fold, call, raise) shares of a typical player and
# how many imaginary observations they are worth.
_PRIOR_SHARES = {
    0: ((0.0, 0.75, 0.25), (0.55, 0.33, 0.12), (0.70, 0.22, 0.08)),  # preflop
    1: ((0.0, 0.70, 0.30), (0.45, 0.43, 0.12), (0.60, 0.32, 0.08)),  # flop
    2: ((0.0, 0.72, 0.28), (0.45, 0.45, 0.10), (0.60, 0.33, 0.07)),  # turn
    3: ((0.0, 0.74, 0.26), (0.50, 0.42, 0.08), (0.62, 0.32, 0.06)),  # river
}
PRIOR_WEIGHT = 6.0
PRIOR_VPIP = 0.28
PRIOR_PFR = 0.14
PRIOR_HANDS = 8.0


def cost_bucket(to_call: int, bet_unit: int, pot: int, limit: bool) -> int:
    """0: nothing to call, 1: one bet, 2: two or more (No-Limit: up to half the pot, more)."""
    if to_call <= 0:
        return 0
    if limit:
        return 1 if to_call <= bet_unit else 2
    return 1 if 2 * to_call <= pot else 2


def action_class(kind: int) -> int:
    if kind == FOLD:
        return FOLD_I
    if kind in (CHECK, CALL):
        return CALL_I
    return RAISE_I


@dataclass
class PlayerStats:
    hands: int = 0
    vpip_hands: int = 0
    pfr_hands: int = 0
    # counts[street, cost, action]
    counts: np.ndarray = field(default_factory=lambda: np.zeros((4, 3, 3)))

    def frequencies(self, street: int, cost: int) -> tuple[float, float, float]:
        """(fold, call, raise) shares in this context, prior-smoothed."""
        prior = _PRIOR_SHARES[street][cost]
        row = self.counts[street, cost]
        total = float(row.sum()) + PRIOR_WEIGHT
        shares = tuple((float(row[a]) + PRIOR_WEIGHT * prior[a]) / total for a in range(3))
        return shares[0], shares[1], shares[2]

    @property
    def vpip(self) -> float:
        return (self.vpip_hands + PRIOR_VPIP * PRIOR_HANDS) / (self.hands + PRIOR_HANDS)

    @property
    def pfr(self) -> float:
        return (self.pfr_hands + PRIOR_PFR * PRIOR_HANDS) / (self.hands + PRIOR_HANDS)

    @property
    def aggression(self) -> float:
        """Postflop (bets + raises) / calls, the classic aggression factor."""
        post = self.counts[1:]
        calls = float(post[:, 1:, CALL_I].sum())
        raises = float(post[:, :, RAISE_I].sum())
        return raises / calls if calls else raises

    @property
    def fold_to_bet(self) -> float:
        return self.frequencies(1, 1)[0]

    def label(self) -> str:
        loose = "loose" if self.vpip > 0.35 else "tight"
        aggressive = (
            "aggressive" if self.pfr > 0.5 * self.vpip or self.aggression > 1.5 else "passive"
        )
        return f"{loose}-{aggressive}"


class StatsBook:
    """Statistics of every player seen; feeding the same hand again only adds what is new."""

    def __init__(self) -> None:
        self.players: dict[str, PlayerStats] = {}
        self._seen: dict[Hashable, int] = {}  # hand key -> records already counted
        self._voluntary: dict[Hashable, set[str]] = {}
        self._raised: dict[Hashable, set[str]] = {}

    def get(self, player: str) -> PlayerStats:
        stats = self.players.get(player)
        if stats is None:
            stats = self.players[player] = PlayerStats()
        return stats

    def ingest(
        self,
        hand_key: Hashable,
        players: Sequence[str],
        history: Sequence[ActionRecord],
        bet_units: Sequence[int],
        limit: bool = True,
    ) -> None:
        """Count the records of `hand_key` not counted yet. bet_units: bet size per street."""
        start = self._seen.get(hand_key)
        if start is None:
            start = 0
            for player in players:
                self.get(player).hands += 1
            self._voluntary[hand_key] = set()
            self._raised[hand_key] = set()
            if len(self._seen) > 2000:  # forget old hands' bookkeeping, keep the stats
                for old in list(self._seen)[:1000]:
                    self._seen.pop(old, None)
                    self._voluntary.pop(old, None)
                    self._raised.pop(old, None)
        voluntary = self._voluntary.setdefault(hand_key, set())
        raised = self._raised.setdefault(hand_key, set())
        for record in history[start:]:
            player = players[record.player]
            stats = self.get(player)
            cost = cost_bucket(record.to_call, bet_units[record.street], record.pot, limit)
            stats.counts[record.street, cost, action_class(record.kind)] += 1
            if record.street == PREFLOP and record.kind in (CALL, BET, 4):
                if player not in voluntary:
                    voluntary.add(player)
                    stats.vpip_hands += 1
                if record.kind != CALL and player not in raised:
                    raised.add(player)
                    stats.pfr_hands += 1
        self._seen[hand_key] = len(history)


def ramp(strength: FloatArray, mu: float, sigma: float) -> FloatArray:
    """0 below mu - sigma, 1 above mu + sigma, linear in between."""
    return np.clip((strength - (mu - sigma)) / (2 * sigma), 0.0, 1.0)


def triple(
    stats: PlayerStats, street: int, cost: int, strength: FloatArray, sigma: float = 0.12
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """P(fold), P(check/call), P(bet/raise) for holdings of the given strengths (0..1)."""
    _, f_call, f_raise = stats.frequencies(street, cost)
    p_raise = ramp(strength, 1.0 - f_raise, sigma)
    p_continue = ramp(strength, 1.0 - f_raise - f_call, sigma) if cost else np.ones_like(strength)
    p_continue = np.maximum(p_continue, p_raise)
    return 1.0 - p_continue, p_continue - p_raise, p_raise


def holding_strengths(board: tuple[int, ...], opponents: int) -> FloatArray:
    """Strength 0..1 per holding: preflop the Income Rate percentile, later the board rank."""
    if not board:
        classes = class_of_pair()[COMBO_FIRST, COMBO_SECOND]
        strength: FloatArray = income_rate_percentile(max(opponents, 1))[classes]
        return strength
    return percentiles(board)


@dataclass
class RangeTracker:
    """Weight tables of every opponent through one hand, updated incrementally."""

    hand_key: Hashable = None
    weights: dict[int, FloatArray] = field(default_factory=dict)  # index -> 1326 weights
    seen: int = 0

    def reset(self, hand_key: Hashable, n: int) -> None:
        self.hand_key = hand_key
        self.weights = {i: np.ones(N_COMBOS) for i in range(n)}
        self.seen = 0

    def update(
        self,
        history: Sequence[ActionRecord],
        board_at: Sequence[tuple[int, ...]],
        stats_of: Sequence[PlayerStats],
        bet_units: Sequence[int],
        players_at_start: int,
        limit: bool = True,
    ) -> None:
        """Re-weight for the records not seen yet; board_at[street] is that street's board."""
        for record in history[self.seen :]:
            weights = self.weights.get(record.player)
            if weights is None or record.kind == FOLD:
                continue
            board = board_at[record.street]
            strength = holding_strengths(board, players_at_start - 1)
            cost = cost_bucket(record.to_call, bet_units[record.street], record.pot, limit)
            _, p_call, p_raise = triple(stats_of[record.player], record.street, cost, strength)
            likelihood = p_raise if record.kind >= BET else p_call
            weights *= np.maximum(likelihood, MIN_WEIGHT)
            peak = weights.max()
            if peak > 0:
                weights /= peak  # keep the best holding at 1 so the floor stays meaningful
            np.maximum(weights, MIN_WEIGHT * MIN_WEIGHT, out=weights)
        self.seen = len(history)

    def range_of(self, index: int, dead: tuple[int, ...]) -> FloatArray:
        """A copy of `index`'s weights with holdings using `dead` cards removed."""
        weights = self.weights[index].copy()
        if dead:
            dead_cards = np.zeros(52, dtype=np.bool_)
            dead_cards[list(dead)] = True
            weights[dead_cards[COMBO_FIRST] | dead_cards[COMBO_SECOND]] = 0.0
        return weights
