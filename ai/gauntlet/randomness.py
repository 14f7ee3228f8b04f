"""Seeded randomness for agents that draw from a global generator.

rlcard's RandomAgent draws from NumPy's global generator, texasholdem's agents
and deck from Python's `random` module. Each adapter keeps its own state of that
generator and swaps it in only around its agent's call, so its answers are a
function of its seed, and neither the other players nor the caller see their
global generator move.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np


class OwnRandom:
    """A private state of Python's and NumPy's global generators, seeded."""

    def __init__(self, seed: int) -> None:
        self._python = random.Random(seed).getstate()
        self._numpy: Any = np.random.RandomState(seed % 2**32).get_state()

    @contextmanager
    def active(self) -> Iterator[None]:
        """Within the block the global generators run from this state, and afterwards
        they are back where they were."""
        python, numpy = random.getstate(), np.random.get_state()
        random.setstate(self._python)
        np.random.set_state(self._numpy)
        try:
            yield
        finally:
            self._python, self._numpy = random.getstate(), np.random.get_state()
            random.setstate(python)
            np.random.set_state(numpy)
