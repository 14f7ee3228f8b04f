"""The doctests of the protocol package (they ran with holdem's before it moved out)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import protocol

MODULES = sorted(name for _, name, _ in pkgutil.walk_packages(protocol.__path__, "protocol."))


@pytest.mark.parametrize("name", [n for n in MODULES if n != "protocol.__main__"])
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"
    if name == "protocol.messages":
        assert result.attempted > 0  # its examples must not be lost silently
