"""The No-Limit 6-max blueprint: its abstraction, training a tiny configuration of it,
resuming, and the shipped artefact's lookup on random tables of three to six."""

from __future__ import annotations

import dataclasses
import functools
import random
from pathlib import Path

import numpy as np
import pytest
from random_hands import play_hand, random_decision
from search_spots import NL6, spot

from ai.bots.blueprint import BlueprintBot
from ai.bots.settings import BotSettings
from ai.game.observation import Decision, Observation
from ai.game.observe import observe
from ai.policy.blueprint import NotCovered
from ai.policy.nway.cards import NWayHoldem
from ai.policy.nway.games import NOLIMIT_6MAX
from ai.policy.nway.lookup import blueprint_for, seat_offset, shipped
from ai.policy.nway.solver import NWayMCCFR
from ai.policy.nway.tree import (
    A_RAISE,
    ALL_IN,
    DECISION,
    NWayTree,
    build_tree,
    raise_options,
    start_state,
    step_abstract,
)
from ai.search.blueprint_prior import (
    abstraction_weights,
    nway_tables,
    prior_for,
    sixmax_prior,
    size_bucket_of,
)
from ai.search.nway_tables_fast import fast_tables
from ai.sim.rules import RAISE
from ai.sim.state import SimState
from holdem.config import TableConfig, Variant

# The 6-max abstraction with four players and 20 bb: 10,976 nodes, built in a second.
TINY = dataclasses.replace(NOLIMIT_6MAX, name="nolimit-4max-tiny", n=4, stack=40)
EXPLAIN = BotSettings(explain=True)


@pytest.fixture(scope="module")
def tiny_tree() -> NWayTree:
    return build_tree(TINY)


def test_preflop_offers_two_opens_then_a_shove() -> None:
    """First in: 2.5 bb (0.6 pot), 6 bb (2 pots) or all-in; over an open only all-in."""
    state = start_state(NOLIMIT_6MAX)
    assert raise_options(NOLIMIT_6MAX, state) == [(0.6, 5), (2.0, 12), (ALL_IN, 200)]
    step_abstract(state, A_RAISE, 12)
    assert raise_options(NOLIMIT_6MAX, state) == [(ALL_IN, 200)]


def test_the_shipped_artefact_plays_the_6bb_open_and_answers_it_on_its_tree() -> None:
    lookup = shipped("nolimit-6max")
    six_bb = (RAISE, 12)
    utg = [spot(NL6, {3: hole}, [], stacks=200) for hole in ("AhAd", "AsKs", "7h7d", "QcJc")]
    assert all(obs.index == 2 for obs in utg)
    assert sum(lookup.action_probabilities(obs).get(six_bb, 0.0) for obs in utg) > 0.05
    # MP facing UTG's 6 bb open: on the tree exactly (one open size read it as 2.5 bb
    # or a shove), and a strategy learned there for the hands that play on.
    for hole in ("AhAd", "KsKd", "AsKs"):
        obs = spot(NL6, {4: hole}, [six_bb], stacks=200)
        assert obs.index == 3 and lookup.walk(obs).exact
        node = lookup.walk(obs).node
        k = int(lookup.tree.n_actions[node])
        bucket = lookup.artefact.abstraction.bucket(obs.hole, obs.board)
        o = int(lookup.artefact.lay.base[node]) + bucket * k
        assert lookup.artefact.strategy[o : o + k].sum() > 0  # visited in training


def test_multiway_streets_are_all_in_only_and_every_action_is_legal(tiny_tree: NWayTree) -> None:
    tree = tiny_tree
    rng = random.Random(2)
    multiway_raises = heads_up_pot_bets = 0
    for _ in range(300):
        state, node = start_state(TINY), 0
        while tree.kind[node] == DECISION:
            legal = state.legal_actions()
            assert legal is not None and legal.player == tree.player[node]
            raises = [
                a for a in range(int(tree.n_actions[node])) if tree.action[node, a] == A_RAISE
            ]
            for a in raises:
                assert legal.min_to <= tree.to[node, a] <= legal.max_to
            if state.street > 0 and state.n_in_hand > 2:
                assert all(tree.frac[node, a] == ALL_IN for a in raises)
                multiway_raises += len(raises)
            elif state.street > 0:
                heads_up_pot_bets += sum(tree.frac[node, a] == 1.0 for a in raises)
            a = rng.randrange(int(tree.n_actions[node]))
            step_abstract(state, int(tree.action[node, a]), int(tree.to[node, a]))
            node = int(tree.child[node, a])
        assert state.over and sum(state.payoffs()) == 0
    assert multiway_raises and heads_up_pot_bets


@functools.cache
def _cards() -> NWayHoldem:
    return NWayHoldem(TINY.n, (2, 2, 2))  # its HS cuts take a second to compute: once


def _solver(tree: NWayTree, seed: int = 4) -> NWayMCCFR:
    return NWayMCCFR(tree, _cards(), seed=seed, batch=100, discount_batches=2)


