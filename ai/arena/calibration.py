"""Whether the advisor's values mean what they say: over many hands, the value the search
predicted for the action taken against the chips that action went on to win.

A searched decision's row (`ai.arena.match.decision_row`) holds every action's value
(big blinds relative to folding now) and `made_bb`, the chips the decider had at the end
of the hand minus those it had behind when deciding: what the chosen action (and the
decider's later play) won relative to folding there. Calibrated values have a 95% CI
of mean(made - predicted) that contains 0, in every bucket of the prediction. The
decisions of one hand share its end, so the intervals count a hand as one draw
(clustered), not each decision. Folds are left out: valued exactly at 0, they make
exactly 0.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ai.arena.match import Match, MatchConfig
from ai.models.ranges import OVERBET_POTS
from ai.sim.rules import CALL, CHECK, FOLD
from holdem.config import Variant

if TYPE_CHECKING:
    from ai.bots.base import Bot

# Bucket edges of the predicted value, big blinds.
EDGES: tuple[float, ...] = (-math.inf, -5.0, -1.0, 0.0, 1.0, 3.0, 10.0, math.inf)
STREETS = ("preflop", "flop", "turn", "river")
# The kinds of action taken the breakdown separates. A call of an overbet calls more than
# the pot before the bet; our own bet or raise is an overbet beyond OVERBET_POTS pots after
# calling (`ai.models.ranges.is_overbet`'s edge), an all-in puts in all we have behind.
KINDS = (
    "check",
    "call",
    "call of an overbet",
    "bet or raise",
    "overbet, not all-in",
    "all-in",
)
Z95 = 1.96


@dataclass(frozen=True, slots=True)
class Bucket:
    """The decisions whose chosen action's predicted value fell in [low, high)."""

    label: str
    decisions: int
    predicted_bb: float  # mean predicted value
    made_bb: float  # mean chips made
    ci95: tuple[float, float]  # of the mean made
    error_ci95: tuple[float, float]  # of the mean of made - predicted
    hands: int = 0  # the hands the decisions came from (the intervals' clusters)
    # The share of the chosen action's simulated hands where every opponent folded, and
    # of the hands played where they all did: the opponent model's folds against the
    # real ones (NaN where the rows do not say).
    simulated_folds: float = math.nan
    played_folds: float = math.nan

    @property
    def error_bb(self) -> float:
        """Made minus predicted: positive, the values were pessimistic."""
        return self.made_bb - self.predicted_bb

    @property
    def calibrated(self) -> bool:
        """The mean error's 95% CI contains 0."""
        return self.error_ci95[0] <= 0.0 <= self.error_ci95[1]


@dataclass(frozen=True, slots=True)
class Calibration:
    player: str
    buckets: list[Bucket]  # by predicted value
    streets: list[Bucket]  # by street
    overall: Bucket
    folds: int  # chosen folds, left out
    kinds: list[Bucket] = field(default_factory=list)  # by the kind of action taken (KINDS)


@dataclass(frozen=True, slots=True)
class Pairs:
    """Per searched decision that did not fold: predicted, made, street, hand."""

    predicted: np.ndarray
    made: np.ndarray
    street: np.ndarray
    hand: np.ndarray  # decisions of one hand share its end: one cluster
    kind: np.ndarray  # index into KINDS
    simulated_folds: np.ndarray  # the chosen action's simulated all-fold share (NaN: unknown)
    played_folds: np.ndarray  # 1.0 when every opponent folded in the hand played


def kind_of(row: Mapping[str, Any], chosen: Mapping[str, Any]) -> int:
    """The index in KINDS of the chosen action of a decision row. Rows written before
    `committed_bb` was kept count nothing in front of us this street."""
    kind = int(chosen["kind"])
    if kind == CHECK:
        return 0
    pot, call = float(row.get("pot_bb", 0.0)), float(row.get("call_bb", 0.0))
    if kind == CALL:
        return 2 if call > pot - call else 1
    to = float(chosen.get("to_bb", 0.0))
    committed = float(row.get("committed_bb", 0.0))
    behind = float(row.get("behind_bb", math.inf))
    if to >= committed + behind - 1e-9:
        return 5
    return 4 if to - committed - call > OVERBET_POTS * (pot + call) else 3


