"""Win rates in big blinds per 100 hands with a 95% confidence interval.

In duplicate format the samples are whole deals (a bot's result summed over the
rotations of one deal), which is what makes the format's interval narrow.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ai.arena.match import MatchResult

Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class WinRate:
    name: str
    bb_per_100: float
    ci95: tuple[float, float]
    total_bb: float


def half_width95(samples: npt.NDArray[np.float64]) -> float:
    """Half the width of the 95% CI of the samples' mean; infinite below two samples."""
    if len(samples) < 2:
        return math.inf
    return Z95 * float(samples.std(ddof=1)) / math.sqrt(len(samples))


def win_rates(result: MatchResult) -> list[WinRate]:
    rotations = result.rotations
    hands = result.hands
    per_deal = result.net_bb.reshape(hands // rotations, rotations, -1).sum(axis=1)
    rates = []
    for k, name in enumerate(result.names):
        samples = per_deal[:, k] / rotations  # bb per hand, one sample per deal
        mean = float(samples.mean())
        half = half_width95(samples)
        rates.append(
            WinRate(
                name=name,
                bb_per_100=100 * mean,
                ci95=(100 * (mean - half), 100 * (mean + half)),
                total_bb=float(np.sum(result.net_bb[:, k])),
            )
        )
    return rates


def format_table(result: MatchResult, rates: list[WinRate]) -> str:
    config = result.config
    lines = [
        f"{config.game.value}, {len(result.names)} players, {result.hands} hands ({config.mode}), "
        f"seed {config.seed}",
        f"{'bot':<18}{'bb/100':>10}{'95% CI':>22}{'total bb':>12}",
    ]
    for rate in sorted(rates, key=lambda r: -r.bb_per_100):
        lo, hi = rate.ci95
        lines.append(
            f"{rate.name:<18}{rate.bb_per_100:>10.1f}{f'[{lo:.1f}, {hi:.1f}]':>22}"
            f"{rate.total_bb:>12.1f}"
        )
    return "\n".join(lines)