def test_a_tiny_configuration_trains_to_a_normalised_legal_policy(tiny_tree: NWayTree) -> None:
    solver = _solver(tiny_tree)
    values = solver.run(600)
    assert (np.abs(values) <= TINY.stack).all()  # each seat wins or loses at most a stack
    strategy = solver.average_strategy()
    lay, tree = solver.lay, tiny_tree
    visited = 0
    for node in np.flatnonzero(lay.base >= 0):
        k = int(tree.n_actions[node])
        n = lay.buckets[int(tree.round[node])]
        rows = strategy[lay.base[node] : lay.base[node] + n * k].reshape(n, k)
        seen = np.isfinite(rows).all(axis=1)
        visited += int(seen.sum())
        assert np.allclose(rows[seen].sum(axis=1), 1.0) and (rows[seen] >= 0).all()
    root = strategy[: 169 * int(tree.n_actions[0])]
    assert np.isfinite(root).sum() > 0.8 * root.size  # the first actor's classes, nearly all


def test_a_resumed_tiny_run_equals_the_uninterrupted_one(
    tiny_tree: NWayTree, tmp_path: Path
) -> None:
    whole = _solver(tiny_tree)
    whole.run(400)
    first = _solver(tiny_tree)
    first.run(200)
    first.save(tmp_path / "c.npz")
    resumed = _solver(tiny_tree)
    resumed.load(tmp_path / "c.npz")
    resumed.run(200)
    assert np.array_equal(whole.regret, resumed.regret)
    assert np.array_equal(whole.average, resumed.average)
    with pytest.raises(ValueError, match="other settings"):
        _solver(tiny_tree, seed=5).load(tmp_path / "c.npz")


def test_smaller_tables_take_the_seats_nearest_the_button() -> None:
    assert [seat_offset(6, n) for n in (3, 4, 5, 6)] == [3, 2, 1, 0]
    with pytest.raises(NotCovered):
        seat_offset(6, 7)


def _hand(seats: int, seed: int, bot: BlueprintBot | None, meddle: float) -> tuple[int, int]:
    """One No-Limit hand at a table of `seats`, every decision asked of the shipped 6-max
    lookup: its answer is checked legal and normalised. Actions: the bot's where given
    (random ones at a `meddle` share), else random kinds and sizes. (covered, asked)."""
    config = TableConfig(variant=Variant.NO_LIMIT, seats=seats, small_blind=1, big_blind=2)
    covered = asked = 0

    def choose(obs: Observation, rng: random.Random) -> Decision:
        nonlocal covered, asked
        asked += 1
        try:
            probs = blueprint_for(obs).action_probabilities(obs)
        except NotCovered:
            probs = {}
        if probs:
            covered += 1
            assert abs(sum(probs.values()) - 1.0) < 1e-9
            assert all(Decision(k, to).is_legal(obs.legal) for k, to in probs)
        if bot is not None and rng.random() >= meddle:
            decision = bot.decide(obs)
            assert ("6max blueprint (" in decision.reason) == bool(probs), decision.reason
            return decision
        return random_decision(obs.legal, rng)

    play_hand(config, seed, choose)
    return covered, asked


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_the_lookup_answers_legal_actions_on_random_tables(seats: int) -> None:
    covered = asked = 0
    for seed in range(12):
        c, a = _hand(seats, seed, None, 1.0)
        covered, asked = covered + c, asked + a
    assert covered > 0.5 * asked  # random raises leave the tree; the first decisions are on it


@pytest.mark.parametrize("seats", [3, 6])
def test_the_bot_alone_stays_on_its_tree_and_repeats_under_a_seed(seats: int) -> None:
    for seed in range(8):
        covered, asked = _hand(seats, seed, BlueprintBot(seed=seed, settings=EXPLAIN), 0.0)
        assert covered == asked
    bot = BlueprintBot(seed=1)
    config = TableConfig(variant=Variant.NO_LIMIT, seats=seats, small_blind=1, big_blind=2)
    state = SimState.new_hand(config, dict.fromkeys(range(1, seats + 1), 200), 1, seed=3)
    obs = observe(state, [])
    assert bot.action_probabilities(obs) == BlueprintBot(seed=1).action_probabilities(obs)
    assert shipped("nolimit-6max").version.startswith("nolimit-6max-")


def test_the_compiled_prior_tables_are_the_python_ones() -> None:
    bp = shipped("nolimit-hu")
    weights = abstraction_weights(bp.artefact.abstraction)
    fast = fast_tables(bp, weights, size_bucket_of)
    slow = nway_tables(bp)
    assert np.allclose(fast[0], slow[0]) and np.allclose(fast[1], slow[1])


def test_the_search_prior_at_multiway_no_limit_is_the_6max_blueprint_by_seat() -> None:
    shares, sizes = sixmax_prior()
    assert shares.shape[:3] == (6, 4, 3) and np.allclose(shares.sum(axis=-1), 1.0)
    assert np.allclose(sizes.sum(axis=-1), 1.0)
    config = TableConfig(variant=Variant.NO_LIMIT, seats=4, small_blind=1, big_blind=2)
    state = SimState.new_hand(config, dict.fromkeys(range(1, 5), 200), 1, seed=1)
    prior = prior_for(observe(state, []))
    assert prior is not None and prior[1] is not None
    assert np.array_equal(prior[0], shares[[0, 1, 4, 5]])
    assert np.array_equal(prior[1], sizes[[0, 1, 4, 5]])


@pytest.mark.slow
def test_the_stored_6max_tree_and_chips_are_the_ones_the_rules_build() -> None:
    stored = shipped("nolimit-6max").tree
    fresh = build_tree(NOLIMIT_6MAX)
    for name in ("kind", "player", "round", "n_actions", "child", "action", "pot", "to_call"):
        assert np.array_equal(getattr(stored, name), getattr(fresh, name)), name
    assert np.allclose(stored.frac, fresh.frac, equal_nan=True)