def chosen_pairs(rows: Iterable[Mapping[str, Any]], player: str) -> Pairs:
    """The searched decisions of `player` that did not fold. A row without `hand_key` is a
    hand of its own."""
    found: list[tuple[float, float, int, int, int, float, float]] = []
    for k, row in enumerate(rows):
        try:
            if row["player"] != player:
                continue
            chosen = next(a for a in row["actions"] if a["label"] == row["choice"])
            if chosen["kind"] == FOLD:
                continue
            hand = int(row["hand_key"]) if "hand_key" in row else -1 - k
            simulated = chosen.get("folds")
            played = row.get("folded_out")
            found.append(
                (
                    float(chosen["value_bb"]),
                    float(row["made_bb"]),
                    int(row["street"]),
                    hand,
                    kind_of(row, chosen),
                    math.nan if simulated is None else float(simulated),
                    math.nan if played is None else float(played),
                )
            )
        except (KeyError, StopIteration, TypeError, ValueError):
            raise ValueError(f"not a searched decision row: {str(dict(row))[:120]}") from None
    columns = list(zip(*found, strict=True)) if found else [()] * 7
    floats = [np.array(c, dtype=np.float64) for c in columns]
    return Pairs(
        floats[0],
        floats[1],
        np.array(columns[2], dtype=np.int64),
        np.array(columns[3], dtype=np.int64),
        np.array(columns[4], dtype=np.int64),
        floats[5],
        floats[6],
    )


def clustered_half_width95(values: np.ndarray, clusters: np.ndarray) -> float:
    """Half the width of the 95% CI of the mean of `values`, the values of one cluster
    (the decisions of one hand, which share its outcome) counted as one draw: the
    cluster-robust variance of a mean, sum over clusters of their summed deviations
    squared, over n squared, times G / (G - 1). Infinite below two clusters."""
    _, index = np.unique(clusters, return_inverse=True)
    groups = int(index.max()) + 1 if len(index) else 0
    if groups < 2:
        return math.inf
    sums = np.bincount(index, weights=values - values.mean(), minlength=groups)
    variance = groups / (groups - 1) * float((sums**2).sum()) / len(values) ** 2
    return Z95 * math.sqrt(variance)


def _bucket(label: str, pairs: Pairs, inside: np.ndarray) -> Bucket:
    predicted, made, hand = pairs.predicted[inside], pairs.made[inside], pairs.hand[inside]
    mean, error = float(made.mean()), float((made - predicted).mean())
    half = clustered_half_width95(made, hand)
    error_half = clustered_half_width95(made - predicted, hand)
    return Bucket(
        label,
        len(made),
        float(predicted.mean()),
        mean,
        (mean - half, mean + half),
        (error - error_half, error + error_half),
        len(np.unique(hand)),
        _known_mean(pairs.simulated_folds[inside]),
        _known_mean(pairs.played_folds[inside]),
    )


def _known_mean(values: np.ndarray) -> float:
    known = values[~np.isnan(values)]
    return float(known.mean()) if len(known) else math.nan


def _range_label(low: float, high: float) -> str:
    if math.isinf(low):
        return f"< {high:g}"
    if math.isinf(high):
        return f">= {low:g}"
    return f"[{low:g}, {high:g})"


def calibrate(
    rows: Sequence[Mapping[str, Any]], player: str, edges: Sequence[float] = EDGES
) -> Calibration:
    """Per bucket of predicted value and per street, the mean predicted and made, and the
    95% CI of the mean error (made - predicted), clustered by hand."""
    pairs = chosen_pairs(rows, player)
    if not len(pairs.predicted):
        raise ValueError(f"no searched decision of {player!r} that did not fold")
    folds = sum(1 for row in rows if row["player"] == player and row["choice"] == "fold")
    predicted = pairs.predicted
    buckets = []
    for low, high in itertools.pairwise(edges):
        inside = (predicted >= low) & (predicted < high)
        if inside.any():
            buckets.append(_bucket(_range_label(low, high), pairs, inside))
    by_street = [
        _bucket(name, pairs, pairs.street == s)
        for s, name in enumerate(STREETS)
        if (pairs.street == s).any()
    ]
    by_kind = [
        _bucket(name, pairs, pairs.kind == k)
        for k, name in enumerate(KINDS)
        if (pairs.kind == k).any()
    ]
    everything = np.ones(len(predicted), dtype=bool)
    overall = _bucket("all", pairs, everything)
    return Calibration(player, buckets, by_street, overall, folds, by_kind)


