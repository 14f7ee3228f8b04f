"""Heads-up push/fold: the small blind goes all in or folds, the big blind calls or folds.

The equilibrium is found by fictitious play over the 169 starting-hand classes: each
round, each side plays a best response to the other's average strategy so far, and the
averages converge to a Nash equilibrium (the chip game is two-player zero-sum). Card
removal is exact (`hands.PAIR_WEIGHTS`), all-in equities come from the shipped table
(`equity_table`).

Payoffs are values of four outcomes per player, so the same solver plays for chips or
for prize equity (`ai.tournament.spot` turns stacks and prizes into those values): the
small blind folds (FOLD), the big blind folds to the push (STEAL), the push is called
and the small blind wins (SB_WINS) or loses (BB_WINS). A split pot is valued as half a
win and half a loss, exact in chips and close in prize equity.

>>> chart = solve(Payoffs.chips(10.0))
>>> chart.pushes("AA"), chart.pushes("72o")
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from ai.tournament.equity_table import equity_matrix
from ai.tournament.hands import N_CLASSES, PAIR_WEIGHTS, index

FloatArray = NDArray[np.float64]
FOLD, STEAL, SB_WINS, BB_WINS = 0, 1, 2, 3
ITERATIONS = 3000


@dataclass(frozen=True)
class Payoffs:
    """Each player's value (chips or prize equity) after each outcome."""

    sb: tuple[float, float, float, float]
    bb: tuple[float, float, float, float]

    @classmethod
    def chips(cls, stack_bb: float, ante_bb: float = 0.0, bb_ante_bb: float = 0.0) -> Payoffs:
        """The chip game at `stack_bb` effective (both stacks before the blinds), in big
        blinds won: blinds 0.5/1, `ante_bb` from each player or `bb_ante_bb` from the
        big blind alone (dead money; the all-in is what is left after it)."""
        sb_dead = 0.5 + ante_bb
        bb_dead = 1.0 + ante_bb + bb_ante_bb
        allin = min(stack_bb - ante_bb, stack_bb - ante_bb - bb_ante_bb)
        won = allin + ante_bb + bb_ante_bb  # the other's all-in and dead money
        lost = allin + ante_bb
        sb = (-sb_dead, bb_dead, won, -lost)
        return cls(sb=sb, bb=(sb_dead, -bb_dead, -sb[2], -sb[3]))


@dataclass(frozen=True)
class Chart:
    """The average strategies: probability to push (SB) and to call (BB) per class."""

    push: FloatArray
    call: FloatArray
    exploitability: float  # mean of both players' best-response gains, in payoff units

    def pushes(self, hand: str) -> bool:
        return bool(self.push[index(hand)] > 0.5)

    def calls(self, hand: str) -> bool:
        return bool(self.call[index(hand)] > 0.5)


class _Game:
    """The payoffs folded into two matrices, so each round is two matrix-vector products."""

    def __init__(self, payoffs: Payoffs) -> None:
        eq = equity_matrix()
        w = PAIR_WEIGHTS
        s, b = payoffs.sb, payoffs.bb
        self.sb_fold, self.bb_fold = s[FOLD], b[STEAL]
        self.sb_steal = s[STEAL]
        # SB with class i against the BB's class j, met w[i, j] times: the gain of a
        # call over a fold by the BB, per unit of the BB's calling probability.
        showdown = eq * s[SB_WINS] + (1.0 - eq) * s[BB_WINS]
        self.sb_gain = w * (showdown - s[STEAL]) / w.sum(1)[:, None]
        # BB with class j against the SB's class i: eq[j, i] is the BB's equity.
        self.bb_num = w.T * (eq * b[BB_WINS] + (1.0 - eq) * b[SB_WINS])
        self.bb_den = w.T

    def values(
        self, push: FloatArray, call: FloatArray
    ) -> tuple[FloatArray, float, FloatArray, float]:
        """(SB push value per class, SB fold value, BB call value per class, BB fold)."""
        sb_push = self.sb_steal + self.sb_gain @ call
        mass = self.bb_den @ push
        bb_call = np.where(mass > 0, (self.bb_num @ push) / np.maximum(mass, 1e-12), self.bb_fold)
        return sb_push, self.sb_fold, bb_call, self.bb_fold


def _values(
    payoffs: Payoffs, push: FloatArray, call: FloatArray
) -> tuple[FloatArray, float, FloatArray, float]:
    return _Game(payoffs).values(push, call)


def solve(payoffs: Payoffs, iterations: int = ITERATIONS) -> Chart:
    """Fictitious play from "push and call everything"; the averages after `iterations`."""
    game = _Game(payoffs)
    avg_push = np.ones(N_CLASSES)
    avg_call = np.ones(N_CLASSES)
    for t in range(1, iterations + 1):
        sb_push, sb_fold, bb_call, bb_fold = game.values(avg_push, avg_call)
        push = (sb_push > sb_fold).astype(np.float64)
        call = (bb_call > bb_fold).astype(np.float64)
        avg_push += (push - avg_push) / (t + 1)
        avg_call += (call - avg_call) / (t + 1)
    return Chart(avg_push, avg_call, exploitability(payoffs, avg_push, avg_call))


def exploitability(payoffs: Payoffs, push: FloatArray, call: FloatArray) -> float:
    """How much each player gains on average by best-responding, halved and summed."""
    freq = PAIR_WEIGHTS.sum(1) / PAIR_WEIGHTS.sum()  # a class's share of the deals
    sb_push, sb_fold, bb_call, bb_fold = _values(payoffs, push, call)
    sb_now = (freq * (push * sb_push + (1 - push) * sb_fold)).sum()
    sb_best = (freq * np.maximum(sb_push, sb_fold)).sum()
    # The BB's decision only counts when a push came: weight by how often it faces one.
    facing = (PAIR_WEIGHTS * push[:, None]).sum(0) / PAIR_WEIGHTS.sum()
    bb_now = (facing * (call * bb_call + (1 - call) * bb_fold)).sum()
    bb_best = (facing * np.maximum(bb_call, bb_fold)).sum()
    return float((sb_best - sb_now + bb_best - bb_now) / 2)


def hand_values(payoffs: Payoffs, chart: Chart, hand: int) -> tuple[float, float, float, float]:
    """(SB push, SB fold, BB call, BB fold) values of class `hand` against the chart."""
    sb_push, sb_fold, bb_call, bb_fold = _values(payoffs, chart.push, chart.call)
    return float(sb_push[hand]), sb_fold, float(bb_call[hand]), bb_fold


@lru_cache(maxsize=64)
def chip_chart(stack_bb: float, ante_bb: float = 0.0, bb_ante_bb: float = 0.0) -> Chart:
    """The chip-game equilibrium at a stack depth (cached: the advice asks often)."""
    return solve(Payoffs.chips(stack_bb, ante_bb, bb_ante_bb))


__all__ = [
    "BB_WINS",
    "FOLD",
    "SB_WINS",
    "STEAL",
    "Chart",
    "Payoffs",
    "chip_chart",
    "hand_values",
    "solve",
]
