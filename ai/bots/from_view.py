"""An Observation from the TableView a server sends.

ai.sim rebuilds the exact betting state from the view (starting stacks from the
public events, then a replay of the actions); the other players' hole cards in
it are random placeholders a bot must re-deal before using (Observation.sim).
The public action records (what each actor faced, the pot before) come from a
second replay of the same events, recorded as the arena records them.
"""

from __future__ import annotations

import random

from ai.game.observation import ActionRecord, Observation
from ai.game.observe import observe, step_and_record
from ai.sim import from_view, starting_stacks
from ai.sim.from_view import SIM_ACTIONS
from ai.sim.state import SimState
from holdem.views import TableView


class ReplayError(ValueError):
    """The view is not a live hand in which the viewer is to act."""


def action_history(view: TableView, state: SimState) -> list[ActionRecord]:
    """The view's actions as ActionRecords, by replaying them on a copy of the hand's start."""
    start = starting_stacks(view)
    fresh = SimState(
        state.rules,  # the hand's: a straddle or a bomb pot as dealt
        state.seats,
        [start[seat] for seat in state.seats],
        state.holes,
        state.runout,
    )
    history: list[ActionRecord] = []
    for event in view.events:
        kind = SIM_ACTIONS.get(event.kind)
        if kind is not None:
            step_and_record(fresh, kind, event.amount or 0, history)
    return history


def observation_from_view(view: TableView, seed: int = 0) -> Observation:
    """The viewer's Observation; raises ReplayError when it is not the viewer's turn."""
    try:
        state = from_view(view, random.Random(seed))
    except ValueError as error:
        raise ReplayError(str(error)) from error
    if state.actor != view.viewer_seat:
        raise ReplayError(f"seat {state.actor} is to act, not the viewer")
    by_seat = {s.seat: s.player_id for s in view.seats}
    return observe(
        state,
        action_history(view, state),
        hand_key=(view.table_id, view.hand_no),
        players=[by_seat[seat] for seat in state.seats],
    )
