"""Per-opponent action statistics (DOMAIN.md §3).

VPIP, preflop raise rate (PFR), aggression factor, and the 36 action categories:
street (preflop, flop, turn, river) x bets to call (0, 1, more) x action (fold,
check/call, bet/raise). Checks count as calls and bets as raises.

>>> s = OpponentStats()
>>> s.start_hand()
>>> s.record(PREFLOP, to_call_bets=1, action=RAISE)
>>> s.record(FLOP, to_call_bets=0, action=RAISE)
>>> s.record(TURN, to_call_bets=1, action=CALL)
>>> s.vpip, s.pfr, s.aggression_factor
(1.0, 1.0, 1.0)
>>> s.count(FLOP, 0, RAISE)
1
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ai.math.weights import CALL, FOLD, RAISE

PREFLOP, FLOP, TURN, RIVER = range(4)
STREETS = ("preflop", "flop", "turn", "river")
ACTIONS = ("fold", "call", "raise")
__all__ = ["CALL", "FLOP", "FOLD", "PREFLOP", "RAISE", "RIVER", "TURN", "OpponentStats"]


def cost_bucket(to_call_bets: float) -> int:
    """0, 1 or 2 for nothing to call, up to one bet, more than one bet.

    >>> [cost_bucket(x) for x in (0, 0.5, 1, 1.5, 3)]
    [0, 1, 1, 2, 2]
    """
    if to_call_bets < 0:
        raise ValueError("the amount to call cannot be negative")
    if to_call_bets == 0:
        return 0
    return 1 if to_call_bets <= 1 else 2


class OpponentStats:
    """Counts of one opponent's decisions, kept across hands."""

    def __init__(self) -> None:
        self.counts: NDArray[np.int64] = np.zeros((4, 3, 3), dtype=np.int64)
        self.hands = 0
        self.vpip_hands = 0
        self.pfr_hands = 0
        self._voluntary = False
        self._raised = False

    def start_hand(self) -> None:
        """Call once per hand dealt to this opponent, before recording its actions."""
        self.hands += 1
        self._voluntary = False
        self._raised = False

    def record(
        self, street: int, to_call_bets: float, action: int, *, forced: bool = False
    ) -> None:
        """One decision: street 0..3, the bets it faced, FOLD/CALL/RAISE.

        `to_call_bets` is the amount to call in bets of the street (fixed-limit) or in
        units of the last bet/big blind (no-limit). A preflop call that puts in nothing
        new (the big blind checking) is not voluntary; `forced` marks other such cases.
        """
        if street not in range(4) or action not in (FOLD, CALL, RAISE):
            raise ValueError("street is 0..3 and action FOLD, CALL or RAISE")
        if self.hands == 0:
            raise ValueError("start_hand() first")
        self.counts[street, cost_bucket(to_call_bets), action] += 1
        if street == PREFLOP and not forced:
            if action == RAISE and not self._raised:
                self._raised = True
                self.pfr_hands += 1
            if action != FOLD and (to_call_bets > 0 or action == RAISE) and not self._voluntary:
                self._voluntary = True
                self.vpip_hands += 1

    def count(self, street: int, cost: int, action: int) -> int:
        return int(self.counts[street, cost, action])

    @property
    def vpip(self) -> float:
        """Share of hands in which chips went in voluntarily preflop."""
        return self.vpip_hands / self.hands if self.hands else 0.0

    @property
    def pfr(self) -> float:
        """Share of hands with a preflop raise."""
        return self.pfr_hands / self.hands if self.hands else 0.0

    @property
    def aggression_factor(self) -> float:
        """Postflop (bets + raises) / calls; inf for a player who never called."""
        post = self.counts[FLOP:]
        raises = int(post[..., RAISE].sum())
        # Checks (nothing to call) are recorded as CALL but are not calls.
        calls = int(post[:, 1:, CALL].sum())
        if calls == 0:
            return float("inf") if raises else 0.0
        return raises / calls

    def frequencies(self, street: int, cost: int, prior: float = 1.0) -> NDArray[np.float64]:
        """(fold, call, raise) frequencies in one category, smoothed by `prior` pseudo-counts
        per action so a category with no data is uniform.

        >>> OpponentStats().frequencies(FLOP, 1).round(3).tolist()
        [0.333, 0.333, 0.333]
        """
        row = self.counts[street, cost].astype(np.float64) + prior
        out: NDArray[np.float64] = row / row.sum()
        return out

    def category_table(self) -> NDArray[np.float64]:
        """All 36 category frequencies as a (4, 3, 3) array (rows of zeros: no data)."""
        totals = self.counts.sum(axis=2, keepdims=True)
        out: NDArray[np.float64] = np.divide(
            self.counts, totals, out=np.zeros((4, 3, 3)), where=totals > 0
        )
        return out
