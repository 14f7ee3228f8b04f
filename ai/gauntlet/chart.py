"""The gauntlet as a bar chart: each bot's bb/100 against each opponent, with its 95% CI;
and two runs of the same deals compared (`--paired`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ai.gauntlet.paired_runs import RunDifference, is_decision, label
from ai.gauntlet.run import GauntletResult


def write_gauntlet_chart(result: GauntletResult, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    config = result.config
    opponents, bots = config.opponents, config.bots
    width = 0.8 / len(bots)
    x = np.arange(len(opponents))
    fig, ax = plt.subplots(figsize=(max(6.0, 1.6 * len(opponents) * max(1, len(bots) / 3)), 5))
    try:
        for k, bot in enumerate(bots):
            cells = [result.cell(bot, o) for o in opponents]
            means = np.array([c.bb_per_100 for c in cells])
            below = [c.bb_per_100 - c.ci95[0] for c in cells]
            above = [c.ci95[1] - c.bb_per_100 for c in cells]
            errors = np.array([below, above])
            errors = np.where(np.isfinite(errors), errors, 0.0)
            ax.bar(x + (k - (len(bots) - 1) / 2) * width, means, width, yerr=errors, capsize=3,
                   label=bot)  # fmt: skip
        ax.set_xticks(x, opponents)
        mode = "duplicate" if config.duplicate else "plain"
        ax.set_title(
            f"Gauntlet: {config.game.value}, {config.seats} seats, "
            f"{config.hands_per_pair} hands per bar ({mode}, seed {config.seed})"
        )
        ax.set_ylabel("our bot's winnings (bb/100, 95% CI)")
        ax.axhline(0, color="grey", linewidth=0.6)
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize="small")
        fig.tight_layout()
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=100)
    finally:
        plt.close(fig)


def write_paired_chart(differences: Sequence[RunDifference], path: Path, top: int = 12) -> None:
    """`--paired`: new minus base with its paired 95% CI, a panel per opponent: the chips,
    each exact measure, and the exact decisions that moved most."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    opponents = list(dict.fromkeys(d.opponent for d in differences))
    panels = [_paired_rows(differences, o, top) for o in opponents]
    height = max(3.0, 0.35 * max(len(p) for p in panels) + 1.5)
    fig, axes = plt.subplots(1, len(opponents), figsize=(6.5 * len(opponents), height))
    try:
        for ax, opponent, rows in zip(np.atleast_1d(axes), opponents, panels, strict=True):
            y = np.arange(len(rows))[::-1]
            means = np.array([d.bb_per_100 for d in rows])
            errors = np.array([[d.bb_per_100 - d.ci95[0] for d in rows],
                               [d.ci95[1] - d.bb_per_100 for d in rows]])  # fmt: skip
            errors = np.where(np.isfinite(errors), errors, 0.0)
            colors = ["tab:grey" if is_decision(d) else "tab:blue" for d in rows]
            ax.barh(y, means, xerr=errors, capsize=3, color=colors)
            ax.set_yticks(y, [label(d) for d in rows], fontsize="small")
            ax.axvline(0, color="black", linewidth=0.6)
            ax.grid(axis="x", alpha=0.3)
            ax.set_title(f"against {opponent}")
            ax.set_xlabel("new - base, bb/100 (paired 95% CI)")
        fig.suptitle("Two runs of the same deals, deal by deal")
        fig.tight_layout()
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=100)
    finally:
        plt.close(fig)


def _paired_rows(
    differences: Sequence[RunDifference], opponent: str, top: int
) -> list[RunDifference]:
    mine = [d for d in differences if d.opponent == opponent]
    decisions = sorted(filter(is_decision, mine), key=lambda d: -abs(d.bb_per_100))
    return [d for d in mine if not is_decision(d)] + decisions[:top]
