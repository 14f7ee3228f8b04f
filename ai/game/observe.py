"""Observations from the fast simulator, and applying a bot's decision to it.

The arena, poki's rollouts and the worker (after replaying a TableView into a
SimState, see `ai.bots.from_view`) all observe through `observe`, so a bot sees
the same thing everywhere.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from ai.game.observation import ActionRecord, Decision, Observation
from ai.sim.rules import BET, CALL
from ai.sim.state import SimState


def observe(
    state: SimState,
    history: Sequence[ActionRecord],
    hand_key: Hashable = 0,
    players: Sequence[str] = (),
) -> Observation:
    """The actor's observation. Sequences alias the live state (see Observation)."""
    legal = state.legal_actions()
    assert legal is not None, "nobody is to act"
    i = legal.player
    rules = state.rules
    # Positional, in field order: this runs once per decision in the arena's hot loop.
    return Observation(
        rules.is_limit,
        rules.big_blind,
        i,
        state.seats,
        state.holes[i],
        state.runout[: state.board_len],
        state.street,
        sum(state.contrib) + sum(state.bets),  # the pot
        legal,
        state.stacks,
        state.bets,
        state.contrib,
        state.in_hand,
        state.n_in_hand,
        history,
        rules.min_increment,
        hand_key,
        players,
        state,
    )


def apply(
    state: SimState, decision: Decision, history: list[ActionRecord], obs: Observation
) -> None:
    """Apply the decision taken on `obs` (the current observation of `state`) and append
    its public record: what the actor faced and the pot before."""
    i = obs.index
    to_call = obs.legal.call_amount
    kind = decision.kind
    to = decision.to if kind >= BET else (state.bets[i] + to_call if kind == CALL else 0)
    state.step(kind, to if kind >= BET else 0)
    history.append(ActionRecord(i, obs.street, kind, to, to_call, obs.pot))


def step_and_record(state: SimState, kind: int, to: int, history: list[ActionRecord]) -> None:
    """Apply an action given by kind and street total, recording it (replays, tests)."""
    i = state.queue[0]
    to_call = min(state.stacks[i], state.max_bet - state.bets[i])
    pot = state.pot
    street = state.street
    if kind < BET:
        to = state.bets[i] + to_call if kind == CALL else 0
    state.step(kind, to if kind >= BET else 0)
    history.append(ActionRecord(i, street, kind, to, to_call, pot))
