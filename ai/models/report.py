"""The training report: cross-validated figures per street and player type, plots as PNG."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from ai.models.evaluation import BASELINES, CrossValidation
from ai.models.metrics import ACTIONS, Score, calibration

STREETS = np.asarray(("preflop", "flop", "turn", "river"))


def summary(cv: CrossValidation) -> dict[str, Any]:
    """The `--json` line: cross-validated figures of the model and the baselines."""
    overall = cv.overall()
    return {
        "examples": overall.examples,
        **overall.brief(),
        "brier": round(overall.brier, 4),
        "raise_recall": round(overall.raise_recall, 4),
        "folds": cv.folds,
        "baselines": {name: cv.baseline(name).brief() for name in BASELINES},
    }


def _row(name: str, s: Score) -> str:
    return (
        f"| {name} | {s.examples} | {100 * s.accuracy:.1f}% | {s.log_loss:.3f} | {s.brier:.3f} "
        f"| {100 * s.raise_recall:.1f}% |"
    )


def _table(title: str, groups: dict[str, dict[str, Score]]) -> list[str]:
    lines = [f"## {title}", "", "| | examples | accuracy | log-loss | Brier | raise recall |"]
    lines.append("|---|---|---|---|---|---|")
    for key, scores in groups.items():
        lines.append(_row(f"**{key}** model", scores["model"]))
        for name in BASELINES:
            lines.append(_row(f"{key} {name}", scores[name]))
    return [*lines, ""]


def write_report(
    cv: CrossValidation,
    out: Path,
    sources: str,
    conditioned: dict[str, Score] | None = None,
) -> Path:
    """report.md, metrics.json, confusion.png and calibration.png under `out`; with
    `conditioned`, the holding-conditioned accuracy (recorded matches) too."""
    out.mkdir(parents=True, exist_ok=True)
    overall = cv.overall()
    streets = STREETS[cv.data.street]
    types = cv.data.example_types()
    lines = [
        "# Opponent model: cross-validated report",
        "",
        f"Data: {sources}; {overall.examples} decisions of {len(cv.data.players)} players, "
        f"{cv.folds}-fold cross-validation by hand.",
        "",
        *_table("Overall", {"all": {"model": overall} | {n: cv.baseline(n) for n in BASELINES}}),
        *_table("Per street", cv.by(streets)),
        *_table("Per player type", cv.by(types)),
        "## Confusion (model; rows: actual, columns: predicted fold/call/raise)",
        "",
        *(f"- {ACTIONS[a]}: {row}" for a, row in enumerate(overall.confusion)),
        "",
        "![confusion](confusion.png) ![calibration](calibration.png)",
        "",
    ]
    if conditioned:
        lines += [
            "## Holding-conditioned (recorded matches: the prediction for the holding held)",
            "",
            "The ranges turn the model's public prediction into one per holding by strength;",
            "scored here with each actor's recorded cards (read only to score, never to train).",
            "",
            "| | examples | accuracy | raise recall |",
            "|---|---|---|---|",
            *(
                f"| {k} | {v.examples} | {100 * v.accuracy:.1f}% | {100 * v.raise_recall:.1f}% |"
                for k, v in conditioned.items()
            ),
            "",
        ]
    (out / "report.md").write_text("\n".join(lines), encoding="utf-8")
    payload = summary(cv) | {
        "holding_conditioned": {k: v.as_dict() for k, v in (conditioned or {}).items()},
        "per_street": {
            k: {m: s.as_dict() for m, s in v.items()} for k, v in cv.by(streets).items()
        },
        "per_type": {k: {m: s.as_dict() for m, s in v.items()} for k, v in cv.by(types).items()},
    }
    (out / "metrics.json").write_text(json.dumps(payload, indent=1), encoding="utf-8")
    _plots(cv, out)
    return out / "report.md"


def _plots(cv: CrossValidation, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    overall = cv.overall()
    matrix = np.asarray(overall.confusion, dtype=np.float64)
    shares = matrix / np.maximum(matrix.sum(axis=1, keepdims=True), 1)
    fig, ax = plt.subplots(figsize=(4.5, 4), dpi=100)
    try:
        ax.imshow(shares, cmap="Blues", vmin=0, vmax=1)
        for a in range(3):
            for p in range(3):
                color = "white" if shares[a, p] > 0.6 else "black"
                text = f"{100 * shares[a, p]:.0f}%\n{int(matrix[a, p])}"
                ax.text(p, a, text, ha="center", va="center", color=color, fontsize=9)
        ax.set_xticks(range(3), ACTIONS)
        ax.set_yticks(range(3), ACTIONS)
        ax.set_xlabel("predicted")
        ax.set_ylabel("actual")
        ax.set_title(f"Next action, accuracy {100 * overall.accuracy:.1f}%")
        fig.tight_layout()
        fig.savefig(out / "confusion.png")
    finally:
        plt.close(fig)
    fig, ax = plt.subplots(figsize=(5, 4.5), dpi=100)
    try:
        ax.plot([0, 1], [0, 1], color="grey", linestyle=":", linewidth=1)
        for a, rows in enumerate(calibration(cv.probs, cv.data.action)):
            if rows:
                predicted, observed, _ = zip(*rows, strict=True)
                ax.plot(predicted, observed, marker="o", label=ACTIONS[a])
        ax.set_xlabel("predicted probability")
        ax.set_ylabel("observed frequency")
        ax.set_title("Calibration (reliability)")
        ax.legend()
        fig.tight_layout()
        fig.savefig(out / "calibration.png")
    finally:
        plt.close(fig)
