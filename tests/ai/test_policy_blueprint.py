"""The blueprint artefact and its lookup: quantised compactly, versioned, loaded back,
and an Observation of a heads-up Limit hand mapped to the abstract information set."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ai.game.observation import ActionRecord, Decision, Observation
from ai.game.observe import apply, observe
from ai.policy.blueprint import Blueprint, NotCovered, quantise, write_artefact
from ai.policy.limit.game import CALL, HOLDEM_HU, RAISE
from ai.policy.limit.holdem import HoldemAbstraction
from ai.policy.limit.mccfr import normalised
from ai.policy.limit.solver import MCCFR
from ai.sim.rules import BET, CHECK, FOLD
from ai.sim.rules import CALL as SIM_CALL
from ai.sim.rules import RAISE as SIM_RAISE
from ai.sim.state import SimState
from holdem.config import TableConfig, Variant


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> tuple[MCCFR, Blueprint, Path]:
    solver = MCCFR(HOLDEM_HU, HoldemAbstraction((3, 3, 3)), seed=2, batch=1000)
    solver.run(10_000)
    path = tmp_path_factory.mktemp("blueprint") / "blueprint.npz"
    assert isinstance(solver.abstraction, HoldemAbstraction)
    write_artefact(path, solver.tree, solver.lay, solver.abstraction, solver.average, {})
    return solver, Blueprint(path), path


def hand(
    actions: list[int], seats: int = 2, variant: Variant = Variant.LIMIT, cap: int | None = 4
) -> tuple[Observation, list[ActionRecord]]:
    """A hand played by the given kinds (raise at the legal size), then the next observation."""
    config = TableConfig(variant=variant, seats=seats, small_blind=1, big_blind=2, raise_cap=cap)
    state = SimState.new_hand(config, dict.fromkeys(range(1, seats + 1), 400), 1, seed=9)
    history: list[ActionRecord] = []
    for kind in actions:
        obs = observe(state, history)
        to = obs.legal.min_to if kind in (BET, SIM_RAISE) else 0
        apply(state, Decision(kind, to), history, obs)
    return observe(state, history), history


def test_quantised_rows_sum_to_255_and_unvisited_stay_zero(
    trained: tuple[MCCFR, Blueprint, Path],
) -> None:
    solver, _, _ = trained
    lay = solver.lay
    strategy = normalised(lay, solver.average)
    strategy[lay.base[0] : lay.base[0] + 3] = np.nan  # pretend the first set was never seen
    q = quantise(lay, strategy).astype(np.int64)
    first = q[lay.base[0] : lay.base[0] + 3]
    assert first.sum() == 0
    node = int(solver.tree.child[0, RAISE])
    k = int(lay.n_actions[node])
    rows = q[lay.base[node] : lay.base[node] + lay.buckets[0] * k].reshape(-1, k)
    assert (rows.sum(axis=1) == 255).all()


def test_the_artefact_loads_back_compact_and_versioned(
    trained: tuple[MCCFR, Blueprint, Path],
) -> None:
    solver, blueprint, path = trained
    assert path.stat().st_size < 1_000_000
    assert blueprint.version.startswith("limit-hu-")
    assert blueprint.metadata["hs_buckets"] == [3, 3, 3]
    node = int(solver.tree.child[0, CALL])  # the button limped: the big blind's option
    expected = normalised(solver.lay, solver.average)
    k = int(solver.lay.n_actions[node])
    for bucket in (0, 84, 168):
        probs, exact = blueprint.probabilities_at(node, bucket)
        o = int(solver.lay.base[node]) + bucket * k
        assert exact
        assert probs == pytest.approx(expected[o : o + k], abs=2 / 255)


def test_an_observation_maps_to_the_node_its_actions_reached(
    trained: tuple[MCCFR, Blueprint, Path],
) -> None:
    _, blueprint, _ = trained
    tree = blueprint.tree
    obs, _ = hand([])
    assert obs.index == 1  # the button acts first preflop
    at = blueprint.locate(obs)
    assert (at.node, at.exact) == (0, True)
    assert at.bucket == blueprint.abstraction.bucket(obs.hole, ())
    obs, _ = hand([SIM_RAISE, SIM_CALL])  # the button raised, the big blind called
    at = blueprint.locate(obs)
    assert obs.street == 1 and obs.index == 0
    assert at.exact and tree.history[at.node] == "rc/"
    obs, _ = hand([SIM_CALL, CHECK, BET, SIM_RAISE])
    at = blueprint.locate(obs)
    assert at.exact and tree.history[at.node] == "cc/rr"


def test_probabilities_cover_the_legal_kinds_only(trained: tuple[MCCFR, Blueprint, Path]) -> None:
    _, blueprint, _ = trained
    for actions in ([], [SIM_RAISE], [SIM_CALL, CHECK], [SIM_RAISE] * 3):
        obs, _ = hand(actions)
        probs = blueprint.action_probabilities(obs)
        assert sum(probs.values()) == pytest.approx(1.0)
        assert set(probs) <= set(obs.legal.kinds)
    obs, _ = hand([SIM_CALL, CHECK])  # the flop, nobody bet: no fold offered
    assert FOLD not in blueprint.action_probabilities(obs)


def test_off_the_tree_the_nearest_node_answers(trained: tuple[MCCFR, Blueprint, Path]) -> None:
    _, blueprint, _ = trained
    obs, _ = hand([SIM_RAISE] * 5, cap=None)  # six bets preflop: beyond the tree's cap
    at = blueprint.locate(obs)
    assert not at.exact
    assert blueprint.tree.round[at.node] == 0 and blueprint.tree.player[at.node] == obs.index
    probs = blueprint.action_probabilities(obs)
    assert sum(probs.values()) == pytest.approx(1.0) and set(probs) <= set(obs.legal.kinds)


def test_tables_it_does_not_cover_are_refused(trained: tuple[MCCFR, Blueprint, Path]) -> None:
    _, blueprint, _ = trained
    with pytest.raises(NotCovered):
        blueprint.action_probabilities(hand([], variant=Variant.NO_LIMIT, cap=None)[0])
    with pytest.raises(NotCovered):
        blueprint.action_probabilities(hand([], seats=3)[0])
