"""The examples in the docstrings of ai.math and a few AI modules are part of the test suite."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "ai.math.cardsets",
    "ai.math.combos",
    "ai.math.equity",
    "ai.math.evaluator",
    "ai.math.fastrng",
    "ai.math.odds",
    "ai.math.potential",
    "ai.math.preflop_rank",
    "ai.math.random_equity",
    "ai.math.range_strength",
    "ai.math.ranges",
    "ai.math.rollout_strength",
    "ai.math.tables",
    "ai.policy.nway.lookup",
    "ai.search.cost_context",
    "ai.sim.rules",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
    assert result.attempted > 0
