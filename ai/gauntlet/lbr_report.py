"""LBR's results as a table, as JSON, and as a bar chart with the always-fold line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ai.gauntlet.lbr import ALWAYS_FOLD_MBB, LbrResult


def _setting(result: LbrResult) -> str:
    c = result.config
    particles = "all" if c.particles == 0 else (c.particles or "default")
    return (
        f"{c.game.value}, {c.stack_bb} bb, seed {c.seed}, preflop {c.preflop}"
        f"{', half-pot' if c.half_pot else ''}, particles {particles}, samples {c.samples}"
    )


def format_lbr(results: list[LbrResult]) -> str:
    if not results:
        return "lbr: nothing played"
    lines = [
        f"LBR exploitability, mbb per hand [95% CI] ({_setting(results[0])}; "
        f"always-fold loses {ALWAYS_FOLD_MBB:.0f})",
    ]
    width = max(len(r.config.target) for r in results) + 2
    for r in results:
        s = r.stats
        mean = s.particles / s.ranged if s.ranged else 0.0
        probs = "exact" if r.exact else "estimated"
        lines.append(
            f"  {r.config.target:<{width}}{r.mbb_per_hand:>9.0f} "
            f"{f'[{r.ci95[0]:.0f}, {r.ci95[1]:.0f}]':>20}  {r.hands} hands, "
            f"probabilities {probs}, {mean:.0f} holdings a decision, {s.collapses} collapses"
        )
    return "\n".join(lines)


def lbr_json(results: list[LbrResult]) -> dict[str, Any]:
    rows = []
    for r in results:
        c, s = r.config, r.stats
        rows.append(
            {
                "target": c.target,
                "game": c.game.value,
                "hands": r.hands,
                "mbb_per_hand": round(r.mbb_per_hand, 1),
                "ci95": [round(r.ci95[0], 1), round(r.ci95[1], 1)],
                "lbr_total_bb": round(r.total_bb, 3),
                "target_total_bb": round(r.target_total_bb, 3),
                "exact_probabilities": r.exact,
                "seed": c.seed,
                "stack_bb": c.stack_bb,
                "preflop": c.preflop,
                "half_pot": c.half_pot,
                "particles": c.particles,
                "samples": c.samples,
                "runouts": c.runouts,
                "iterations": c.iterations,
                "lbr_actions": dict(sorted(s.actions.items())),
                "mean_holdings": round(s.particles / s.ranged, 1) if s.ranged else None,
                "collapses": s.collapses,
            }
        )
    return {"unit": "mbb/hand", "always_fold_mbb": ALWAYS_FOLD_MBB, "results": rows}


def write_lbr_chart(results: list[LbrResult], path: Path) -> None:
    write_lbr_chart_rows(lbr_json(results)["results"], path, _setting(results[0]))


def write_lbr_chart_rows(rows: list[dict[str, Any]], path: Path, subtitle: str = "") -> None:
    """The chart from `lbr_json` rows (so the results of several runs can share one)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    labels = [f"{r['target']}\n{r['game']}" for r in rows]
    means = np.array([r["mbb_per_hand"] for r in rows])
    low = np.array([r["ci95"][0] for r in rows])
    high = np.array([r["ci95"][1] for r in rows])
    errors = np.where(np.isfinite([means - low, high - means]), [means - low, high - means], 0.0)
    fig, ax = plt.subplots(figsize=(max(6.0, 1.3 * len(rows)), 5))
    try:
        x = np.arange(len(rows))
        ax.bar(x, means, 0.6, yerr=errors, capsize=4, color="tab:red", alpha=0.8)
        ax.axhline(ALWAYS_FOLD_MBB, color="black", linestyle="--", linewidth=1)
        ax.text(
            len(rows) - 0.5, ALWAYS_FOLD_MBB, " always-fold: 750", va="bottom", ha="right",
            fontsize="small",
        )  # fmt: skip
        ax.axhline(0, color="grey", linewidth=0.6)
        ax.set_xticks(x, labels)
        ax.set_ylabel("LBR's winnings (mbb per hand, 95% CI)")
        ax.set_yscale("symlog", linthresh=100)
        title = "Local Best Response: a lower bound on exploitability"
        ax.set_title(f"{title}\n{subtitle}" if subtitle else title, fontsize="small")
        ax.grid(axis="y", alpha=0.3)
        fig.tight_layout()
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=100)
    finally:
        plt.close(fig)
