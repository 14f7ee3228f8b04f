"""Dealing what we cannot see: opponents' hole cards from their ranges, the rest of the board,
and every player's strength on every street of each deal (what their model play reads).

Only public information goes in: our cards, the board and the opponents' weight tables.
The simulator's own hidden cards are never read (they are placeholders, or in the
arena the real cards).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ai.game.observation import Observation
from ai.math.combos import class_of_pair
from ai.math.preflop_rank import income_rate_percentile
from ai.math.range_strength import COMBO_FIRST, COMBO_SECOND
from ai.math.rollout_strength import sampled_strengths
from ai.models.ranges import RangeTracker
from ai.sim.rules import PREFLOP

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


RangeTables = list[tuple[int, FloatArray, FloatArray]]


def range_tables(
    obs: Observation,
    ranges: RangeTracker,
    kappa: Sequence[float] | None = None,
    mixed: bool = False,
) -> RangeTables:
    """Per opponent: (index, weights over the 1326 holdings, their cumulative shares),
    what `deal_from_ranges` draws from; the same for every batch of one decision.

    `kappa[i]` < 1 (a player whose bets do not follow their cards) flattens i's range
    towards every live holding in that proportion. With `mixed` the proportion is of
    probability: i's holding is drawn from its range with probability kappa and from
    every live holding with 1 - kappa (the posterior when i's actions followed its cards
    with probability kappa and were card-blind otherwise, at the same frequencies).
    Without it the range's weights, its best holding at 1, get 1 - kappa added on every
    live holding: a range narrowed to a twentieth of the holdings then draws three
    deals in four from the card-blind part at kappa 0.86.
    """
    known = np.zeros(52, dtype=np.bool_)
    known[[*obs.hole, *obs.board]] = True
    out: RangeTables = []
    for i in obs.opponents:
        weights = (
            ranges.range_of(i, (*obs.hole, *obs.board)) if i in ranges.weights else np.ones(1326)
        )
        live = ~(known[COMBO_FIRST] | known[COMBO_SECOND])
        weights[~live] = 0.0
        k = 1.0 if kappa is None else kappa[i]
        if k < 1.0 and weights.max() > 0:
            if mixed:
                weights = k * weights / weights.sum() + (1.0 - k) * live / live.sum()
            else:
                weights = k * weights / weights.max() + (1.0 - k) * live
        total = weights.sum()
        if total <= 0:  # nothing left in the table: any holding
            weights = np.where(known[COMBO_FIRST] | known[COMBO_SECOND], 0.0, 1.0)
            total = weights.sum()
        out.append((i, weights, np.cumsum(weights / total)))
    return out


def deal_from_ranges(
    obs: Observation,
    ranges: RangeTracker,
    np_rng: np.random.Generator,
    count: int,
    kappa: Sequence[float] | None = None,
    tables: RangeTables | None = None,
) -> tuple[IntArray, IntArray]:
    """`count` deals: (holes[count, n, 2], runouts[count, 5]); opponents from their ranges
    (`range_tables`, given or computed here).

    Vectorised: each opponent's holdings are drawn for all deals at once from its
    weight table (re-drawn where they clash with an earlier opponent's), then the
    board and the folded players' cards come from a random order of the unused cards.
    """
    n = obs.n
    board = list(obs.board)
    known = np.zeros(52, dtype=np.bool_)
    known[[*obs.hole, *board]] = True
    holes = np.zeros((count, n, 2), dtype=np.int64)
    holes[:, obs.index] = obs.hole
    used = np.tile(known, (count, 1))
    rows = np.arange(count)
    if tables is None:
        tables = range_tables(obs, ranges, kappa)
    for i, weights, cumulative in tables:
        picks = np.zeros(count, dtype=np.int64)
        pending = rows
        for _ in range(64):  # redraw only the deals whose pick clashes
            draws = np.searchsorted(cumulative, np_rng.random(len(pending)), side="right")
            picks[pending] = np.minimum(draws, len(cumulative) - 1)
            clash = (
                used[pending, COMBO_FIRST[picks[pending]]]
                | used[pending, COMBO_SECOND[picks[pending]]]
            )
            pending = pending[clash]
            if not len(pending):
                break
        for r in pending:  # the range all but exhausted by earlier deals: draw what is left
            free = ~(used[r, COMBO_FIRST] | used[r, COMBO_SECOND])
            left = np.where(free, weights, 0.0)
            if left.sum() <= 0:
                left = free.astype(np.float64)
            picks[r] = int(np.searchsorted(np.cumsum(left / left.sum()), np_rng.random()))
        holes[:, i, 0] = COMBO_FIRST[picks]
        holes[:, i, 1] = COMBO_SECOND[picks]
        used[rows, holes[:, i, 0]] = True
        used[rows, holes[:, i, 1]] = True
    # Unused cards in random order: the board's missing cards first, then the folded.
    keys = np_rng.random((count, 52)) + used
    order = np.argsort(keys, axis=1)
    missing = 5 - len(board)
    runouts = np.zeros((count, 5), dtype=np.int64)
    runouts[:, : len(board)] = board
    runouts[:, len(board) :] = order[:, :missing]
    in_play = {*obs.opponents, obs.index}
    column = missing
    for i in range(n):
        if i not in in_play:  # folded players' cards never matter, but must be distinct
            holes[:, i] = order[:, column : column + 2]
            column += 2
    return holes, runouts


def street_strengths(
    holes: IntArray,
    runouts: IntArray,
    street: int,
    samples: int,
    seed: int,
    opponents: int,
    potential: bool = False,
) -> FloatArray:
    """strengths[r, i, street]: Income Rate percentile preflop, the sampled board
    percentile after (`ai.math.rollout_strength.sampled_strengths`; with `potential`,
    on the flop and turn averaged over random completions of the board)."""
    strengths = sampled_strengths(holes, runouts, street, samples, seed, potential)
    if street == PREFLOP:
        ranks = income_rate_percentile(max(opponents, 1))
        strengths[:, :, PREFLOP] = ranks[class_of_pair()[holes[:, :, 0], holes[:, :, 1]]]
    return strengths
