"""The search answers legal actions on random states, and its abstraction is always legal."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from search_spots import bot

from ai.bots import STYLES, canonical_style, make_bot
from ai.bots.mcts import MctsBot
from ai.bots.registry import ARENA_STYLES
from ai.game.observation import ActionRecord, Observation
from ai.game.observe import observe, step_and_record
from ai.models.features import ALL_IN_BUCKET, SIZE_FRACTIONS
from ai.search.abstraction import bucket_amount, our_actions, size_bucket
from ai.search.mcts import RANDOM
from ai.search.profiles import DEFAULT, PROFILES, profile
from ai.sim.rules import BET, CALL, CHECK, FOLD
from ai.sim.state import SimState
from holdem.config import TableConfig, Variant

SETTINGS = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def random_spot(seed: int, players: int, limit: bool, actions: int) -> SimState:
    """A hand after up to `actions` random actions (stacks differ, so short all-ins happen)."""
    rng = random.Random(seed)
    variant = Variant.LIMIT if limit else Variant.NO_LIMIT
    config = TableConfig(variant=variant, seats=players, small_blind=1, big_blind=2)
    stacks = {s: rng.choice((3, 9, 40, 200, 400)) for s in range(1, players + 1)}
    state = SimState.new_hand(config, stacks, players, rng=rng)
    history: list[ActionRecord] = []
    for _ in range(actions):
        legal = state.legal_actions()
        if legal is None:
            break
        kind = rng.choice(legal.kinds)
        to = rng.randint(legal.min_to, legal.max_to) if kind >= BET else 0
        step_and_record(state, kind, to, history)
    return state


@SETTINGS
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 6),
    limit=st.booleans(),
    actions=st.integers(0, 14),
)
def test_the_bot_answers_a_legal_action_on_random_states(
    seed: int, players: int, limit: bool, actions: int
) -> None:
    state = random_spot(seed, players, limit, actions)
    if state.over:
        return
    obs = observe(state, [], hand_key=seed)
    decision = bot(iterations=40, seed=seed).decide(obs)
    assert decision.is_legal(obs.legal), (decision, obs.legal)
    if obs.legal.can_check:
        assert decision.kind != FOLD


@SETTINGS
@given(seed=st.integers(0, 10_000), players=st.integers(2, 6), actions=st.integers(0, 14))
def test_every_abstract_action_is_legal_and_sizes_translate_back(
    seed: int, players: int, actions: int
) -> None:
    state = random_spot(seed, players, False, actions)
    legal = state.legal_actions()
    if legal is None:
        return
    acts = our_actions(state.pot, legal, limit=False)
    assert len({(a.kind, a.to) for a in acts}) == len(acts)
    assert acts[0].kind in ((FOLD,) if legal.can_fold else (CHECK,))
    for act in acts:
        probe = state.clone()
        probe.step(act.kind, act.to)  # raises IllegalActionError when illegal
    if legal.raise_kind is None:
        return
    for bucket in range(len(SIZE_FRACTIONS) + 1):
        to = bucket_amount(state.pot, legal, bucket)
        assert legal.min_to <= to <= legal.max_to
        if legal.min_to < to < legal.max_to:  # not clamped: the size is the bucket's own
            assert size_bucket(state.pot, legal, to) == bucket
    assert size_bucket(state.pot, legal, legal.max_to) == ALL_IN_BUCKET


def test_limit_abstraction_is_fold_call_raise() -> None:
    state = random_spot(1, 3, True, 0)
    legal = state.legal_actions()
    assert legal is not None
    labels = [a.label for a in our_actions(state.pot, legal, limit=True)]
    assert labels == ["fold", "call", "raise"]
    assert CALL in [a.kind for a in our_actions(state.pot, legal, limit=True)]


def random_spot_obs() -> Observation:
    state = random_spot(4, 3, True, 5)
    return observe(state, [], hand_key=4)


def test_mcts_is_offered_first_and_the_arena_knows_its_profiles() -> None:
    assert STYLES[0] == "mcts"
    default = make_bot("mcts", 1)
    assert isinstance(default, MctsBot) and default.config == DEFAULT
    assert set(ARENA_STYLES) == {f"mcts-{name}" for name in PROFILES if name != "default"}
    assert len(ARENA_STYLES) <= 9  # the advisor and at most eight ablations
    for name in ARENA_STYLES:
        assert canonical_style(name) == name
        assert name not in STYLES  # arena only, never seated at a table
        made = make_bot(name, 1)
        assert isinstance(made, MctsBot) and made.config == PROFILES[name[len("mcts-") :]]
    frequency = make_bot("mcts-frequency", 1)
    assert isinstance(frequency, MctsBot) and frequency.model.learned is False
    generic = make_bot("mcts-generic", 1)
    assert isinstance(generic, MctsBot)
    generic.decide(random_spot_obs())
    assert not generic.book.players  # learns nothing about the players
    random_rollouts = make_bot("mcts-random", 1)
    assert isinstance(random_rollouts, MctsBot) and random_rollouts.config.search.rollout == RANDOM
    with pytest.raises(KeyError, match="unknown mcts profile"):
        profile("margin2")
