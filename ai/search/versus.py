"""How each opponent answers *our* bets: counts of its folds, calls and raises facing a
bet or raise of ours, per street and cost to call.

A player's general frequencies mix its answers to everyone. A player who models us
answers our bets differently: pokis that have seen us bet often read our bets as
weaker and raise and call them more (Limit, 5-max, 2,000 duplicate hands: they fold
53% to our flop bets and 62% to a poki's in the same seat). The search's tables move
towards these counts as they grow (`ai.search.opponents.build_tables`), so a bet that
stops working against a player is seen to.

>>> from ai.bots.observation import ActionRecord
>>> from ai.sim.rules import BET, CALL, FOLD, RAISE
>>> book = VersusBook()
>>> history = [ActionRecord(0, 1, BET, 2, 0, 10), ActionRecord(1, 1, RAISE, 4, 2, 12),
...            ActionRecord(2, 1, FOLD, 0, 4, 16), ActionRecord(0, 1, CALL, 4, 2, 16)]
>>> book.ingest("h", ["me", "a", "b"], history, 0, (2, 2, 4, 4))
>>> int(book.counts_of("a")[1, 1, 2]), int(book.counts_of("b").sum())
(1, 0)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np
import numpy.typing as npt

from ai.bots.observation import ActionRecord
from ai.models.stats import action_class, cost_bucket
from ai.sim.rules import BET, RAISE

F64 = npt.NDArray[np.float64]
_FORGET_AFTER = 2000  # hands of bookkeeping kept (the counts are kept for good)


class VersusBook:
    """counts[player][street, cost, fold/call/raise] of decisions facing our bet or raise."""

    def __init__(self) -> None:
        self._counts: dict[str, F64] = {}
        self._seen: dict[Hashable, int] = {}  # hand key -> records already counted

    def counts_of(self, player: str) -> F64:
        counts = self._counts.get(player)
        return counts if counts is not None else np.zeros((4, 3, 3))

    def ingest(
        self,
        hand_key: Hashable,
        players: Sequence[str],
        history: Sequence[ActionRecord],
        me: int,
        bet_units: Sequence[int],
        limit: bool = True,
    ) -> None:
        """Count the records of `hand_key` not counted yet; `me` is our index."""
        start = self._seen.get(hand_key, 0)
        if start >= len(history):
            return
        if hand_key not in self._seen and len(self._seen) > _FORGET_AFTER:
            for old in list(self._seen)[: _FORGET_AFTER // 2]:
                del self._seen[old]
        aggressor, street = -1, -1
        for k, record in enumerate(history):
            if record.street != street:
                aggressor, street = -1, record.street
            if k >= start and aggressor == me and record.player != me and record.to_call > 0:
                player = players[record.player]
                counts = self._counts.get(player)
                if counts is None:
                    counts = self._counts[player] = np.zeros((4, 3, 3))
                cost = cost_bucket(record.to_call, bet_units[record.street], record.pot, limit)
                counts[record.street, cost, action_class(record.kind)] += 1
            if record.kind in (BET, RAISE):
                aggressor = record.player
        self._seen[hand_key] = len(history)
