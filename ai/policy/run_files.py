"""What a blueprint training run is told and what it leaves on disk: its settings, the
convergence history beside its checkpoint, and the convergence chart. Shared by the
two-player trainer (`ai.policy.training`) and the n-player one (`ai.policy.nway.training`),
which the first dispatches to: kept below both so neither imports the other back.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

Note = Callable[[str], None]
GAMES = ("limit-hu", "leduc", "nolimit-hu", "limit-3max", "nolimit-6max", "limit-6max")
NWAY_GAMES = ("nolimit-hu", "limit-3max", "nolimit-6max", "limit-6max")  # ai.policy.nway


@dataclass(frozen=True)
class TrainSettings:
    game: str = "limit-hu"
    iterations: int = 1_000_000
    seed: int = 0
    hs_buckets: tuple[int, int, int] = (12, 12, 16)
    batch: int = 1000
    discount_batches: int = 100  # Linear CFR over the first 100k iterations
    eval_every: int = 100_000
    best_response: int = 0  # iterations per seat; 0: skip
    response_deals: int = 100_000


def save_history(path: Path, history: list[dict[str, float]]) -> None:
    path.write_text(json.dumps(history) + "\n", encoding="utf-8")


def load_history(checkpoint: Path) -> list[dict[str, float]]:
    path = checkpoint.with_name("history.json")
    if not path.exists():
        return []
    rows: list[dict[str, float]] = json.loads(path.read_text(encoding="utf-8"))
    return rows


def plot_history(history: list[dict[str, float]], path: Path, game: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = [row["iterations"] for row in history]
    panels = [
        ("mean_positive_regret", "mean positive regret / T"),
        ("strategy_change", "avg |Δσ| per entry"),
    ]
    if history and "exploitability" in history[0]:
        panels.insert(0, ("exploitability", "exploitability (chips/hand)"))
    fig, axes = plt.subplots(1, len(panels), figsize=(5 * len(panels), 4))
    for ax, (key, label) in zip(np.atleast_1d(axes), panels, strict=True):
        ax.loglog(x, [row[key] for row in history], marker="o")
        ax.set_xlabel("iterations")
        ax.set_title(label)
        ax.grid(True, which="both", alpha=0.3)
    fig.suptitle(f"blueprint training: {game}")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
