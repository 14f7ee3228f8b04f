"""Whether the advisor's values mean what they say: over many hands, the value the search
predicted for the action taken against the chips that action went on to win.

A searched decision's row (`ai.arena.match.decision_row`) holds every action's value
(big blinds relative to folding now) and `made_bb`, the chips the decider had at the end
of the hand minus those it had behind when deciding: what the chosen action (and the
decider's later play) won relative to folding there. Calibrated values have
mean(made - predicted) within its CI of 0, in every bucket of the prediction. Folds are
left out: valued exactly at 0, they make exactly 0.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ai.arena.match import Match, MatchConfig
from ai.arena.stats import half_width95
from ai.sim.rules import FOLD
from holdem.config import Variant

# Bucket edges of the predicted value, big blinds.
EDGES: tuple[float, ...] = (-math.inf, -5.0, -1.0, 0.0, 1.0, 3.0, 10.0, math.inf)
STREETS = ("preflop", "flop", "turn", "river")


@dataclass(frozen=True, slots=True)
class Bucket:
    """The decisions whose chosen action's predicted value fell in [low, high)."""

    label: str
    decisions: int
    predicted_bb: float  # mean predicted value
    made_bb: float  # mean chips made
    ci95: tuple[float, float]  # of the mean made

    @property
    def error_bb(self) -> float:
        """Made minus predicted: positive, the values were pessimistic."""
        return self.made_bb - self.predicted_bb

    @property
    def calibrated(self) -> bool:
        """The predicted mean lies within the made mean's 95% CI."""
        return self.ci95[0] <= self.predicted_bb <= self.ci95[1]


@dataclass(frozen=True, slots=True)
class Calibration:
    player: str
    buckets: list[Bucket]  # by predicted value
    streets: list[Bucket]  # by street
    overall: Bucket
    folds: int  # chosen folds, left out


def chosen_pairs(rows: Iterable[Mapping[str, Any]], player: str) -> list[tuple[float, float, int]]:
    """(predicted, made, street) per searched decision of `player` that did not fold."""
    pairs = []
    for row in rows:
        try:
            if row["player"] != player:
                continue
            chosen = next(a for a in row["actions"] if a["label"] == row["choice"])
            if chosen["kind"] == FOLD:
                continue
            pairs.append((float(chosen["value_bb"]), float(row["made_bb"]), int(row["street"])))
        except (KeyError, StopIteration, TypeError, ValueError):
            raise ValueError(f"not a searched decision row: {str(dict(row))[:120]}") from None
    return pairs


def _bucket(label: str, predicted: np.ndarray, made: np.ndarray) -> Bucket:
    mean = float(made.mean())
    half = half_width95(made)
    return Bucket(label, len(made), float(predicted.mean()), mean, (mean - half, mean + half))


def _range_label(low: float, high: float) -> str:
    if math.isinf(low):
        return f"< {high:g}"
    if math.isinf(high):
        return f">= {low:g}"
    return f"[{low:g}, {high:g})"


def calibrate(
    rows: Sequence[Mapping[str, Any]], player: str, edges: Sequence[float] = EDGES
) -> Calibration:
    """Per bucket of predicted value and per street, the mean predicted and made."""
    pairs = chosen_pairs(rows, player)
    if not pairs:
        raise ValueError(f"no searched decision of {player!r} that did not fold")
    folds = sum(1 for row in rows if row["player"] == player and row["choice"] == "fold")
    predicted = np.array([p for p, _, _ in pairs])
    made = np.array([m for _, m, _ in pairs])
    streets = np.array([s for _, _, s in pairs])
    buckets = []
    for low, high in itertools.pairwise(edges):
        inside = (predicted >= low) & (predicted < high)
        if inside.any():
            buckets.append(_bucket(_range_label(low, high), predicted[inside], made[inside]))
    by_street = [
        _bucket(name, predicted[streets == s], made[streets == s])
        for s, name in enumerate(STREETS)
        if (streets == s).any()
    ]
    return Calibration(player, buckets, by_street, _bucket("all", predicted, made), folds)


