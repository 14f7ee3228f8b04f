"""Cumulative winnings per bot, as a PNG (matplotlib's Agg backend: no display needed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ai.arena.match import MatchConfig, MatchResult
from ai.arena.roundrobin import RoundRobinResult


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
        mode = "" if config.mode == "plain" else f", {config.mode}"
        ax.set_title(f"Arena: {config.game.value}, {len(result.names)} players{mode}")
        ax.set_xlabel("hands")
        _finish(fig, ax, path)
    finally:
        plt.close(fig)


def write_round_robin_chart(result: RoundRobinResult, config: MatchConfig, path: Path) -> None:
    """Each bot's cumulative winnings over its own hands, table after table."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    fig, ax = plt.subplots(figsize=(9, 5), dpi=100)
    try:
        for k, name in enumerate(result.names):
            series = [
                match.net_bb[:, lineup.index(k)] for lineup, match in result.tables if k in lineup
            ]
            if series:
                cumulative = np.concatenate(series).cumsum()
                ax.plot(range(1, len(cumulative) + 1), cumulative, label=name, linewidth=1.2)
        size = max(len(lineup) for lineup, _ in result.tables)
        ax.set_title(f"Arena round robin: {config.game.value}, {size}-handed tables")
        ax.set_xlabel("hands played by the bot (its tables one after another)")
        _finish(fig, ax, path)
    finally:
        plt.close(fig)


def _finish(fig: Any, ax: Any, path: Path) -> None:
    """The styling both charts share, then the PNG."""
    ax.set_ylabel("cumulative winnings (big blinds)")
    ax.axhline(0, color="grey", linewidth=0.6)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize="small")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path)
