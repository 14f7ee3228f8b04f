"""Every bot answers only legal actions, in any reachable simulator state (property test)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ai.bots import STYLES, Bot, make_bot
from ai.bots.mcts import make_mcts
from ai.bots.poki import PokiBot
from ai.game.observation import ActionRecord, Decision
from ai.game.observe import apply, observe
from ai.sim.state import SimState
from holdem.config import TableConfig, Variant

# Legality does not depend on how long a bot thinks: the search on a small iteration
# budget (its default, 8,000 a No-Limit decision, is most of this file's time).
SEARCH_ITERATIONS = 64


def bots(seed: int) -> list[Bot]:
    made = [
        make_mcts(seed, iterations=SEARCH_ITERATIONS) if style == "mcts" else make_bot(style, seed)
        for style in STYLES
    ]
    for bot in made:
        if isinstance(bot, PokiBot):
            bot.rollouts = 20  # legality does not depend on how long it thinks
            bot.simulate_preflop = True
    return made


@st.composite
def states(draw: st.DrawFn) -> tuple[SimState, list[ActionRecord], int]:
    """A hand at a random table, played forward a random number of random legal actions."""
    variant = draw(st.sampled_from([Variant.LIMIT, Variant.NO_LIMIT]))
    players = draw(st.integers(2, 10))
    big_blind = draw(st.sampled_from([2, 4, 10]))
    config = TableConfig(
        variant=variant,
        seats=players,
        small_blind=big_blind // 2,
        big_blind=big_blind,
        ante=draw(st.sampled_from([0, 0, 1])),
    )
    button = draw(st.integers(1, players))
    seed = draw(st.integers(0, 2**31))
    rng = random.Random(seed)
    # Short and deep stacks together (all-ins, side pots, short raises); odd chip counts.
    stacks = {
        seat: rng.randint(1, 8 * big_blind)
        if rng.random() < 0.25
        else rng.randint(20, 150) * big_blind
        for seat in range(1, players + 1)
    }
    state = SimState.new_hand(config, stacks, button, seed=seed)
    history: list[ActionRecord] = []
    # Mostly check/call so that hands reach every street; stop at a random later decision.
    target_street = draw(st.integers(0, 3))
    extra = draw(st.integers(0, 6))
    while not state.over and (state.street < target_street or extra > 0):
        if state.street >= target_street:
            extra -= 1
        obs = observe(state, history)
        legal = obs.legal
        roll = rng.random()
        if legal.raise_kind is not None and roll < 0.2:
            kind, to = legal.raise_kind, rng.randint(legal.min_to, legal.max_to)
        elif legal.can_fold and roll > 0.93:
            kind, to = 0, 0
        else:
            kind, to = (1 if legal.can_check else 2), 0
        apply(state, Decision(kind, to), history, obs)
    return state, history, seed


@settings(
    max_examples=80,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(states())
def test_every_bot_answers_a_legal_action(spot: tuple[SimState, list[ActionRecord], int]) -> None:
    state, history, seed = spot
    if state.over:
        return
    for bot in bots(seed):
        obs = observe(state.clone(), history, hand_key=seed)
        decision = bot.decide(obs)
        assert decision.is_legal(obs.legal), (bot.style, decision, obs.legal)
        # ... and the simulator agrees.
        trial = state.clone()
        trial.step(decision.kind, decision.to)


def test_bots_play_whole_hands_legally_at_every_table_size() -> None:
    for variant in (Variant.LIMIT, Variant.NO_LIMIT):
        for players in (2, 3, 6, 10):
            config = TableConfig(variant=variant, seats=players, small_blind=1, big_blind=2)
            styles = [STYLES[(players + k) % len(STYLES)] for k in range(players)]
            seated = [make_bot(style, k) for k, style in enumerate(styles)]
            for bot in seated:
                if isinstance(bot, PokiBot):
                    bot.rollouts = 20
            for hand in range(4):
                stacks = {seat: 40 + 37 * seat for seat in range(1, players + 1)}
                state = SimState.new_hand(config, stacks, hand % players + 1, seed=hand)
                history: list[ActionRecord] = []
                while not state.over:
                    obs = observe(state, history, hand_key=(players, hand))
                    decision = seated[state.seats.index(obs.seat)].decide(obs)
                    assert decision.is_legal(obs.legal)
                    apply(state, decision, history, obs)
                assert sum(state.payoffs()) == 0
