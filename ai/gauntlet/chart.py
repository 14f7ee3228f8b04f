"""The gauntlet as a bar chart: each bot's bb/100 against each opponent, with its 95% CI."""

from __future__ import annotations

from pathlib import Path

from ai.gauntlet.run import GauntletResult


def write_gauntlet_chart(result: GauntletResult, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

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
