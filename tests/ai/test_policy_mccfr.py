"""External sampling MCCFR, the kernel the hold'em blueprint trains with, on Leduc
hold'em where the exact best response measures it, and on heads-up Limit Hold'em."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ai.math.combos import class_index
from ai.policy.cfr import best_response_value, exploitability
from ai.policy.games.leduc import LeducPoker
from ai.policy.limit.game import HOLDEM_HU, LEDUC, build_tree
from ai.policy.limit.holdem import HoldemAbstraction
from ai.policy.limit.leduc import LeducAbstraction, to_flat_strategy
from ai.policy.limit.response import best_response
from ai.policy.limit.solver import MCCFR
from ai.policy.tree import flatten


def _leduc_exploitability(solver: MCCFR) -> float:
    flat = flatten(LeducPoker())
    return exploitability(
        flat, to_flat_strategy(solver.tree, solver.lay, solver.average_strategy(), flat)
    )


def test_the_betting_trees_have_the_known_sizes() -> None:
    leduc = build_tree(LEDUC)
    assert [len(leduc.decisions(r)) for r in range(2)] == [6, 30]
    holdem = build_tree(HOLDEM_HU)
    # 8 preflop betting sequences (the big blind is the first of four bets), 70 on the flop.
    assert [len(holdem.decisions(r)) for r in range(4)] == [8, 70, 630, 5670]
    assert holdem.history[int(holdem.decisions(0)[0])] == ""
    assert holdem.player[0] == 1  # the button acts first preflop


def test_mccfr_on_leduc_approaches_the_equilibrium() -> None:
    solver = MCCFR(LEDUC, LeducAbstraction(), seed=3, batch=1000, discount_batches=10)
    solver.run(10_000)
    early = _leduc_exploitability(solver)
    solver.run(190_000)
    late = _leduc_exploitability(solver)
    assert late < 0.035 < 0.05 < early


def test_mccfr_is_deterministic_and_resumes_exactly(tmp_path: Path) -> None:
    def fresh() -> MCCFR:
        return MCCFR(LEDUC, LeducAbstraction(), seed=5, batch=500, discount_batches=4)

    whole = fresh()
    whole.run(5_000)
    first = fresh()
    first.run(2_000)
    checkpoint = tmp_path / "leduc.npz"
    first.save(checkpoint)
    resumed = fresh()
    resumed.load(checkpoint)
    resumed.run(3_000)
    assert resumed.iterations == whole.iterations
    assert np.array_equal(resumed.regret, whole.regret)
    assert np.array_equal(resumed.average, whole.average)
    other = MCCFR(LEDUC, LeducAbstraction(), seed=6, batch=500, discount_batches=4)
    other.run(5_000)
    assert not np.array_equal(other.average, whole.average)


def test_holdem_training_runs_and_learns_to_fold_trash_to_a_raise() -> None:
    solver = MCCFR(HOLDEM_HU, HoldemAbstraction((4, 4, 4)), seed=1, batch=1000)
    solver.run(20_000)
    assert np.isfinite(solver.regret).all()
    strategy = solver.average_strategy()
    tree, lay = solver.tree, solver.lay
    node = int(tree.child[0, 2])  # the button raised: the big blind decides
    k = int(lay.n_actions[node])
    fold_aa = strategy[lay.base[node] + class_index("AA") * k]
    fold_72 = strategy[lay.base[node] + class_index("72o") * k]
    assert fold_aa < 0.1 < 0.5 < fold_72


def test_the_learned_best_response_finds_the_exact_best_response_value() -> None:
    """On Leduc the abstract game is the game: the learned response to a fixed strategy
    must come close to the exact best response, and never (beyond noise) above it."""
    flat = flatten(LeducPoker())
    solver = MCCFR(LEDUC, LeducAbstraction(), seed=1, batch=1000, discount_batches=10)
    solver.run(20_000)
    fixed = solver.average_strategy()
    exact_strategy = to_flat_strategy(solver.tree, solver.lay, fixed, flat)
    for responder in (0, 1):
        exact = best_response_value(flat, exact_strategy, responder)
        found = best_response(LEDUC, LeducAbstraction(), fixed, responder, 20_000, 100_000, seed=3)
        assert exact - 0.03 < found.value < exact + found.half_width
