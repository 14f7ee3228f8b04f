"""How each opponent answers *our* bets: counts of its folds, calls and raises facing a
bet or raise of ours, per street and cost to call.

A player's general frequencies mix its answers to everyone. A player who models us
answers our bets differently: pokis that have seen us bet often read our bets as
weaker and raise and call them more (Limit, 5-max, 2,000 duplicate hands: they fold
53% to our flop bets and 62% to a poki's in the same seat). The search's tables move
towards these counts as they grow (`ai.search.opponents.build_tables`), so a bet that
stops working against a player is seen to.

They also count every decision a player makes while we are in the hand
(`with_us`): in a two-player pot those are its answers to us alone, which the
ranges read at tables of three or more (`ai.bots.mcts.MctsBot`).

In No-Limit they also count the answers to our bets beyond the pot by size: the
search meets such a bet with a player's continuing share scaled by
(2 / (1 + bet/pot)) ** exponent, and `overbet_exponent` fits that exponent to what
the player did (a poki calls our flop all-ins into six big blinds 43% of the time,
where the exponent 1, pot odds' minimum defence, expects 6%).

>>> from ai.game.observation import ActionRecord
>>> from ai.sim.rules import BET, CALL, FOLD, RAISE
>>> book = VersusBook()
>>> history = [ActionRecord(0, 1, BET, 2, 0, 10), ActionRecord(1, 1, RAISE, 4, 2, 12),
...            ActionRecord(2, 1, FOLD, 0, 4, 16), ActionRecord(0, 1, CALL, 4, 2, 16)]
>>> book.ingest("h", ["me", "a", "b"], history, 0, (2, 2, 4, 4))
>>> int(book.counts_of("a")[1, 1, 2]), int(book.counts_of("b").sum())
(1, 0)
>>> int(book.with_us("b").decisions), int(book.with_us("me").decisions)
(1, 0)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np
import numpy.typing as npt

from ai.game.observation import ActionRecord
from ai.models.stats import CROWDS, PlayerStats, action_class, cost_bucket, crowd_of
from ai.sim.rules import BET, FOLD, RAISE

F64 = npt.NDArray[np.float64]
_FORGET_AFTER = 2000  # hands of bookkeeping kept (the counts are kept for good)
# Overbets by size (bet / pot before it): bins above these edges, and the size each
# bin stands for in the fit.
OVERBET_EDGES = (1.0, 1.5, 3.0, 6.0)
OVERBET_SIZES = (1.22, 2.1, 4.2, 10.0)
# The exponent's prior (pot odds' minimum defence) and how firmly it is held, and the
# exponents tried.
PRIOR_EXPONENT, PRIOR_SD = 1.0, 0.5
_GRID = np.linspace(0.0, 2.0, 21)


# Answers in one crowd (players in the hand) weigh as much as the player's answers in
# all of them once this many were seen there (`answers_of`).
CROWD_WEIGHT = 10.0


class VersusBook:
    """counts[player][street, cost, fold/call/raise] of decisions facing our bet or raise,
    and the same split by players in the hand (`ai.models.stats.crowd_of`)."""

    def __init__(self) -> None:
        self._counts: dict[str, F64] = {}
        self._crowds: dict[str, F64] = {}  # [street, cost, crowd, answer]
        # over[player][street, size bin, folded/continued]: answers to our overbets.
        self._over: dict[str, F64] = {}
        self._seen: dict[Hashable, int] = {}  # hand key -> records already counted
        self._with: dict[str, PlayerStats] = {}  # decisions while we were in the hand

    def counts_of(self, player: str) -> F64:
        counts = self._counts.get(player)
        return counts if counts is not None else np.zeros((4, 3, 3))

    def answers_of(self, player: str, crowd: int) -> F64:
        """`counts_of(player)` with each row's shares those seen with `crowd` players in
        the hand, smoothed towards the row's (CROWD_WEIGHT): a loki folds to 37% of our
        heads-up flop bets and 10% with four or more in the hand. The rows keep their
        totals, which say how far the search's tables move towards them."""
        counts = self.counts_of(player)
        split = self._crowds.get(player)
        if split is None:
            return counts
        seen = counts.sum(axis=-1, keepdims=True)
        here = split[:, :, crowd]
        overall = np.divide(counts, seen, out=np.zeros_like(counts), where=seen > 0)
        shares = (here + CROWD_WEIGHT * overall) / (here.sum(axis=-1, keepdims=True) + CROWD_WEIGHT)
        out: F64 = shares * seen
        return out

    def with_us(self, player: str) -> PlayerStats:
        """The player's counts (street, cost, crowd) over the decisions it made while we
        were in the hand; no prior is added, so an unseen player has none."""
        stats = self._with.get(player)
        return stats if stats is not None else PlayerStats()

    def overbets_of(self, player: str) -> F64:
        """[street, size bin, folded/continued] counts of the player's answers to our
        No-Limit bets beyond the pot."""
        over = self._over.get(player)
        return over if over is not None else np.zeros((4, len(OVERBET_EDGES), 2))

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
        in_hand = len(players)
        we_are_in = True
        for k, record in enumerate(history):
            if record.street != street:
                aggressor, street = -1, record.street
            if k >= start and we_are_in and record.player != me:
                self._count_with_us(players[record.player], record, in_hand, bet_units, limit)
            if k >= start and aggressor == me and record.player != me and record.to_call > 0:
                player = players[record.player]
                counts = self._counts.get(player)
                if counts is None:
                    counts = self._counts[player] = np.zeros((4, 3, 3))
                    self._crowds[player] = np.zeros((4, 3, CROWDS, 3))
                cost = cost_bucket(record.to_call, bet_units[record.street], record.pot, limit)
                answer = action_class(record.kind)
                counts[record.street, cost, answer] += 1
                self._crowds[player][record.street, cost, crowd_of(in_hand), answer] += 1
                ratio = record.to_call / max(record.pot - record.to_call, 1)
                if not limit and ratio > OVERBET_EDGES[0]:
                    over = self._over.get(player)
                    if over is None:
                        over = self._over[player] = np.zeros((4, len(OVERBET_EDGES), 2))
                    size = int(np.searchsorted(OVERBET_EDGES, ratio)) - 1
                    over[record.street, size, min(answer, 1)] += 1
            if record.kind in (BET, RAISE):
                aggressor = record.player
            elif record.kind == FOLD:
                in_hand -= 1
                we_are_in = we_are_in and record.player != me
        self._seen[hand_key] = len(history)

    def _count_with_us(
        self,
        player: str,
        record: ActionRecord,
        in_hand: int,
        bet_units: Sequence[int],
        limit: bool,
    ) -> None:
        stats = self._with.get(player)
        if stats is None:
            stats = self._with[player] = PlayerStats()
        cost = cost_bucket(record.to_call, bet_units[record.street], record.pot, limit)
        stats.add(record.street, cost, crowd_of(in_hand), action_class(record.kind))


