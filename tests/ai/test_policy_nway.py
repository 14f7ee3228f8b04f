"""The n-player blueprints (ai.policy.nway): a tree every action of which the rules core
accepts, n-player MCCFR on three-player Kuhn, the pseudo-harmonic translation, the
artefact and its lookup, and the `blueprint` bot at No-Limit heads-up and three-handed
Limit tables."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
from pathlib import Path

import numpy as np
import pytest

from ai.bots.blueprint import BlueprintBot
from ai.bots.settings import BotSettings
from ai.game.observation import ActionRecord, Decision
from ai.game.observe import apply, observe
from ai.math.fastrng import seed_state
from ai.policy.blueprint import NotCovered
from ai.policy.nway.artefact import ARTEFACT_FORMAT, load
from ai.policy.nway.cards import Kuhn3Cards
from ai.policy.nway.games import LIMIT_3MAX, NOLIMIT_HU, NWayGame
from ai.policy.nway.lookup import ARTEFACTS, blueprint_for, shipped
from ai.policy.nway.mccfr import layout
from ai.policy.nway.nashconv import kuhn3_deals, nash_conv
from ai.policy.nway.solver import NWayMCCFR
from ai.policy.nway.translate import pseudo_harmonic, translate
from ai.policy.nway.tree import (
    A_RAISE,
    ALL_IN,
    DECISION,
    build_tree,
    kuhn3_tree,
    start_state,
    step_abstract,
)
from ai.sim.state import SimState
from holdem.config import TableConfig, Variant

EXPLAIN = BotSettings(explain=True)
SMALL_LIMIT_3 = dataclasses.replace(LIMIT_3MAX, name="limit-3max-small", limit_raises=(1, 1, 1, 1))


@pytest.mark.parametrize("game", [NOLIMIT_HU, SMALL_LIMIT_3], ids=lambda g: g.name)
def test_every_tree_action_is_legal_in_the_rules_core_and_chips_are_conserved(
    game: NWayGame,
) -> None:
    assert game is NOLIMIT_HU or game is SMALL_LIMIT_3
    tree = build_tree(game)
    rng = random.Random(1)
    for _ in range(200):
        state, node = start_state(game), 0
        while tree.kind[node] == DECISION:
            legal = state.legal_actions()
            assert legal is not None and legal.player == tree.player[node]
            assert tree.round[node] == state.street
            a = rng.randrange(int(tree.n_actions[node]))
            if tree.action[node, a] == A_RAISE:
                assert legal.min_to <= tree.to[node, a] <= legal.max_to
                if tree.frac[node, a] == ALL_IN:
                    assert tree.to[node, a] == legal.max_to
            step_abstract(state, int(tree.action[node, a]), int(tree.to[node, a]))
            node = int(tree.child[node, a])
            if not state.over:
                assert list(tree.put[node]) == [
                    state.start[i] - state.stacks[i] for i in range(game.n)
                ]
        assert state.over
        pay = state.payoffs()
        assert sum(pay) == 0
        pot = int(tree.put[node].sum())
        winners = [i for i in range(game.n) if pay[i] > -tree.put[node, i]]
        assert winners
        for i in range(game.n):  # the chips the tree says a player put in are what it lost or won
            share = pot / len(winners) - tree.put[node, i]
            assert pay[i] == -tree.put[node, i] or abs(pay[i] - share) <= 1
        assert tree.alive[node] == sum(1 << i for i in range(game.n) if state.in_hand[i])


def test_no_limit_sizes_are_pot_fractions_then_all_in() -> None:
    tree = build_tree(NOLIMIT_HU)
    # The button opens: fold, call, half pot (to 4), pot (to 6), all-in (to 200).
    assert [int(a) for a in tree.action[0, :5]] == [0, 1, 2, 2, 2]
    assert [int(t) for t in tree.to[0, 2:5]] == [4, 6, 200]


def test_mccfr_on_three_player_kuhn_drives_nash_conv_down() -> None:
    tree = kuhn3_tree()
    solver = NWayMCCFR(tree, Kuhn3Cards(), seed=3, batch=500)
    buckets, ranks, probs = kuhn3_deals()
    lay = layout(tree, (4,))
    conv: list[float] = []
    for _ in range(2):
        solver.run(500 if not conv else 19_500)
        conv.append(nash_conv(tree, lay, solver.average_strategy(), buckets, ranks, probs))
    assert conv[1] < 0.03 < conv[0]


def test_nash_conv_of_uniform_play_is_positive_and_zero_sum_values() -> None:
    tree = kuhn3_tree()
    lay = layout(tree, (4,))
    buckets, ranks, probs = kuhn3_deals()
    assert nash_conv(tree, lay, np.full(lay.size, np.nan), buckets, ranks, probs) > 0.1


def test_pseudo_harmonic_translation() -> None:
    assert pseudo_harmonic(0.5, 0.5, 1.0) == 1.0
    assert pseudo_harmonic(1.0, 0.5, 1.0) == 0.0
    xs = np.linspace(0.5, 1.0, 11)
    fs = [pseudo_harmonic(float(x), 0.5, 1.0) for x in xs]
    assert all(a >= b for a, b in itertools.pairwise(fs))
    # Between half pot and pot the split is at 5/7 pot, below the arithmetic midpoint.
    assert translate(0.7, [0.5, 1.0]) == 0
    assert translate(0.72, [0.5, 1.0]) == 1
    assert translate(0.9, [0.5, 1.0]) == 1
    assert translate(0.1, [0.5, 1.0, 3.0]) == 0
    assert translate(50.0, [0.5, 1.0, 3.0]) == 2
    with pytest.raises(ValueError, match="no sizes"):
        translate(1.0, [])


def test_a_resumed_run_equals_the_uninterrupted_one(tmp_path: Path) -> None:
    whole = NWayMCCFR(kuhn3_tree(), Kuhn3Cards(), seed=5, batch=100, discount_batches=3)
    whole.run(600)
    first = NWayMCCFR(kuhn3_tree(), Kuhn3Cards(), seed=5, batch=100, discount_batches=3)
    first.run(300)
    first.save(tmp_path / "c.npz")
    resumed = NWayMCCFR(kuhn3_tree(), Kuhn3Cards(), seed=5, batch=100, discount_batches=3)
    resumed.load(tmp_path / "c.npz")
    resumed.run(300)
    assert np.array_equal(whole.regret, resumed.regret)
    other = NWayMCCFR(kuhn3_tree(), Kuhn3Cards(), seed=6, batch=100)
    with pytest.raises(ValueError, match="other settings"):
        other.load(tmp_path / "c.npz")


@pytest.mark.parametrize("game", sorted(ARTEFACTS))
def test_shipped_artefacts_load_versioned_and_compact(game: str) -> None:
    lookup = shipped(game)
    meta = lookup.artefact.metadata
    assert meta["format"] == ARTEFACT_FORMAT and meta["game"] == game
    assert lookup.version.startswith(f"{game}-") and meta["iterations"] >= 1_000_000
    path = Path(__file__).parents[2] / "ai" / "data" / ARTEFACTS[game]
    assert path.stat().st_size < 5_000_000


def test_the_stored_no_limit_tree_is_the_one_the_rules_build() -> None:
    stored = shipped("nolimit-hu").tree
    fresh = build_tree(NOLIMIT_HU)
    for name in ("kind", "player", "round", "n_actions", "child", "action"):
        assert np.array_equal(getattr(stored, name), getattr(fresh, name)), name
    assert np.allclose(stored.frac, fresh.frac, equal_nan=True)


def test_an_artefact_of_another_format_is_refused(tmp_path: Path) -> None:
    src = Path(__file__).parents[2] / "ai" / "data" / ARTEFACTS["nolimit-hu"]
    with np.load(src) as data:
        arrays = {k: data[k] for k in data.files}
    meta = json.loads(str(arrays["metadata"]))
    meta["format"] = ARTEFACT_FORMAT + 1
    arrays["metadata"] = np.array(json.dumps(meta))
    np.savez_compressed(tmp_path / "bad.npz", **arrays)
    with pytest.raises(ValueError, match="format"):
        load(tmp_path / "bad.npz")


def _play(
    bot: BlueprintBot,
    seed: int,
    variant: Variant,
    seats: int,
    stack: int = 200,
    meddle: float = 0.2,
) -> list[Decision]:
    """A hand with the bot in every seat; off-tree raises by a random player at a
    `meddle` share of the turns."""
    config = TableConfig(variant=variant, seats=seats, small_blind=1, big_blind=2)
    state = SimState.new_hand(config, dict.fromkeys(range(1, seats + 1), stack), 1, seed=seed)
    rng = random.Random(seed)
    history: list[ActionRecord] = []
    made = []
    while not state.over:
        obs = observe(state, history)
        legal = obs.legal
        if rng.random() < meddle and legal.raise_kind is not None:
            to = rng.randint(legal.min_to, legal.max_to)  # any size: translation's work
            decision = Decision(legal.raise_kind, to)
        else:
            decision = bot.decide(obs)
            made.append(decision)
        assert decision.is_legal(legal), (decision, legal)
        apply(state, decision, history, obs)
    return made


@pytest.mark.parametrize(("variant", "seats"), [(Variant.NO_LIMIT, 2), (Variant.LIMIT, 3)])
def test_the_bot_plays_legal_deterministic_blueprint_actions(variant: Variant, seats: int) -> None:
    runs = []
    for _ in range(2):
        bot = BlueprintBot(seed=3, settings=EXPLAIN)
        runs.append([d for s in range(25) for d in _play(bot, s, variant, seats)])
    assert [(d.kind, d.to) for d in runs[0]] == [(d.kind, d.to) for d in runs[1]]
    from_blueprint = [d for d in runs[0] if "blueprint (" in d.reason]
    # Random raises push three-handed Limit past the tree's two bets a street, and the
    # bot falls back there (the docs' lookup); alone, it never leaves the tree.
    assert len(from_blueprint) > 0.6 * len(runs[0])
    bot = BlueprintBot(seed=3, settings=EXPLAIN)
    alone = [d for s in range(25) for d in _play(bot, s, variant, seats, meddle=0.0)]
    assert alone and all("blueprint (" in d.reason for d in alone)


def test_probabilities_are_over_legal_actions_and_sum_to_one() -> None:
    bot = BlueprintBot(seed=1)
    config = TableConfig(variant=Variant.NO_LIMIT, seats=2, small_blind=1, big_blind=2)
    for seed in range(10):
        state = SimState.new_hand(config, {1: 200, 2: 200}, 1, seed=seed)
        obs = observe(state, [])
        probs = bot.action_probabilities(obs)
        assert abs(sum(probs.values()) - 1.0) < 1e-9
        assert all(Decision(k, to).is_legal(obs.legal) for k, to in probs)


def test_uncovered_tables_say_so() -> None:
    config = TableConfig(variant=Variant.NO_LIMIT, seats=7, small_blind=1, big_blind=2)
    state = SimState.new_hand(config, dict.fromkeys(range(1, 8), 200), 1, seed=1)
    obs = observe(state, [])
    with pytest.raises(NotCovered, match="7-handed No-Limit"):
        blueprint_for(obs)
    bot = BlueprintBot(seed=1, settings=EXPLAIN)
    assert "rational fallback" in bot.decide(obs).reason


def test_kuhn3_sampler_is_seeded() -> None:
    a = Kuhn3Cards().sample(50, np.array([seed_state(1)], dtype=np.int64))[0]
    b = Kuhn3Cards().sample(50, np.array([seed_state(1)], dtype=np.int64))[0]
    assert np.array_equal(a, b) and all(len(set(row[:, 0])) == 3 for row in a)
