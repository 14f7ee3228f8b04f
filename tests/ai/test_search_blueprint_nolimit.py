"""The search on the No-Limit heads-up blueprint (#33): our preflop play is the
blueprint's (its sizes too), and each unknown opponent's policy in the search, its
action shares and bet sizes, is the blueprint's at that spot."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from search_spots import NL2, bot, spot
from test_search_legal import SETTINGS, random_spot

from ai.game.observation import Observation
from ai.game.observe import observe
from ai.models.model import ModelSet, OpponentModel
from ai.models.stats import crowd_of
from ai.policy.nway.lookup import shipped
from ai.search.blueprint_prior import nway_prior, prior_for, size_bucket_of
from ai.search.opponents import build_tables
from ai.search.profiles import ADVISOR, DEFAULT, profile
from ai.sim.rules import BET, CALL, CHECK, FLOP, FOLD, RAISE


# The big blind (index 0) checks the flop to the button (index 1) after a limp.
def seen_raising(model: OpponentModel, player: str) -> None:
    """`player` seen making 20,000 decisions, every one a bet or raise."""
    stats = model.book.get(player)
    counts = 20_000 / 12 * np.array((0.0, 0.0, 1.0))
    stats.counts[:] = counts
    stats.crowd_counts[:] = 0.0
    stats.crowd_counts[:, :, crowd_of(2)] = counts
    stats.touch()


def flop_spot() -> Observation:
    return spot(NL2, {1: "7h2d"}, [(CALL, 0), (CHECK, 0)], board="AsKd9c")


def test_the_nolimit_prior_is_distributions_and_never_folds_for_free() -> None:
    shares, sizes = nway_prior("nolimit-hu")
    assert shares.shape == (2, 4, 3, 3) and sizes.shape == (2, 4, 3, 6)
    assert np.allclose(shares.sum(axis=-1), 1.0)
    assert np.allclose(sizes.sum(axis=-1), 1.0)
    assert np.allclose(shares[:, :, 0, 0], 0.0)
    # The tree bets half pot, pot or all-in: only those buckets carry the blueprint's bets.
    assert [size_bucket_of(f) for f in (0.5, 1.0, -1.0)] == [1, 3, 5]
    assert np.allclose(sizes[1, FLOP, 0, [0, 2, 4]], 0.0)


def test_with_no_data_the_search_plays_against_the_nolimit_blueprint() -> None:
    obs = flop_spot()
    assert not obs.limit and obs.n == 2 and obs.index == 0 and obs.street == FLOP
    prior = prior_for(obs)
    assert prior is not None and prior[1] is not None
    model = OpponentModel(ModelSet.frequency_only())
    tables = build_tables(
        obs, model, prior=prior[0], evidence_k=DEFAULT.evidence_k, prior_sizes=prior[1]
    )
    shares, sizes = nway_prior("nolimit-hu")
    assert np.allclose(tables.shares[1], shares[1])
    assert np.allclose(tables.sizes[1], sizes[1])


def test_the_preflop_seam_plays_the_nolimit_blueprint_and_its_size() -> None:
    """Aces on the button: the blueprint raises to one of its sizes; the search does not
    resize it (its raises are the blueprint's own (kind, total) keys)."""
    obs = spot(NL2, {2: "AhAd"}, [])
    probs = shipped("nolimit-hu").action_probabilities(obs)
    for seed in range(8):
        decision = bot(search_preflop=False, seed=seed, iterations=40).decide(obs)
        assert (decision.kind, decision.to) in probs and probs[(decision.kind, decision.to)] > 0
    noblue = bot(search_preflop=False, iterations=40, config=profile("noblueprint")).decide(obs)
    assert noblue.is_legal(obs.legal)


def test_nolimit_preflop_samples_follow_the_blueprint_and_repeat_under_a_seed() -> None:
    obs = spot(NL2, {2: "Td4s"}, [])
    probs = shipped("nolimit-hu").action_probabilities(obs)
    keys = [
        (d.kind, d.to) for d in (bot(search_preflop=False, seed=s).decide(obs) for s in range(200))
    ]
    for key, p in probs.items():
        assert abs(keys.count(key) / 200 - p) < 0.12, (key, probs)
    again = [
        (d.kind, d.to) for d in (bot(search_preflop=False, seed=s).decide(obs) for s in range(20))
    ]
    assert again == keys[:20]


def test_a_searched_nolimit_spot_is_the_same_under_the_same_seed() -> None:
    obs = flop_spot()
    first = bot(iterations=200, seed=5, search_preflop=False).decide(obs)
    second = bot(iterations=200, seed=5, search_preflop=False).decide(obs)
    assert (first.kind, first.to, first.values) == (second.kind, second.to, second.values)
    assert first.is_legal(obs.legal)


@SETTINGS
@given(seed=st.integers(0, 10_000), actions=st.integers(0, 10))
def test_legal_actions_on_random_heads_up_nolimit_states(seed: int, actions: int) -> None:
    state = random_spot(seed, 2, False, actions)
    if state.over:
        return
    obs = observe(state, [], hand_key=seed)
    decision = bot(iterations=40, seed=seed, search_preflop=False).decide(obs)
    assert decision.is_legal(obs.legal), (decision, obs.legal)
    if obs.legal.can_check:
        assert decision.kind != FOLD
    assert decision.kind in (FOLD, CHECK, CALL, BET, RAISE)


def test_the_advisor_keeps_the_model_at_nolimit() -> None:
    """The advisor's No-Limit opponents are the model's (`MctsConfig.nolimit_prior`): its
    values are those of the advisor with no blueprint prior at all, on the same seed."""
    assert DEFAULT.nolimit_prior and not ADVISOR.nolimit_prior
    obs = flop_spot()
    advice = bot(iterations=100, config=ADVISOR).decide(obs)
    without = bot(iterations=100, config=replace(ADVISOR, blueprint_prior=False)).decide(obs)
    assert advice.values == without.values
    played = bot(iterations=100, config=replace(ADVISOR, nolimit_prior=True)).decide(obs)
    assert played.values != without.values


def test_nolimit_evidence_puts_blueprint_folds_to_the_search_only_with_evidence() -> None:
    """`nolimit_evidence`: with nothing seen of the opponent the blueprint's fold stands;
    once decisions were seen, always consulted (the evidence weight is the search's)."""
    obs = spot(NL2, {2: "7h2d"}, [])
    mcts = bot(search_preflop=False, iterations=40, config=DEFAULT)
    mcts.preflop_play(obs)  # the blueprint's play: the seam the evidence may overrule
    assert not mcts.consults_search(obs)
    seen_raising(mcts.model, obs.player_id(1 - obs.index))
    assert all(mcts.consults_search(obs) for _ in range(40))
    assert mcts.decide(obs).is_legal(obs.legal)
    off = bot(search_preflop=False, config=replace(DEFAULT, nolimit_evidence=False))
    off.preflop_play(obs)
    seen_raising(off.model, obs.player_id(1 - obs.index))
    assert not off.consults_search(obs)
