"""Cumulative winnings per bot, as a PNG (matplotlib's Agg backend: no display needed)."""

from __future__ import annotations

from pathlib import Path

from ai.arena.match import MatchResult


def write_chart(result: MatchResult, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cumulative = result.net_bb.cumsum(axis=0)
    hands = range(1, result.hands + 1)
    fig, ax = plt.subplots(figsize=(9, 5), dpi=100)
    try:
        for k, name in enumerate(result.names):
            ax.plot(hands, cumulative[:, k], label=name, linewidth=1.2)
        config = result.config
        mode = ", duplicate" if config.duplicate else ""
        ax.set_title(f"Arena: {config.game.value}, {len(result.names)} players{mode}")
        ax.set_xlabel("hands")
        ax.set_ylabel("cumulative winnings (big blinds)")
        ax.axhline(0, color="grey", linewidth=0.6)
        ax.grid(alpha=0.3)
        ax.legend(loc="upper left", fontsize="small")
        fig.tight_layout()
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path)
    finally:
        plt.close(fig)
