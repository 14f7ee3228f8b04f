"""Preflop ranking of the 169 classes: equity against random hands and Income Rate percentiles.

`ai/data/preflop_equity.json` holds, per class, the win probability (ties shared)
against 1..9 random hands that all go to showdown; `python -m ai.math.preflop_table`
rebuilds it (seeded, ~1 min on 2 cores). From it:
- the bots' preflop p in O(1);
- the preflop ranking by Income Rate (DOMAIN.md §2): the simulated table of
  `ai.math.income_rate` when present, else a proxy: with everyone putting in one unit
  and calling down, a hand's average result is IR = equity * (players) - 1 units per hand.

Arrays are per class in `ai.math.combos.CLASS_NAMES` order; `class_of_pair()[a, b]`
indexes them by two cards.

>>> from holdem.cards import card_index
>>> aces, trash = (card_index("As"), card_index("Ah")), (card_index("7c"), card_index("2d"))
>>> hand_percentile(*aces, 3) > 0.99 > 0.05 > hand_percentile(*trash, 3)
True
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

import numpy as np
from numpy.typing import NDArray

from ai.math.combos import N_CLASSES, class_combos, class_index, class_of_pair
from ai.math.income_rate import load_income_rates
from holdem.cards import RANKS

MAX_OPPONENTS = 9
DATA_FILE = "preflop_equity.json"


def table_order() -> tuple[str, ...]:
    """The classes in the data file's order: pairs, then by ranks, suited before offsuit.

    The rebuild seeds each class by its position here, so it must not change.
    """
    labels = [r * 2 for r in reversed(RANKS)]
    for hi in range(12, -1, -1):
        for lo in range(hi - 1, -1, -1):
            labels.append(RANKS[hi] + RANKS[lo] + "s")
            labels.append(RANKS[hi] + RANKS[lo] + "o")
    return tuple(labels)


@cache
def equity_table() -> NDArray[np.float64]:
    """(169, 10) array: column n = equity against n random opponents (column 0 unused = 1)."""
    text = resources.files("ai.data").joinpath(DATA_FILE).read_text(encoding="utf-8")
    table = np.ones((N_CLASSES, MAX_OPPONENTS + 1), dtype=np.float64)
    for label, row in json.loads(text)["equity"].items():
        table[class_index(label), 1:] = row
    return table


def preflop_equity(a: int, b: int, opponents: int) -> float:
    """Equity of cards a, b against 1..9 random hands (clamped), from the shipped table."""
    opponents = min(max(opponents, 1), MAX_OPPONENTS)
    return float(equity_table()[class_of_pair()[a, b], opponents])


def income_rates(opponents: int) -> NDArray[np.float64]:
    """IR per class against `opponents` callers.

    The simulated table of ai.math.income_rate (columns for 1, 3, 6 opponents: the
    nearest is used) when it is installed, else the proxy from the equity table, which
    ranks the classes the same way up to sampling noise.
    """
    try:
        rates = load_income_rates()
    except (OSError, ValueError, KeyError):
        proxy: NDArray[np.float64] = equity_table()[:, opponents] * (opponents + 1) - 1
        return proxy
    column = min(rates.opponents, key=lambda n: (abs(n - opponents), n))
    ir: NDArray[np.float64] = rates.ir[:, rates.column(column)].copy()
    return ir


@cache
def income_rate_percentile(opponents: int) -> NDArray[np.float64]:
    """Per class, the share of all 1326 holdings with a lower Income Rate (0 = worst, ~1 = best).

    Weighted by combos so "top 20%" means 20% of dealt hands.
    """
    opponents = min(max(opponents, 1), MAX_OPPONENTS)
    ir = income_rates(opponents)
    order = np.argsort(ir, kind="stable")
    percentile = np.zeros(N_CLASSES)
    below = 0.0
    for index in order:
        percentile[index] = below / 1326.0
        below += len(class_combos(int(index)))
    return percentile


def hand_percentile(a: int, b: int, opponents: int) -> float:
    """Rank of a holding by Income Rate: 0.99+ for AA, ~0 for 72o."""
    return float(income_rate_percentile(opponents)[class_of_pair()[a, b]])
