"""LBR's valuation: equity against a range, and each action's value if both players
then check or call to the end (Lisý and Bowling, 2017).

Values are in chips won from here on (chips already in the pot are sunk):

- fold: 0;
- check or call: equity * (pot + to_call) - to_call;
- bet or raise costing `cost`, the target calling `their_call` if it continues:
  P(fold) * pot + (1 - P(fold)) * (equity against the calling range
  * (pot + cost + their_call) - cost).

A re-raise by the target counts as not folding (as in the paper). The paper took
the equity against the whole range after a raise; here it is against the range
that does not fold, weighted by each holding's probability of continuing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ai.math.range_strength import LEX_INDEX, combo_values

FloatArray = npt.NDArray[np.float64]
DEFAULT_RUNOUTS = 64  # sampled runouts preflop and on the flop; the turn enumerates the river


def equities(
    my_hole: tuple[int, int],
    board: tuple[int, ...],
    holes: Sequence[tuple[int, int]],
    rng: random.Random,
    runouts: int = DEFAULT_RUNOUTS,
) -> FloatArray:
    """LBR's share of the pot at showdown against each holding (wins + ties / 2), over the
    rest of the board: exact on the river and the turn, `runouts` samples before."""
    if not holes:
        return np.zeros(0)
    missing = 5 - len(board)
    used = {*my_hole, *board}
    deck = [c for c in range(52) if c not in used]
    if missing == 0:
        boards = [board]
    elif missing == 1:
        boards = [(*board, c) for c in deck]
    else:
        boards = [(*board, *rng.sample(deck, missing)) for _ in range(runouts)]
    theirs = np.array([LEX_INDEX[a, b] for a, b in holes], dtype=np.int64)
    mine = int(LEX_INDEX[my_hole])
    share = np.zeros(len(holes))
    valid = np.zeros(len(holes))
    for full in boards:
        values = combo_values(tuple(full))
        me = values[mine]
        them = values[theirs]
        ok = them >= 0  # -1: the runout uses one of that holding's cards
        share += np.where(ok, (me > them) + 0.5 * (me == them), 0.0)
        valid += ok
    out: FloatArray = np.divide(share, valid, out=np.full(len(holes), 0.5), where=valid > 0)
    return out


def weighted_mean(values: FloatArray, weights: FloatArray) -> float:
    total = float(weights.sum())
    return float((values * weights).sum() / total) if total > 0 else 0.5


def call_value(equity: float, pot: int, to_call: int) -> float:
    """Check (to_call 0) or call, then both check to the end."""
    return equity * (pot + to_call) - to_call


def raise_value(fold_p: float, call_equity: float, pot: int, cost: int, their_call: int) -> float:
    """Bet or raise adding `cost`: the target folds with `fold_p`, else calls `their_call`."""
    return fold_p * pot + (1.0 - fold_p) * (call_equity * (pot + cost + their_call) - cost)
