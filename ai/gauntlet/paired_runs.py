"""Two gauntlet runs of the same deals compared deal by deal: a branch against main.

A change to the bot under test is measured by playing the same gauntlet (game, seats,
hands, seed, duplicate, stack) with main and with the branch, each with `--json`, which
keeps every deal's figure. The deals being the same, the difference of the two runs'
per-deal figures has each deal's card luck taken out and its interval is the paired
one; the two runs' own intervals side by side cannot tell a small change from noise.
The exact measures (`--exact`) and their decisions are paired the same way, so a change
aimed at one kind of decision can be seen there.

The first bot of each run is the one under test (the same style in both, in practice);
opponents, compared bots and decisions are matched by name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ai.gauntlet.run import rate_ci

# What makes two runs' deals the same.
SAME_DEALS = ("game", "seats", "hands_per_pair", "seed", "duplicate", "stack_bb")
CHIPS, EXACT = "chips", "exact"


@dataclass(frozen=True, slots=True)
class RunDifference:
    """The new run minus the base run on the same deals: bb/100 with the paired 95% CI."""

    measure: str  # CHIPS, EXACT, or EXACT + ": " + a decision of the exact breakdown
    opponent: str
    other: str | None  # the compared bot of an exact measure
    new_bb_per_100: float
    base_bb_per_100: float
    bb_per_100: float
    ci95: tuple[float, float]


def paired_runs(new: Mapping[str, Any], base: Mapping[str, Any]) -> list[RunDifference]:
    """Every measure both runs hold, new minus base deal by deal.

    Raises ValueError when the runs did not play the same deals, when a run was
    written without its per-deal figures, or when they share no measure.
    """
    for key in SAME_DEALS:
        if new.get(key) != base.get(key):
            raise ValueError(
                f"the runs did not play the same deals: {key} {new.get(key)!r} "
                f"against {base.get(key)!r}"
            )
    out: list[RunDifference] = []
    for opponent in new["opponents"]:
        ours = _cell(new, opponent)
        theirs = _cell(base, opponent)
        if ours is None or theirs is None:
            continue
        out.append(_difference(CHIPS, opponent, None, _figures(ours), _figures(theirs)))
        for exact in new.get("exact", []):
            if exact["opponent"] != opponent:
                continue
            other = exact["other"]
            match = next(
                (
                    e
                    for e in base.get("exact", [])
                    if (e["opponent"], e["other"]) == (opponent, other)
                ),
                None,
            )
            if match is None:
                continue
            a, b = _figures(exact), _figures(match)
            out.append(_difference(EXACT, opponent, other, a, b))
            out += _decisions(opponent, other, exact["rows"], match["rows"], len(a))
    if not out:
        raise ValueError("the runs share no opponent with the bot under test")
    return out


def _cell(run: Mapping[str, Any], opponent: str) -> Mapping[str, Any] | None:
    first = run["bots"][0]
    return next((c for c in run["cells"] if (c["bot"], c["opponent"]) == (first, opponent)), None)


def _figures(item: Mapping[str, Any]) -> npt.NDArray[np.float64]:
    if "per_deal_bb" not in item:
        raise ValueError(
            "a run has no per-deal figures (written before gauntlet --json kept them): "
            "play it again"
        )
    return np.asarray(item["per_deal_bb"], dtype=np.float64)


def _decisions(
    opponent: str,
    other: str,
    new_rows: Sequence[Mapping[str, Any]],
    base_rows: Sequence[Mapping[str, Any]],
    deals: int,
) -> list[RunDifference]:
    """The exact breakdown's decisions paired; a decision one run never met is 0 there."""
    ours = {r["decision"]: _dense(r, deals) for r in new_rows}
    theirs = {r["decision"]: _dense(r, deals) for r in base_rows}
    if not ours or not theirs:
        return []  # a breakdown is kept for the first compared bot only
    zero = np.zeros(deals)
    return [
        _difference(f"{EXACT}: {key}", opponent, other, ours.get(key, zero), theirs.get(key, zero))
        for key in sorted(ours.keys() | theirs.keys())
    ]


def _dense(row: Mapping[str, Any], deals: int) -> npt.NDArray[np.float64]:
    figures = np.zeros(deals)
    figures[np.asarray(row["deals"], dtype=np.int64)] = _figures(row)
    return figures


def _difference(
    measure: str,
    opponent: str,
    other: str | None,
    new: npt.NDArray[np.float64],
    base: npt.NDArray[np.float64],
) -> RunDifference:
    if new.shape != base.shape:
        raise ValueError(f"{measure} against {opponent}: the runs hold different numbers of deals")
    rate, ci = rate_ci(new - base)
    return RunDifference(measure, opponent, other, rate_ci(new)[0], rate_ci(base)[0], rate, ci)


def is_decision(d: RunDifference) -> bool:
    """A decision of an exact measure's breakdown, not a measure of the whole."""
    return d.measure.startswith(f"{EXACT}: ")


def label(d: RunDifference) -> str:
    if is_decision(d):
        return d.measure.removeprefix(f"{EXACT}: ")
    return d.measure if d.other is None else f"{d.measure} minus {d.other}"


def format_paired(differences: Sequence[RunDifference], top: int = 12) -> str:
    """The measures, then under each exact measure its decisions that moved most."""
    lines = ["new minus base on the same deals, bb/100 [95% CI]:"]
    width = max((len(label(d)) for d in differences), default=0) + 4
    for opponent in dict.fromkeys(d.opponent for d in differences):
        lines.append(f"against {opponent}:")
        mine = [d for d in differences if d.opponent == opponent]
        for d in mine:
            if is_decision(d):
                continue
            lines.append(f"  {label(d):<{width}}{_line(d)}")
            if d.measure == EXACT:
                decisions = [e for e in mine if is_decision(e) and e.other == d.other]
                for e in sorted(decisions, key=lambda e: -abs(e.bb_per_100))[:top]:
                    lines.append(f"    {label(e):<{width - 2}}{_line(e)}")
    return "\n".join(lines)


def _line(d: RunDifference) -> str:
    lo, hi = d.ci95
    return (
        f"new {d.new_bb_per_100:+8.2f}  base {d.base_bb_per_100:+8.2f}  "
        f"new - base {d.bb_per_100:+7.2f} [{lo:+.2f}, {hi:+.2f}]"
    )


def paired_json(differences: Sequence[RunDifference]) -> list[dict[str, Any]]:
    return [
        {
            "measure": d.measure,
            "opponent": d.opponent,
            "other": d.other,
            "new_bb_per_100": round(d.new_bb_per_100, 3),
            "base_bb_per_100": round(d.base_bb_per_100, 3),
            "bb_per_100": round(d.bb_per_100, 3),
            "ci95": [round(d.ci95[0], 3), round(d.ci95[1], 3)],
        }
        for d in differences
    ]
