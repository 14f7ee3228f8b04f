"""Card abstractions: what the MCCFR kernel sees of a deal.

An abstraction samples deals in batches and reduces each to one bucket per player and
round (what the player may know then, coarsened) and the showdown result. The kernel
never sees cards, so a new game or a finer abstraction is a new class here.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from ai.policy.tree import IntArray


class CardAbstraction(Protocol):
    name: str
    buckets: tuple[int, ...]  # per round

    def sample(self, n: int, rng: NDArray[np.int64]) -> tuple[IntArray, IntArray]:
        """n deals: buckets (n, 2, rounds) and results (n,): +1 player 0 wins, -1, 0 split.
        `rng` is a one-element int64 xorshift state, advanced in place."""
        ...

    def metadata(self) -> dict[str, object]:
        """What the artefact must store to map cards to buckets again."""
        ...
