"""A fast Hold'em hand simulator with holdem.hand's exact rules, for bots and search.

state = SimState.new_hand(config, {1: 200, 4: 150}, button=4, rng=rng)
while not state.is_terminal():
    legal = state.legal_actions()
    state.apply(SimAction(CALL if legal.can_call else CHECK))
state.payoffs()
"""

from ai.sim.from_view import from_view, starting_stacks
from ai.sim.rollout import random_playout
from ai.sim.rules import (
    BET,
    CALL,
    CHECK,
    FLOP,
    FOLD,
    PREFLOP,
    RAISE,
    RIVER,
    SHOWDOWN,
    TURN,
    Rules,
    SimAction,
    SimLegal,
)
from ai.sim.showdown import settle
from ai.sim.state import SimState, to_indices

__all__ = [
    "BET",
    "CALL",
    "CHECK",
    "FLOP",
    "FOLD",
    "PREFLOP",
    "RAISE",
    "RIVER",
    "SHOWDOWN",
    "TURN",
    "Rules",
    "SimAction",
    "SimLegal",
    "SimState",
    "from_view",
    "random_playout",
    "settle",
    "starting_stacks",
    "to_indices",
]