def play(
    game: Variant,
    player: str,
    opponent: str,
    hands: int,
    seed: int,
    stack_bb: int = 100,
    iterations: int | None = None,
) -> tuple[list[dict[str, Any]], str]:
    """Heads-up duplicate hands of `player` against `opponent`, keeping every searched
    decision; returns the rows and the player's display name in them."""
    from ai.bots import make_bot
    from ai.bots.base import Bot
    from ai.bots.mcts import MctsBot

    def make(style: str, bot_seed: int) -> Bot:
        bot = make_bot(style, bot_seed)
        if iterations is not None and isinstance(bot, MctsBot):
            bot.iterations = iterations
        return bot

    config = MatchConfig(
        game, (player, opponent), hands, seed, duplicate=True, stack_bb=stack_bb, decisions=True
    )
    match = Match(config, make)
    result = match.play()
    return result.decisions, result.names[0]


def format_calibration(c: Calibration) -> str:
    lines = [
        f"{c.player}: {c.overall.decisions} searched decisions that did not fold "
        f"({c.folds} folds left out)",
        f"{'predicted bucket':<18}{'n':>6}{'predicted':>11}{'made':>9}{'95% CI of made':>22}"
        f"{'made - predicted':>18}  calibrated",
    ]
    for group in (c.buckets, [None], c.streets, [None], [c.overall]):
        for b in group:
            if b is None:
                lines.append("")
                continue
            lo, hi = b.ci95
            lines.append(
                f"{b.label:<18}{b.decisions:>6}{b.predicted_bb:>+11.2f}{b.made_bb:>+9.2f}"
                f"{f'[{lo:+.2f}, {hi:+.2f}]':>22}{b.error_bb:>+18.2f}  "
                f"{'yes' if b.calibrated else 'no'}"
            )
    return "\n".join(lines)


def calibration_json(c: Calibration) -> dict[str, Any]:
    def one(b: Bucket) -> dict[str, Any]:
        return {
            "bucket": b.label,
            "decisions": b.decisions,
            "predicted_bb": b.predicted_bb,
            "made_bb": b.made_bb,
            "ci95": list(b.ci95),
            "calibrated": b.calibrated,
        }

    return {
        "player": c.player,
        "folds": c.folds,
        "overall": one(c.overall),
        "buckets": [one(b) for b in c.buckets],
        "streets": [one(b) for b in c.streets],
    }


def write_chart(c: Calibration, path: Path, title: str) -> None:
    """Mean made against mean predicted per bucket, with the made mean's 95% CI; a
    calibrated advisor's points sit on the diagonal."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 6), dpi=100)
    try:
        x = [b.predicted_bb for b in c.buckets]
        y = [b.made_bb for b in c.buckets]
        err = [
            [b.made_bb - b.ci95[0] if math.isfinite(b.ci95[0]) else 0.0 for b in c.buckets],
            [b.ci95[1] - b.made_bb if math.isfinite(b.ci95[1]) else 0.0 for b in c.buckets],
        ]
        ax.errorbar(x, y, yerr=err, fmt="o", capsize=4, label="buckets of predicted value")
        for b in c.buckets:
            ax.annotate(f"n={b.decisions}", (b.predicted_bb, b.made_bb), fontsize=8,
                        textcoords="offset points", xytext=(6, -10))  # fmt: skip
        finite = [v for v in (*x, *y) if math.isfinite(v)]
        low, high = min(finite, default=-1.0), max(finite, default=1.0)
        ax.plot([low, high], [low, high], color="grey", linestyle="--", label="calibrated")
        ax.set_xlabel("predicted value of the action taken (bb, relative to folding)")
        ax.set_ylabel("chips it went on to win (bb, relative to folding)")
        ax.set_title(title)
        ax.legend(loc="upper left")
        ax.grid(alpha=0.3)
        fig.tight_layout()
        fig.savefig(path)
    finally:
        plt.close(fig)