def overbet_exponent(over: F64, continue_share: F64, prior: float = PRIOR_EXPONENT) -> float:
    """The exponent of (2 / (1 + bet/pot)) that best explains a player's answers to our
    overbets (`VersusBook.overbets_of`), given its continuing share facing a big bet
    per street (`continue_share[street]`, the search's tables): the most likely on a
    grid from 0 (met as often as a pot bet) to 2, with a normal prior around `prior`
    (the blueprint's own, `ai.search.overbet_prior`, where one stands behind the
    tables; else pot odds' minimum defence, 1).

    >>> over = np.zeros((4, 4, 2))
    >>> overbet_exponent(over, np.full(4, 0.5))
    1.0
    >>> overbet_exponent(over, np.full(4, 0.5), prior=0.1)
    0.1
    >>> over[1, 3] = (12, 10)  # all-ins of ten pots, called 10 times in 22
    >>> overbet_exponent(over, np.full(4, 0.5))
    0.1
    >>> over[1, 3] = (40, 1)  # called once in 41
    >>> overbet_exponent(over, np.full(4, 0.5))
    1.4
    """
    log_like = -((_GRID - prior) ** 2) / (2 * PRIOR_SD**2) + _log_likelihood(over, continue_share)
    return round(float(_GRID[int(np.argmax(log_like))]), 6)


def implied_exponent(over: F64, continue_share: F64) -> float:
    """The exponent that best explains answers to overbets with no prior: for the
    blueprint's own answers, weighed by how often self-play reaches them
    (`ai.search.overbet_prior`).

    >>> over = np.zeros((4, 4, 2))
    >>> over[1, 3] = (12, 10)
    >>> implied_exponent(over, np.full(4, 0.5))
    0.1
    >>> over[1, 3] = (40, 1)
    >>> implied_exponent(over, np.full(4, 0.5))
    1.8
    """
    return round(float(_GRID[int(np.argmax(_log_likelihood(over, continue_share)))]), 6)


def _log_likelihood(over: F64, continue_share: F64) -> F64:
    """Per exponent on the grid, the log likelihood of the answers `over`."""
    log_like = np.zeros_like(_GRID)
    for street in range(over.shape[0]):
        for size, ratio in enumerate(OVERBET_SIZES):
            folded, continued = over[street, size]
            if folded + continued == 0:
                continue
            p = np.clip(continue_share[street] * (2.0 / (1.0 + ratio)) ** _GRID, 0.01, 0.99)
            log_like += continued * np.log(p) + folded * np.log(1.0 - p)
    return log_like
