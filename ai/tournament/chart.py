"""A push/fold chart as text and as a PNG, and its agreement with the published one."""

from __future__ import annotations

from pathlib import Path

from ai.tournament.hands import N_CLASSES, label
from ai.tournament.published import published_call, published_push
from ai.tournament.pushfold import Chart


def comparison(chart: Chart, stack_bb: float) -> tuple[float, float]:
    """Share of the 169 classes where our push and call decisions match the chart's."""
    push = float(((chart.push > 0.5) == published_push(stack_bb)).mean())
    call = float(((chart.call > 0.5) == published_call(stack_bb)).mean())
    return push, call


def grid_text(chart: Chart) -> str:
    """Two 13x13 grids side by side: pushes (SB) and calls (BB); '.' a fold."""
    lines = [f"{'push (SB)':<52}   call (BB)"]
    for row in range(13):
        cells = []
        for strategy in (chart.push, chart.call):
            cells.append(
                " ".join(
                    f"{label(row * 13 + col):>3}" if strategy[row * 13 + col] > 0.5 else "  ."
                    for col in range(13)
                )
            )
        lines.append("   ".join(cells))
    share = (chart.push > 0.5).mean(), (chart.call > 0.5).mean()
    lines.append(f"classes pushed {share[0]:.0%}, called {share[1]:.0%} (of {N_CLASSES})")
    return "\n".join(lines)


def write_png(chart: Chart, path: Path, title: str, published_at: float | None) -> None:
    """Heat maps of the push and call probabilities; x marks a disagreement with the
    published chart at `published_at` bb (when given)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(12, 6.2), dpi=100)
    try:
        marks = None
        if published_at is not None:
            marks = (published_push(published_at), published_call(published_at))
        for k, (ax, strategy, name) in enumerate(
            zip(
                axes,
                (chart.push, chart.call),
                ("push (small blind)", "call (big blind)"),
                strict=True,
            )
        ):
            grid = strategy.reshape(13, 13)
            ax.imshow(grid, cmap="Greens", vmin=0, vmax=1)
            for cell in range(N_CLASSES):
                r, c = divmod(cell, 13)
                ax.text(c, r, label(cell), ha="center", va="center", fontsize=6.5,
                        color="white" if grid[r, c] > 0.6 else "black")  # fmt: skip
                if marks is not None and (strategy[cell] > 0.5) != bool(marks[k][cell]):
                    ax.plot(c, r, "rx", markersize=14, markeredgewidth=1.5)
            ax.set_xticks([])
            ax.set_yticks([])
            ax.set_title(name)
        fig.suptitle(title + ("  (x: differs from the published chart)" if marks else ""))
        fig.tight_layout()
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path)
    finally:
        plt.close(fig)


__all__ = ["comparison", "grid_text", "write_png"]
