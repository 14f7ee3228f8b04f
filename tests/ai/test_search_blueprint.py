"""The search on the blueprint (#33): our heads-up Limit preflop play is the blueprint's,
and each opponent's policy is the blueprint moved towards its model by the evidence."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from search_spots import LIMIT2, bot, spot
from test_search_legal import SETTINGS, random_spot

from ai.game.observe import observe
from ai.models.model import ModelSet, OpponentModel
from ai.models.stats import crowd_of
from ai.policy.blueprint import default_blueprint
from ai.search.blueprint_prior import blueprint_shares, evidence_weight
from ai.search.opponents import build_tables
from ai.search.profiles import DEFAULT, profile
from ai.sim.rules import BET, CALL, CHECK, FOLD, RAISE, RIVER

# The button (index 1) acts first preflop; the big blind (index 0) first after.
RIVER_SPOT = dict(
    holes={1: "7h2d"},
    actions=[(CALL, 0), (CHECK, 0)] + [(CHECK, 0), (CHECK, 0)] * 2,
    board="AsKd9c5h3s",
)


def river_spot() -> object:
    return spot(LIMIT2, RIVER_SPOT["holes"], RIVER_SPOT["actions"], board=RIVER_SPOT["board"])


def seen_playing(model: OpponentModel, player: str, policy: tuple[float, float, float]) -> None:
    """`player` seen making 20,000 decisions in every context with the fixed `policy`."""
    stats = model.book.get(player)
    counts = 20_000 / 12 * np.array(policy)
    stats.counts[:] = counts
    stats.crowd_counts[:] = 0.0
    stats.crowd_counts[:, :, crowd_of(2)] = counts
    stats.touch()


def test_blueprint_shares_are_distributions_and_never_fold_for_free() -> None:
    shares = blueprint_shares()
    assert shares.shape == (2, 4, 3, 3)
    assert np.allclose(shares.sum(axis=-1), 1.0)
    assert np.allclose(shares[:, :, 0, 0], 0.0)


def test_with_no_data_the_search_plays_against_the_blueprint() -> None:
    obs = river_spot()
    assert obs.limit and obs.n == 2 and obs.index == 0
    model = OpponentModel(ModelSet.frequency_only())
    tables = build_tables(obs, model, prior=blueprint_shares(), evidence_k=DEFAULT.evidence_k)
    assert np.allclose(tables.shares[1], blueprint_shares()[1])


def test_with_many_decisions_of_a_fixed_policy_the_search_moves_to_it() -> None:
    obs = river_spot()
    model = OpponentModel(ModelSet.frequency_only())
    folder = (1.0, 0.0, 0.0)  # folds to every bet
    seen_playing(model, obs.player_id(1), folder)
    tables = build_tables(obs, model, prior=blueprint_shares(), evidence_k=DEFAULT.evidence_k)
    facing = tables.shares[1, RIVER, 1]
    assert facing[0] > 0.95, facing
    assert abs(facing[0] - 1.0) < abs(blueprint_shares()[1, RIVER, 1, 0] - 1.0)
    assert evidence_weight(0, 200.0) == 0.0 and evidence_weight(200, 200.0) == 0.5


def test_the_choice_converges_to_the_best_response_against_a_known_folder() -> None:
    """Seven-high on the river against a player seen folding to every bet: bluff."""
    obs = river_spot()
    mcts = bot(iterations=400, search_preflop=False)
    seen_playing(mcts.model, obs.player_id(1), (1.0, 0.0, 0.0))
    assert mcts.decide(obs).kind == BET


def test_against_a_known_calling_station_seven_high_does_not_bluff() -> None:
    obs = river_spot()
    mcts = bot(iterations=400, search_preflop=False)
    seen_playing(mcts.model, obs.player_id(1), (0.0, 1.0, 0.0))
    assert mcts.decide(obs).kind == CHECK


def test_the_preflop_seam_plays_the_blueprint_at_heads_up_limit() -> None:
    """Seven-deuce on the button: the blueprint folds, Loki's rules (the ablation) call."""
    obs = spot(LIMIT2, {2: "7h2d"}, [])
    assert default_blueprint().action_probabilities(obs)[FOLD] == 1.0
    assert bot(search_preflop=False).decide(obs).kind == FOLD
    assert bot(search_preflop=False, config=profile("noblueprint")).decide(obs).kind == CALL


def test_preflop_samples_follow_the_blueprints_mixed_strategy() -> None:
    obs = spot(LIMIT2, {2: "Td4s"}, [])  # the blueprint mixes fold, call and raise
    probs = default_blueprint().action_probabilities(obs)
    kinds = [bot(search_preflop=False, seed=s).decide(obs).kind for s in range(300)]
    for kind in (FOLD, CALL, RAISE):
        assert abs(kinds.count(kind) / 300 - probs[kind]) < 0.1, (kind, probs)


@SETTINGS
@given(seed=st.integers(0, 10_000), actions=st.integers(0, 14))
def test_legal_actions_on_random_heads_up_limit_states(seed: int, actions: int) -> None:
    state = random_spot(seed, 2, True, actions)
    if state.over:
        return
    obs = observe(state, [], hand_key=seed)
    decision = bot(iterations=40, seed=seed, search_preflop=False).decide(obs)
    assert decision.is_legal(obs.legal), (decision, obs.legal)
    if obs.legal.can_check:
        assert decision.kind != FOLD