def play(
    game: Variant,
    player: str,
    opponent: str,
    hands: int,
    seed: int,
    stack_bb: int = 100,
    iterations: int | None = None,
    make_player: Callable[[str, int], Bot] | None = None,
) -> tuple[list[dict[str, Any]], str]:
    """Heads-up duplicate hands of `player` against `opponent`, keeping every searched
    decision; returns the rows and the player's display name in them. `make_player`
    builds both by name (default: our styles, `make_bot`; the command passes the
    gauntlet's, which knows the outside agents too)."""
    from ai.bots import make_bot
    from ai.bots.mcts import MctsBot

    build = make_player or make_bot

    def make(style: str, bot_seed: int) -> Bot:
        bot = build(style, bot_seed)
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
        f"{'predicted bucket':<20}{'n':>6}{'hands':>7}{'predicted':>11}{'made':>9}"
        f"{'made - predicted':>18}{'its 95% CI':>22}  calibrated",
    ]
    for group in (c.buckets, [None], c.streets, [None], [c.overall]):
        for b in group:
            lines.append("" if b is None else _line(b))
    if c.kinds:
        lines += ["", f"{'action taken':<20}" + lines[1][20:] + "  all fold: simulated, played"]
        for b in c.kinds:
            folds = f"{b.simulated_folds:.2f}, {b.played_folds:.2f}"
            lines.append(f"{_line(b)}  {folds:>5}".replace("nan", "?"))
    return "\n".join(lines)


def _line(b: Bucket) -> str:
    lo, hi = b.error_ci95
    return (
        f"{b.label:<20}{b.decisions:>6}{b.hands:>7}{b.predicted_bb:>+11.2f}"
        f"{b.made_bb:>+9.2f}{b.error_bb:>+18.2f}{f'[{lo:+.2f}, {hi:+.2f}]':>22}  "
        f"{'yes ' if b.calibrated else 'no  '}"
    )


def calibration_json(c: Calibration) -> dict[str, Any]:
    def one(b: Bucket) -> dict[str, Any]:
        return {
            "bucket": b.label,
            "decisions": b.decisions,
            "hands": b.hands,
            "predicted_bb": b.predicted_bb,
            "made_bb": b.made_bb,
            "ci95": list(b.ci95),
            "error_bb": b.error_bb,
            "error_ci95": list(b.error_ci95),
            "calibrated": b.calibrated,
            "simulated_folds": None if math.isnan(b.simulated_folds) else b.simulated_folds,
            "played_folds": None if math.isnan(b.played_folds) else b.played_folds,
        }

    return {
        "player": c.player,
        "folds": c.folds,
        "overall": one(c.overall),
        "buckets": [one(b) for b in c.buckets],
        "streets": [one(b) for b in c.streets],
        "kinds": [one(b) for b in c.kinds],
    }


def write_chart(c: Calibration, path: Path, title: str) -> None:
    """Mean made against mean predicted per bucket, with the 95% CI of the mean error
    drawn around the made mean: a calibrated bucket's bar crosses the diagonal."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 6), dpi=100)
    try:
        x = [b.predicted_bb for b in c.buckets]
        y = [b.made_bb for b in c.buckets]
        err = [
            [b.error_bb - b.error_ci95[0] if math.isfinite(b.error_ci95[0]) else 0.0
             for b in c.buckets],
            [b.error_ci95[1] - b.error_bb if math.isfinite(b.error_ci95[1]) else 0.0
             for b in c.buckets],
        ]  # fmt: skip
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
