"""Random multiway hands for the AI tests: a hand at a table of 200-chip stacks (the
button on seat 1) played by a chooser under one seeded RNG, each decision checked legal."""

from __future__ import annotations

import random
from collections.abc import Callable

from ai.game.observation import ActionRecord, Decision, Observation
from ai.game.observe import apply, observe
from ai.sim.rules import SimLegal
from ai.sim.state import SimState
from holdem.config import TableConfig

# The decision at `obs` (the RNG is the hand's), or None to stop the hand there.
Chooser = Callable[[Observation, random.Random], Decision | None]


def random_decision(legal: SimLegal, rng: random.Random) -> Decision:
    """Any legal kind, and a raise to any legal size."""
    kind = rng.choice(legal.kinds)
    to = rng.randint(legal.min_to, legal.max_to) if kind == legal.raise_kind else 0
    return Decision(kind, to)


def play_hand(config: TableConfig, seed: int, choose: Chooser) -> None:
    """One hand at `config`, every decision `choose`'s, to its end or `choose`'s None."""
    stacks = dict.fromkeys(range(1, config.seats + 1), 200)
    state = SimState.new_hand(config, stacks, 1, seed=seed)
    rng = random.Random(seed)
    history: list[ActionRecord] = []
    while not state.over:
        obs = observe(state, history)
        decision = choose(obs, rng)
        if decision is None:
            return
        assert decision.is_legal(obs.legal), (decision, obs.legal)
        apply(state, decision, history, obs)
