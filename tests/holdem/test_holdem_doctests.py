"""Run the doctests of every module in the holdem package (pytest is not set up for them)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import holdem

MODULES = sorted(name for _, name, _ in pkgutil.walk_packages(holdem.__path__, "holdem."))
# Modules whose docstrings carry examples: losing them silently would lose the check.
WITH_EXAMPLES = {
    "holdem.actions",
    "holdem.cards",
    "holdem.config",
    "holdem.hand",
    "holdem.table",
    "holdem.wire_enum",
}


def test_every_module_is_collected() -> None:
    others = {"holdem.history", "holdem.phh", "holdem.views", "holdem.errors"}
    assert set(MODULES) >= WITH_EXAMPLES | others


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(
        module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False
    )
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"
    if name in WITH_EXAMPLES:
        assert result.attempted > 0
