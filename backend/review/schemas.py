"""The hand review's REST bodies and its stored document."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

from holdem.actions import Action, Street
from holdem.wire_enum import WireEnum
from protocol.messages import ActionValue


class ReviewedDecision(BaseModel):
    event_index: int = Field(description="index in the hand's events of the action taken")
    street: Street
    taken: Action
    values: list[ActionValue] = Field(
        description="the advisor's value of each action it searched (bb, ± standard error)"
    )
    best: ActionValue
    matched: ActionValue | None = Field(
        description="the searched action the one taken was graded as (nearest No-Limit size)"
    )
    grade_bb: float | None = Field(
        description="value given up: best value minus that of the action taken, in bb"
    )
    grade_stderr_bb: float | None = Field(
        default=None, description="standard error of grade_bb, from the search's noise"
    )
    equity: float | None = None
    reason: str = ""


class HandReview(BaseModel):
    hand_id: str
    player_id: str
    seat: int
    big_blind: int
    computed_at: datetime
    decisions: list[ReviewedDecision]
    total_grade_bb: float = Field(description="value given up over the whole hand, in bb")


class ReviewState(WireEnum):
    WORKING = "working"  # waiting for or being computed by the AI workers
    DONE = "done"  # stored with the hand: asking again returns it
    FAILED = "failed"  # not computed (see message): asking again tries again


class ReviewStatus(BaseModel):
    hand_id: str
    status: ReviewState
    done: int = Field(description="decisions reviewed so far")
    total: int = Field(description="the player's decisions in the hand")
    message: str = ""
    review: HandReview | None = Field(default=None, description="when status is done")
