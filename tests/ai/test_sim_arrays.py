"""The compiled betting machine (ai.sim.arrays) is SimState's: same legal bounds at every
step and the same chips at the end, on random seeded hands and action sequences (Limit
and No-Limit, antes, short stacks: all-ins for less, side pots, split pots)."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ai.sim import arrays as A
from ai.sim.rules import BET
from ai.sim.state import SimState
from holdem.config import AnteMode, Straddle, TableConfig, Variant

SETTINGS = settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
EV = A.evaluator_tables()


def random_hand(seed: int, players: int, limit: bool, ante: int, home: str = "") -> SimState:
    """`home`: "bb-ante" (the big blind's ante), "utg"/"button" (a straddle, no-limit),
    "bomb" (a bomb pot): the home-game rules a table offers the bots."""
    rng = random.Random(seed)
    straddle = home in ("utg", "button")
    config = TableConfig(
        variant=Variant.LIMIT if limit and not straddle else Variant.NO_LIMIT,
        seats=players,
        small_blind=1,
        big_blind=2,
        ante=2 if home == "bb-ante" else ante,
        ante_mode=AnteMode.BIG_BLIND if home == "bb-ante" else AnteMode.EVERY_SEAT,
        straddle=Straddle(home) if straddle else Straddle.OFF,
        bomb_pot_ante=3 if home == "bomb" else 0,
    )
    stacks = {s: rng.choice((1, 2, 3, 5, 9, 14, 40, 200)) for s in range(1, players + 1)}
    button = rng.randint(1, players)
    bomb = home == "bomb"
    return SimState.new_hand(config, stacks, button, rng=rng, straddle=straddle, bomb_pot=bomb)


def visible(st: A.I64) -> A.I64:
    """The array with the queue's unused tail cleared (stale entries are not state)."""
    out = st.copy()
    out[A.QUEUE + out[A.QLEN] : A.QUEUE + 10] = 0
    return out


@SETTINGS
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 10),
    limit=st.booleans(),
    ante=st.sampled_from((0, 0, 1)),
    aggression=st.floats(0.0, 0.9),
    home=st.sampled_from(("", "", "", "bb-ante", "utg", "button", "bomb")),
)
def test_the_arrays_play_every_hand_as_simstate(
    seed: int, players: int, limit: bool, ante: int, aggression: float, home: str
) -> None:
    state = random_hand(seed, players, limit, ante, home)
    st_ = A.state_array(state)
    rules = A.rules_array(state.rules)
    holes, runout = A.cards_arrays(state)
    rng = random.Random(seed + 1)
    while not state.over:
        assert np.array_equal(visible(st_), A.state_array(state))
        legal = state.legal_actions()
        assert legal is not None
        i = legal.player
        assert st_[A.QUEUE] == i and A.to_call(st_, i) == legal.call_amount
        assert A.pot(st_) == state.pot
        ok, low, high = A.raise_bounds(st_, rules, i, legal.call_amount)
        if legal.raise_kind is None:
            assert not ok
        else:
            assert ok and (low, high) == (legal.min_to, legal.max_to)
            assert A.raise_kind(st_) == legal.raise_kind
        if legal.raise_kind is not None and rng.random() < aggression:
            kind = legal.raise_kind
            to = rng.choice((legal.min_to, legal.max_to, rng.randint(legal.min_to, legal.max_to)))
        else:
            kind = rng.choice([k for k in legal.kinds if k < BET])
            to = 0
        state.step(kind, to)
        A.step(st_, rules, kind, to, holes, runout, *EV)
    assert st_[A.OVER] == 1
    assert np.array_equal(visible(st_), A.state_array(state))
    assert [A.payoff(st_, i) for i in range(state.n)] == state.payoffs()
    assert sum(state.payoffs()) == 0  # no chip created or lost


def test_side_pots_and_split_pots_settle_as_simstate() -> None:
    """Everyone all in preflop with different stacks, many boards: the showdowns (main
    and side pots, ties, odd chips) pay what SimState pays."""
    config = TableConfig(variant=Variant.NO_LIMIT, seats=5, small_blind=1, big_blind=2, ante=1)
    for seed in range(400):
        rng = random.Random(seed)
        stacks = {s: rng.choice((3, 7, 7, 12, 30)) for s in range(1, 6)}
        state = SimState.new_hand(config, stacks, 5, rng=rng)
        st_ = A.state_array(state)
        rules = A.rules_array(state.rules)
        holes, runout = A.cards_arrays(state)
        while not state.over:
            legal = state.legal_actions()
            assert legal is not None
            kind, to = legal.kinds[-1], 0  # shove, else call
            if legal.raise_kind is not None:
                kind, to = legal.raise_kind, legal.max_to
            state.step(kind, to)
            A.step(st_, rules, kind, to, holes, runout, *EV)
        assert [A.payoff(st_, i) for i in range(state.n)] == state.payoffs(), seed
