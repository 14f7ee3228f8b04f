"""`showdown train blueprint`: MCCFR in chunks, with checkpoints, a report and the artefact.

Every `eval_every` iterations the run records its convergence (mean positive regret per
visited information set, divided by T; how far the average strategy moved since the
last chunk; the sampled value) and, for Leduc, the exact exploitability; then it writes
`checkpoint.npz` (resumable: the samplers' states are in it, so a resumed run equals
an uninterrupted one). At the end: `blueprint.npz` (the artefact, see
`ai.policy.blueprint`), `report.json` and `convergence.png`.

With `best_response` > 0 the report also carries a best response to the final average
strategy learned in the abstract game for each seat (`ai.policy.limit.response`), that
many iterations each, valued on `response_deals` deals: a lower bound on the
exploitability within the abstraction, in milli-big-blinds per hand for hold'em.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from ai.policy.limit.game import HOLDEM_HU, LEDUC
from ai.policy.limit.holdem import HoldemAbstraction
from ai.policy.limit.leduc import LeducAbstraction
from ai.policy.limit.solver import MCCFR
from ai.policy.run_files import (
    GAMES,
    NWAY_GAMES,
    Note,
    TrainSettings,
    load_history,
    plot_history,
    save_history,
)

__all__ = ["GAMES", "NWAY_GAMES", "TrainSettings", "train"]


def make_solver(settings: TrainSettings) -> MCCFR:
    if settings.game == "leduc":
        return MCCFR(
            LEDUC, LeducAbstraction(), settings.seed, settings.batch, settings.discount_batches
        )
    if settings.game != "limit-hu":
        raise ValueError(f"unknown game {settings.game!r} (known: {', '.join(GAMES)})")
    abstraction = HoldemAbstraction(settings.hs_buckets)
    return MCCFR(HOLDEM_HU, abstraction, settings.seed, settings.batch, settings.discount_batches)


def _exact_exploitability(solver: MCCFR) -> float | None:
    if solver.game is not LEDUC:
        return None
    from ai.policy.cfr import exploitability
    from ai.policy.games.leduc import LeducPoker
    from ai.policy.limit.leduc import to_flat_strategy
    from ai.policy.tree import flatten

    flat = flatten(LeducPoker())
    return exploitability(
        flat, to_flat_strategy(solver.tree, solver.lay, solver.average_strategy(), flat)
    )


def train(
    settings: TrainSettings, out: Path, resume: Path | None = None, note: Note = print
) -> dict[str, Any]:
    """Train to `settings.iterations` in all (resuming from `resume`), write everything
    to `out`; returns the report."""
    if settings.eval_every % settings.batch or settings.iterations % settings.batch:
        raise ValueError(f"iterations and eval_every must be multiples of {settings.batch}")
    if settings.game in NWAY_GAMES:
        from ai.policy.nway.training import train_nway

        return train_nway(settings, out, resume, note)
    out.mkdir(parents=True, exist_ok=True)
    solver = make_solver(settings)
    history: list[dict[str, float]] = []
    if resume is not None:
        solver.load(resume)
        history = load_history(resume)
        note(f"resumed from {resume} at {solver.iterations} iterations")
    note(
        f"{settings.game}: {solver.lay.size} strategy entries, buckets {solver.lay.buckets}; "
        f"{settings.iterations - solver.iterations} iterations to go"
    )
    previous = solver.average_strategy()
    start = time.perf_counter()
    spent = history[-1]["seconds"] if history else 0.0
    while solver.iterations < settings.iterations:
        chunk = min(settings.eval_every, settings.iterations - solver.iterations)
        value = solver.run(chunk)
        current = solver.average_strategy()
        row = {
            "iterations": float(solver.iterations),
            "seconds": spent + time.perf_counter() - start,
            "mean_positive_regret": solver.mean_positive_regret(),
            "strategy_change": float(np.abs(current - previous).sum() / max(len(current), 1)),
            "sampled_value_p0": value,
        }
        exact = _exact_exploitability(solver)
        if exact is not None:
            row["exploitability"] = exact
        history.append(row)
        previous = current
        checkpoint = out / "checkpoint.npz"
        solver.save(checkpoint)
        save_history(out / "history.json", history)
        rate = chunk / max(
            row["seconds"] - (history[-2]["seconds"] if len(history) > 1 else spent), 1e-9
        )
        note(
            f"{solver.iterations}/{settings.iterations} iterations ({rate:,.0f}/s): "
            f"mean positive regret {row['mean_positive_regret']:.2e}"
            + (f", exploitability {exact:.4f}" if exact is not None else "")
        )
    report: dict[str, Any] = {"settings": asdict(settings), "history": history}
    if settings.best_response:
        report["best_response"] = _best_responses(solver, settings, note)
    if solver.game is HOLDEM_HU:
        from ai.policy.blueprint import write_artefact

        assert isinstance(solver.abstraction, HoldemAbstraction)
        report["artefact"] = write_artefact(
            out / "blueprint.npz", solver.tree, solver.lay, solver.abstraction, solver.average,
            {"iterations": solver.iterations, "seed": settings.seed},
        )  # fmt: skip
        note(f"artefact {out / 'blueprint.npz'}: {report['artefact']['version']}")
    (out / "report.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    plot_history(history, out / "convergence.png", settings.game)
    note(f"report {out / 'report.json'}, chart {out / 'convergence.png'}")
    return report


def _best_responses(solver: MCCFR, settings: TrainSettings, note: Note) -> dict[str, Any]:
    from ai.policy.limit.response import best_response

    # Chips per big blind: hold'em counts in small blinds; Leduc's ante plays the blind.
    per_bb = 2.0 if solver.game is HOLDEM_HU else 1.0
    fixed = solver.average_strategy()
    seats = []
    for responder in (0, 1):
        note(f"best response for seat {responder}: {settings.best_response} iterations")
        found = best_response(
            solver.game, solver.abstraction, fixed, responder, settings.best_response,
            settings.response_deals, seed=settings.seed + 1000 + responder,
        )  # fmt: skip
        seats.append(found)
        note(
            f"seat {responder} best response wins {1000 * found.value / per_bb:.0f} "
            f"± {1000 * found.half_width / per_bb:.0f} mbb/hand"
        )
    mean = 0.5 * (seats[0].value + seats[1].value)
    half = 0.5 * math.hypot(seats[0].half_width, seats[1].half_width)
    result: dict[str, Any] = {
        "iterations": settings.best_response,
        "deals": settings.response_deals,
        "seats_mbb": [1000 * s.value / per_bb for s in seats],
        "seats_ci95_mbb": [1000 * s.half_width / per_bb for s in seats],
        "exploitability_lower_bound_mbb": 1000 * mean / per_bb,
        "ci95_mbb": 1000 * half / per_bb,
    }
    note(
        f"abstract-game exploitability >= {result['exploitability_lower_bound_mbb']:.0f} "
        f"± {result['ci95_mbb']:.0f} mbb/hand (best responses' mean)"
    )
    return result
