"""Grading one decision: the value the action taken gave up against the best one.

The advisor values a few abstract actions (fold, check or call, some bet or raise
sizes); a No-Limit bet of any other size is graded as the searched size of the
same kind nearest to it. Values are in big blinds relative to folding now, so a
fold is worth exactly 0 even where the advisor did not list it.
"""

from __future__ import annotations

import math

from pydantic import BaseModel, Field

from holdem.actions import Action, ActionKind
from protocol.messages import ActionValue

_AGGRESSIVE = (ActionKind.BET, ActionKind.RAISE)


class Grade(BaseModel):
    best: ActionValue = Field(description="the advisor's most valuable action")
    matched: ActionValue | None = Field(
        description="the advisor's action the one taken was graded as (nearest size)"
    )
    grade_bb: float | None = Field(
        ge=0, description="value of the best action minus that of the action taken, in bb"
    )
    grade_stderr_bb: float | None = Field(
        default=None,
        ge=0,
        description="standard error of grade_bb (the two values' errors, as if independent)",
    )


def match_taken(values: list[ActionValue], taken: Action) -> ActionValue | None:
    """The advisor's entry for the action taken: same kind, nearest amount for bets."""
    if taken.kind in _AGGRESSIVE:
        sized = [v for v in values if v.action in _AGGRESSIVE]
        if not sized:
            return None
        to = taken.amount or 0
        return min(sized, key=lambda v: (abs((v.amount or to) - to), v.amount or 0))
    same = next((v for v in values if v.action is taken.kind), None)
    if same is None and taken.kind is ActionKind.FOLD:
        return ActionValue(action=ActionKind.FOLD, value_bb=0.0, stderr_bb=0.0)
    return same


def grade(values: list[ActionValue], taken: Action) -> Grade:
    if not values:
        raise ValueError("nothing to grade against: the advisor gave no values")
    best = max(values, key=lambda v: v.value_bb)
    matched = match_taken(values, taken)
    given_up = None if matched is None else round(max(0.0, best.value_bb - matched.value_bb), 3)
    return Grade(
        best=best, matched=matched, grade_bb=given_up, grade_stderr_bb=_spread(best, matched)
    )


def _spread(best: ActionValue, matched: ActionValue | None) -> float | None:
    """How far the grade could be off from the search's noise; None when unknown."""
    if matched is None or best.stderr_bb is None or matched.stderr_bb is None:
        return None
    if best == matched:
        return 0.0
    return round(math.hypot(best.stderr_bb, matched.stderr_bb), 3)
