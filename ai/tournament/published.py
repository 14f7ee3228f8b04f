"""The published heads-up push/fold Nash chart, for comparison with our own solution.

Source: HoldemResources.net, "HeadsUp Push/Fold Nash Equilibrium" charts (usage page
dated Jan 29, 2014: http://www.holdemresources.net/h/poker-theory/hune/usage.html),
values as transcribed in a public open-source Texas Hold'em bot's
`HandStrengthValuation.NashEquilibriumPusher` / `...Caller` tables. Each cell is the
largest effective stack, in big blinds before the blinds are posted, at which the hand
is pushed (SB) or calls a push (BB); 20 stands for "20+". Same 13x13 layout as
`ai.tournament.hands` (suited above the diagonal). The chart's few gaps (a hand pushed
in two separate stack ranges, e.g. 63s) are not in this transcription: the upper
bound is used.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

_PUSH = """
20 20 20 20 20 20 20 20 20 20 20 20 20
20 20 20 20 20 20 20 20 20 20 20 19.9 19.3
20 20 20 20 20 20 20 20 20 20 16.3 13.5 12.7
20 20 20 20 20 20 20 20 18.6 14.7 13.5 10.6 8.5
20 20 20 20 20 20 20 20 20 11.9 10.5 7.7 6.5
20 20 20 20 20 20 20 20 20 14.4 6.9 4.9 3.7
20 18.0 13.0 13.3 17.5 20 20 20 20 18.8 10.1 2.7 2.5
20 16.1 10.3 8.5 9.0 10.8 14.7 20 20 20 13.9 2.5 2.1
20 15.1 9.6 6.5 5.7 5.2 7.0 10.7 20 20 16.3 2.5 2.0
20 14.2 8.9 6.0 4.1 3.5 3.0 2.6 2.4 20 20 2.3 2.0
20 13.1 7.9 5.4 3.8 2.7 2.3 2.1 2.0 2.1 20 2.5 1.8
20 12.2 7.5 5.0 3.4 2.5 1.9 1.8 1.7 1.8 1.6 20 1.7
20 11.6 7.0 4.6 2.9 2.2 1.8 1.6 1.5 1.5 1.4 1.4 20
"""

_CALL = """
20 20 20 20 20 20 20 20 20 20 20 20 20
20 20 20 20 20 20 17.6 15.2 14.3 13.2 12.1 11.4 10.7
20 20 20 20 20 16.1 13.0 10.5 9.9 8.9 8.4 7.8 7.2
20 20 19.5 20 18.0 13.4 10.6 8.8 7.0 6.9 6.1 5.8 5.6
20 20 15.3 12.7 20 11.5 9.3 7.4 6.3 5.2 5.2 4.8 4.5
20 17.1 11.7 9.5 8.4 20 8.2 7.0 5.8 5.0 4.3 4.1 3.9
20 13.8 9.7 7.6 6.6 6.0 20 6.5 5.6 4.8 4.1 3.6 3.5
20 12.4 8.0 6.4 5.5 5.0 4.7 20 5.4 4.8 4.1 3.6 3.3
20 11.0 7.3 5.4 4.6 4.2 4.1 4.0 20 4.9 4.1 3.8 3.3
20 10.2 6.8 5.1 4.0 3.7 3.6 3.6 3.7 20 4.6 4.0 4.6
18.3 9.1 6.2 4.7 3.8 3.3 3.2 3.2 3.3 3.5 20 3.8 3.4
16.6 8.7 5.9 4.5 3.6 3.1 2.9 2.9 2.9 3.1 3.0 20 3.3
15.8 8.1 5.6 4.2 3.5 3.0 2.8 2.6 2.7 2.8 2.7 2.6 15
"""


def _grid(text: str) -> NDArray[np.float64]:
    out = np.array([[float(v) for v in row.split()] for row in text.strip().splitlines()])
    if out.shape != (13, 13):
        raise RuntimeError("a published chart must be 13 x 13")
    return out.reshape(169)


PUSH_LIMIT = _grid(_PUSH)  # per class: push at effective stacks up to this many bb
CALL_LIMIT = _grid(_CALL)
CHART_CAP = 20.0  # "20+"


def published_push(stack_bb: float) -> NDArray[np.bool_]:
    """The hands the published chart pushes at this effective stack."""
    out: NDArray[np.bool_] = stack_bb <= PUSH_LIMIT
    return out


def published_call(stack_bb: float) -> NDArray[np.bool_]:
    out: NDArray[np.bool_] = stack_bb <= CALL_LIMIT
    return out


__all__ = ["CALL_LIMIT", "CHART_CAP", "PUSH_LIMIT", "published_call", "published_push"]
