"""Every literal the compiled kernels keep equals its Python source.

Numba's disk cache is keyed on a kernel's own file, so the kernels keep literal copies of
constants defined elsewhere (an imported global would be frozen stale in the cache). Each
copy is checked here against the one definition Python uses, and the kernels' twins of
Python functions (cost buckets, raise sizes) against those functions.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from search_policy import SIGMA as REFERENCE_SIGMA

from ai.bots import poki
from ai.math import evaluator, tables
from ai.models import features, ranges, stats
from ai.search import abstraction, kernel
from ai.sim import arrays, rules
from ai.sim.rules import SimLegal


def test_the_search_kernels_constants() -> None:
    assert (kernel.FOLD, kernel.CHECK, kernel.CALL, kernel.BET) == (
        rules.FOLD,
        rules.CHECK,
        rules.CALL,
        rules.BET,
    )
    assert kernel.SIGMA == ranges.SIGMA == poki.SIGMA == REFERENCE_SIGMA
    assert kernel.ALL_IN == features.ALL_IN_BUCKET
    assert tuple(kernel.FRACTIONS) == features.SIZE_FRACTIONS
    assert tuple(kernel.OUR_FRACTIONS) == abstraction.OUR_FRACTIONS
    assert 2 + len(abstraction.OUR_FRACTIONS) + 2 == kernel.MAX_ACTIONS  # min raise, all-in
    # The packed blueprint's fields and action codes (ai.search.rollout_blueprint).
    from ai.policy.limit import game as limit_game
    from ai.policy.nway import tree as nway_tree
    from ai.search import rollout_blueprint as rb

    assert (kernel.B_PLAYER, kernel.B_ROUND, kernel.B_NACT, kernel.B_BASE) == (
        rb.B_PLAYER,
        rb.B_ROUND,
        rb.B_NACT,
        rb.B_BASE,
    )
    assert (kernel.B_CHILD, kernel.B_ACT) == (rb.B_CHILD, rb.B_ACT)
    assert rb.B_ACT == rb.B_CHILD + rb.SLOTS == rb.B_FIELDS - rb.SLOTS
    assert rb.SLOTS == nway_tree.MAX_ACTIONS
    codes = (kernel.A_FOLD, kernel.A_CALL, kernel.A_RAISE)
    assert codes == (nway_tree.A_FOLD, nway_tree.A_CALL, nway_tree.A_RAISE)
    assert codes == (limit_game.FOLD, limit_game.CALL, limit_game.RAISE)
    assert kernel.BP_ALL_IN == nway_tree.ALL_IN


def test_the_simulators_and_evaluators_constants() -> None:
    assert (arrays.FOLD, arrays.CHECK, arrays.CALL, arrays.BET, arrays.RAISE) == (
        rules.FOLD,
        rules.CHECK,
        rules.CALL,
        rules.BET,
        rules.RAISE,
    )
    assert (arrays.PREFLOP, arrays.RIVER, arrays.SHOWDOWN) == (
        rules.PREFLOP,
        rules.RIVER,
        rules.SHOWDOWN,
    )
    assert (
        tables.TABLE_OFFSET[5],
        tables.TABLE_OFFSET[6],
        tables.TABLE_OFFSET[7],
    ) == (evaluator.OFFSET_5, evaluator.OFFSET_6, evaluator.OFFSET_7)
    assert (evaluator._SHIFT, evaluator._MASK) == (tables.PLAIN_SHIFT, tables.PLAIN_MASK)


@pytest.mark.parametrize("limit", [True, False])
def test_the_kernels_cost_buckets_are_the_models(limit: bool) -> None:
    for call in range(0, 30):
        for pot in range(1, 60, 3):
            for unit in (1, 2, 4):
                assert kernel.cost_of(call, pot, unit, limit) == stats.cost_bucket(
                    call, unit, pot, limit
                ), (call, pot, unit, limit)


def test_the_kernels_raise_sizes_are_the_abstractions() -> None:
    rng = random.Random(5)
    for _ in range(2000):
        committed = rng.randrange(0, 50)
        call = rng.randrange(0, 80)
        low = committed + call + rng.randrange(1, 20)
        high = low + rng.randrange(0, 400)
        pot = rng.randrange(1, 300)
        fraction = rng.choice([*abstraction.OUR_FRACTIONS, *features.SIZE_FRACTIONS, 0.37])
        legal = SimLegal(0, 1, True, False, call, True, rules.RAISE, low, high, committed, high, ())
        assert kernel.raise_to(pot, committed, call, low, high, fraction) == (
            abstraction.raise_to(pot, legal, fraction)
        ), (pot, committed, call, low, high, fraction)
    assert np.isclose(kernel.LOG_FRACTIONS, np.log(features.SIZE_FRACTIONS)).all()
