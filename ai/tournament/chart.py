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


def thresholds(
    step: float = 0.5, top: float = 20.0, iterations: int = 1500
) -> tuple[list[float], list[float]]:
    """Per class, the largest stack (on a grid of `step` bb, up to `top`) at which our
    equilibrium pushes, and calls; `top` stands for "top or more" as in the chart."""
    from ai.tournament.pushfold import Payoffs, solve

    push = [0.0] * N_CLASSES
    call = [0.0] * N_CLASSES
    stack = step * 2
    while stack <= top + 1e-9:
        chart = solve(Payoffs.chips(stack), iterations)
        for k in range(N_CLASSES):
            if chart.push[k] > 0.5:
                push[k] = stack
            if chart.call[k] > 0.5:
                call[k] = stack
        stack += step
    return push, call


def write_threshold_png(path: Path, step: float = 0.5) -> tuple[float, float]:
    """Our push and call thresholds against the published chart's, one dot per class;
    returns the mean absolute difference (bb) for pushes and calls."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ai.tournament.published import CALL_LIMIT, CHART_CAP, PUSH_LIMIT

    push, call = thresholds(step, CHART_CAP)
    fig, axes = plt.subplots(1, 2, figsize=(11, 5.2), dpi=100)
    errors = []
    try:
        for ax, ours, theirs, name in (
            (axes[0], push, PUSH_LIMIT, "push (small blind)"),
            (axes[1], call, CALL_LIMIT, "call (big blind)"),
        ):
            ax.plot([0, CHART_CAP], [0, CHART_CAP], color="0.7", linewidth=1)
            ax.scatter(theirs, ours, s=12, alpha=0.7)
            ax.set_xlabel("published chart: largest stack (bb, 20 = 20+)")
            ax.set_ylabel(f"fictitious play: largest stack (bb, grid {step:g})")
            ax.set_title(name)
            errors.append(
                float(sum(abs(a - b) for a, b in zip(ours, theirs, strict=True)) / N_CLASSES)
            )
        fig.suptitle(
            "Heads-up push/fold thresholds per hand class: ours against the published chart"
        )
        fig.tight_layout()
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path)
    finally:
        plt.close(fig)
    return errors[0], errors[1]


__all__ = ["comparison", "grid_text", "thresholds", "write_png", "write_threshold_png"]
