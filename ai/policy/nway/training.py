"""`showdown train blueprint --game nolimit-hu|limit-3max|nolimit-6max|limit-6max`: n-player
MCCFR in chunks.

As `ai.policy.training` for heads-up Limit: progress after every chunk, a resumable
checkpoint, `report.json` (settings; per chunk: iterations, seconds, mean positive
regret / T, the average strategy's mean change, each seat's sampled value in
milli-big-blinds), `convergence.png` and the artefact `blueprint.npz`
(`ai.policy.nway.artefact`). No exact exploitability here: the No-Limit blueprint is
measured by LBR (`showdown lbr`), the multiway one in arenas.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from ai.policy.nway.artefact import write
from ai.policy.nway.cards import NWayHoldem
from ai.policy.nway.games import GAMES
from ai.policy.nway.solver import NWayMCCFR
from ai.policy.nway.tree import build_tree
from ai.policy.run_files import Note, TrainSettings, load_history, plot_history, save_history


def make_solver(settings: TrainSettings) -> NWayMCCFR:
    game = GAMES[settings.game]
    cards = NWayHoldem(game.n, settings.hs_buckets)
    return NWayMCCFR(
        build_tree(game), cards, settings.seed, settings.batch, settings.discount_batches
    )


def train_nway(
    settings: TrainSettings, out: Path, resume: Path | None, note: Note
) -> dict[str, Any]:
    out.mkdir(parents=True, exist_ok=True)
    solver = make_solver(settings)
    history: list[dict[str, float]] = []
    if resume is not None:
        solver.load(resume)
        history = load_history(resume)
        note(f"resumed from {resume} at {solver.iterations} iterations")
    note(
        f"{settings.game}: {solver.tree.n_nodes} nodes, {solver.lay.size} strategy entries, "
        f"buckets {solver.lay.buckets}; {settings.iterations - solver.iterations} to go"
    )
    per_bb = float(solver.tree.game.big_blind)
    previous = solver.average_strategy()
    start = time.perf_counter()
    spent = history[-1]["seconds"] if history else 0.0
    while solver.iterations < settings.iterations:
        chunk = min(settings.eval_every, settings.iterations - solver.iterations)
        values = solver.run(chunk)
        current = solver.average_strategy()
        both = np.isfinite(current) & np.isfinite(previous)
        row: dict[str, float] = {
            "iterations": float(solver.iterations),
            "seconds": spent + time.perf_counter() - start,
            "mean_positive_regret": solver.mean_positive_regret(),
            "strategy_change": float(np.abs(current - previous)[both].sum() / max(both.sum(), 1)),
            "visited": float(np.isfinite(current).mean()),
        }
        for p, v in enumerate(values):
            row[f"sampled_mbb_p{p}"] = 1000.0 * float(v) / per_bb
        history.append(row)
        previous = current
        solver.save(out / "checkpoint.npz")
        save_history(out / "history.json", history)
        took = row["seconds"] - (history[-2]["seconds"] if len(history) > 1 else spent)
        note(
            f"{solver.iterations}/{settings.iterations} iterations ({chunk / max(took, 1e-9):,.0f}"
            f"/s): mean positive regret {row['mean_positive_regret']:.2e}, "
            f"visited {100 * row['visited']:.0f}% of the entries"
        )
    report: dict[str, Any] = {"settings": asdict(settings), "history": history}
    assert isinstance(solver.cards, NWayHoldem)
    report["artefact"] = write(
        out / "blueprint.npz", solver.tree, solver.lay, solver.cards.base, solver.average,
        {"iterations": solver.iterations, "seed": settings.seed},
    )  # fmt: skip
    note(f"artefact {out / 'blueprint.npz'}: {report['artefact']['version']}")
    (out / "report.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    plot_history(history, out / "convergence.png", settings.game)
    note(f"report {out / 'report.json'}, chart {out / 'convergence.png'}")
    return report
