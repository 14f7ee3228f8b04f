"""How each player sizes its No-Limit bets: the model's size shares, corrected by counts.

The network's size head is a population estimate: its features describe how
often a player bets, not how big. Against one player it can be far off (measured
on 1,500 6-max hands, `aggressive`'s bets after the flop: half pot 59% of the
time, the network said 41%). Reading a bet's size as strength
(`ai.models.ranges.size_given_raise`) cuts a player's raising holdings by these
shares, so they must be the player's own. `SizeBook` counts each player's
size buckets per context (preflop or later; nothing to call or a bet to call,
the blinds counting as one) and blends them
with the model's prediction, which counts as PRIOR_BETS bets.

>>> import numpy as np
>>> book = SizeBook()
>>> model = np.array([0.0, 0.5, 0.0, 0.5, 0.0, 0.0])
>>> book.shares("p", 1, False, model).tolist()  # nothing seen yet: the model
[0.0, 0.5, 0.0, 0.5, 0.0, 0.0]
>>> for _ in range(30):
...     book.add("p", 1, False, 1)
>>> book.shares("p", 1, False, model).round(2).tolist()
[0.0, 0.88, 0.0, 0.12, 0.0, 0.0]
>>> book.shares("p", 0, False, model).tolist()  # preflop is counted apart
[0.0, 0.5, 0.0, 0.5, 0.0, 0.0]
"""

from __future__ import annotations

import numpy as np

from ai.math.range_strength import FloatArray
from ai.models.features import N_SIZES
from ai.sim.rules import PREFLOP

PRIOR_BETS = 10.0


class SizeBook:
    """Per player and context, how many of their bets fell in each size bucket."""

    def __init__(self) -> None:
        self.counts: dict[tuple[str, int], FloatArray] = {}

    @staticmethod
    def context(street: int, facing: bool) -> int:
        """0..3: preflop or later, times nothing to call or a bet (the blinds count)."""
        return 2 * (street != PREFLOP) + facing

    def add(self, player: str, street: int, facing: bool, bucket: int) -> None:
        key = (player, self.context(street, facing))
        counts = self.counts.get(key)
        if counts is None:
            counts = self.counts[key] = np.zeros(N_SIZES)
        counts[bucket] += 1

    def shares(self, player: str, street: int, facing: bool, model: FloatArray) -> FloatArray:
        """The player's size shares in this context: the counts, with `model` as prior."""
        counts = self.counts.get((player, self.context(street, facing)))
        if counts is None:
            return model
        out: FloatArray = (counts + PRIOR_BETS * model) / (counts.sum() + PRIOR_BETS)
        return out
