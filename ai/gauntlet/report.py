"""The gauntlet's results as a table for people and as JSON."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ai.gauntlet.run import Cell, Difference, ExactDifference, ExactRow, GauntletResult


def _ci(ci: tuple[float, float]) -> str:
    return f"[{ci[0]:.1f}, {ci[1]:.1f}]"


def format_gauntlet(result: GauntletResult) -> str:
    config = result.config
    mode = "duplicate" if config.duplicate else "plain"
    lines = [
        f"gauntlet: {config.game.value}, {config.seats} seats, {config.hands_per_pair} hands "
        f"per pair ({mode}), seed {config.seed}; bb/100 of our bot [95% CI]",
    ]
    width = max(len(b) for b in config.bots) + 2
    for opponent in config.opponents:
        lines.append(f"against {opponent}:")
        for bot in config.bots:
            c = result.cell(bot, opponent)
            lines.append(f"  {bot:<{width}}{c.bb_per_100:>9.1f} {_ci(c.ci95):>22}")
        best = result.best_other(opponent)
        if best is not None:
            lines.append(
                f"  {best.bot} - best other ({best.other}): {best.bb_per_100:+.1f} {_ci(best.ci95)}"
            )
        for e in result.exact:
            if e.opponent == opponent:
                lines.append(
                    f"  {e.bot} - {e.other}, exact per decision: {e.bb_per_100:+.1f} "
                    f"{_ci(e.ci95)} (chips: {_chips(result, e)}; {e.other}'s exact value "
                    f"{e.other_bb_per_100:+.1f} {_ci(e.other_ci95)})"
                )
    return "\n".join(lines)


def _chips(result: GauntletResult, e: ExactDifference) -> str:
    d = next(d for d in result.differences() if d.opponent == e.opponent and d.other == e.other)
    return f"{d.bb_per_100:+.1f} {_ci(d.ci95)}"


def format_exact_rows(e: ExactDifference, top: int = 12) -> str:
    """The decisions where the first bot's advantages over `e.other` add up most."""
    lines = [f"{e.bot} - {e.other} against {e.opponent} by decision (bb/100 of the whole):"]
    rows = sorted(e.rows, key=lambda r: -abs(r.bb_per_100))[:top]
    lines += [f"  {r.key:<38}{r.decisions:>7} {r.bb_per_100:>+8.2f} {_ci(r.ci95)}" for r in rows]
    return "\n".join(lines)


def _cell_json(c: Cell) -> dict[str, Any]:
    return {
        "bot": c.bot,
        "opponent": c.opponent,
        "hands": c.hands,
        "bb_per_100": round(c.bb_per_100, 3),
        "ci95": [round(c.ci95[0], 3), round(c.ci95[1], 3)],
        "total_bb": round(c.total_bb, 3),
        "opponents_total_bb": round(c.opponents_total_bb, 3),
        "per_deal_bb": _samples(c.per_deal),
    }


def _samples(per_deal: npt.NDArray[np.float64]) -> list[float]:
    """One figure per deal, for paired comparisons of two runs (`ai.gauntlet.paired_runs`)."""
    return [round(float(x), 6) for x in per_deal]


def _difference_json(d: Difference) -> dict[str, Any]:
    return {
        "opponent": d.opponent,
        "bot": d.bot,
        "other": d.other,
        "bb_per_100": round(d.bb_per_100, 3),
        "ci95": [round(d.ci95[0], 3), round(d.ci95[1], 3)],
    }


def _row_json(r: ExactRow) -> dict[str, Any]:
    # A row is 0 on most deals: only the others are listed (`deals`, their figures).
    (deals,) = np.nonzero(r.per_deal)
    return {
        "decision": r.key,
        "decisions": r.decisions,
        "bb_per_100": round(r.bb_per_100, 3),
        "ci95": [round(r.ci95[0], 3), round(r.ci95[1], 3)],
        "deals": [int(d) for d in deals],
        "per_deal_bb": _samples(r.per_deal[deals]),
    }


def _exact_json(e: ExactDifference) -> dict[str, Any]:
    return {
        "opponent": e.opponent,
        "bot": e.bot,
        "other": e.other,
        "bb_per_100": round(e.bb_per_100, 3),
        "ci95": [round(e.ci95[0], 3), round(e.ci95[1], 3)],
        "other_bb_per_100": round(e.other_bb_per_100, 3),
        "other_ci95": [round(e.other_ci95[0], 3), round(e.other_ci95[1], 3)],
        "per_deal_bb": _samples(e.per_deal),
        "rows": [_row_json(r) for r in e.rows],
    }


def gauntlet_json(result: GauntletResult) -> dict[str, Any]:
    config = result.config
    best = [result.best_other(o) for o in config.opponents]
    return {
        "game": config.game.value,
        "seats": config.seats,
        "hands_per_pair": config.hands_per_pair,
        "seed": config.seed,
        "duplicate": config.duplicate,
        "stack_bb": config.stack_bb,
        "bots": list(config.bots),
        "opponents": list(config.opponents),
        "cells": [_cell_json(c) for c in result.cells],
        "differences": [_difference_json(d) for d in result.differences()],
        "best_other": [_difference_json(d) for d in best if d is not None],
        "exact": [_exact_json(e) for e in result.exact],
    }
