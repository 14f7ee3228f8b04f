"""Playing a simulated hand to the end with a random policy (benchmarks, rollouts)."""

from __future__ import annotations

import random

from ai.sim.rules import BET
from ai.sim.state import SimState


def random_playout(state: SimState, rng: random.Random) -> None:
    """Uniform over the legal kinds, then uniform over the bet/raise amounts, to the end.

    The same policy as showdown.benchmarks.engine.random_action, so rates compare.
    """
    random_ = rng.random
    while not state.over:
        legal = state.legal_actions()
        assert legal is not None
        kinds = legal.kinds
        kind = kinds[int(random_() * len(kinds))]
        if kind >= BET:
            low = legal.min_to
            state.step(kind, low + int(random_() * (legal.max_to - low + 1)))
        else:
            state.step(kind)
