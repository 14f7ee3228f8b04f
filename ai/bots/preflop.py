"""The 169 starting-hand classes and a precomputed preflop equity table.

`data/preflop_equity.json` holds, per class, the win probability (ties shared)
against 1..9 random hands that all go to showdown; `python -m ai.bots.preflop`
rebuilds it (seeded, ~1 min on 2 cores). From it:
- the bots' preflop p in O(1);
- the preflop ranking by Income Rate (DOMAIN.md §2): ai.math's simulated table
  when present, else a proxy: with everyone putting in one unit and calling down,
  a hand's average result is IR = equity * (players) - 1 units per hand.

>>> from holdem.cards import card_index
>>> class_label(card_index("Ah"), card_index("Kh")), class_label(card_index("7c"), card_index("2d"))
('AKs', '72o')
"""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path

import numpy as np

from holdem.cards import RANKS

MAX_OPPONENTS = 9
DATA_PATH = Path(__file__).with_name("data") / "preflop_equity.json"


def class_label(a: int, b: int) -> str:
    """'AA', 'AKs' or 'AKo' for two card ints."""
    ra, rb = a >> 2, b >> 2
    high, low = max(ra, rb), min(ra, rb)
    if high == low:
        return RANKS[high] * 2
    return RANKS[high] + RANKS[low] + ("s" if (a & 3) == (b & 3) else "o")


def all_labels() -> tuple[str, ...]:
    """The 169 classes, pairs first then by ranks (a fixed order for arrays)."""
    labels = [r * 2 for r in reversed(RANKS)]
    for hi in range(12, -1, -1):
        for lo in range(hi - 1, -1, -1):
            labels.append(RANKS[hi] + RANKS[lo] + "s")
            labels.append(RANKS[hi] + RANKS[lo] + "o")
    return tuple(labels)


LABELS = all_labels()
LABEL_INDEX = {label: i for i, label in enumerate(LABELS)}


def combos_of(label: str) -> int:
    return 6 if len(label) == 2 else (4 if label[2] == "s" else 12)


@cache
def class_of_pair() -> np.ndarray:
    """52x52 table: class index of every two-card holding."""
    table = np.zeros((52, 52), dtype=np.int64)
    for a in range(52):
        for b in range(52):
            if a != b:
                table[a, b] = LABEL_INDEX[class_label(a, b)]
    return table


@cache
def equity_table() -> np.ndarray:
    """(169, 10) array: column n = equity against n random opponents (column 0 unused = 1)."""
    data = json.loads(DATA_PATH.read_text())
    table = np.ones((len(LABELS), MAX_OPPONENTS + 1), dtype=np.float64)
    for label, row in data["equity"].items():
        table[LABEL_INDEX[label], 1:] = row
    return table


def preflop_equity(a: int, b: int, opponents: int) -> float:
    opponents = min(max(opponents, 1), MAX_OPPONENTS)
    return float(equity_table()[class_of_pair()[a, b], opponents])


def income_rates(opponents: int) -> np.ndarray:
    """IR per class (LABELS order) against `opponents` callers.

    The simulated table of ai.math (ai/data/income_rate.json, columns for 1, 3, 6
    opponents: the nearest is used) when it is installed, else the proxy from the
    equity table, which ranks the classes the same way up to sampling noise.
    """
    try:
        from ai.math.income_rate import load_income_rates

        rates = load_income_rates()
    except (ImportError, OSError, ValueError, KeyError):
        return equity_table()[:, opponents] * (opponents + 1) - 1
    column = min(rates.opponents, key=lambda n: (abs(n - opponents), n))
    names = [str(name) for name in _math_class_names()]
    ir = np.zeros(len(LABELS))
    for row, name in enumerate(names):
        ir[LABEL_INDEX[name]] = rates.ir[row, rates.column(column)]
    return ir


def _math_class_names() -> tuple[str, ...]:
    from ai.math.combos import CLASS_NAMES

    return tuple(CLASS_NAMES)


@cache
def income_rate_percentile(opponents: int) -> np.ndarray:
    """Per class, the share of all 1326 holdings with a lower Income Rate (0 = worst, ~1 = best).

    Weighted by combos so "top 20%" means 20% of dealt hands.
    """
    opponents = min(max(opponents, 1), MAX_OPPONENTS)
    ir = income_rates(opponents)
    order = np.argsort(ir, kind="stable")
    weights = np.array([combos_of(label) for label in LABELS], dtype=np.float64)
    percentile = np.zeros(len(LABELS))
    below = 0.0
    for index in order:
        percentile[index] = below / 1326.0
        below += weights[index]
    return percentile


def hand_percentile(a: int, b: int, opponents: int) -> float:
    """Rank of a holding by the IR proxy: 0.99+ for AA, ~0 for 72o."""
    return float(income_rate_percentile(opponents)[class_of_pair()[a, b]])


def build(samples: int, seed: int) -> dict[str, object]:
    """Simulate the table: one representative holding per class (suits don't matter preflop)."""
    from ai.bots.montecarlo import equity_vs_random

    board = np.zeros(5, dtype=np.int64)
    equity: dict[str, list[float]] = {}
    for i, label in enumerate(LABELS):
        hi, lo = RANKS.index(label[0]), RANKS.index(label[1])
        suited = len(label) == 3 and label[2] == "s"
        hole = np.array([hi * 4, lo * 4 + (0 if suited else 1)], dtype=np.int64)
        equity[label] = [
            round(equity_vs_random(hole, board, 0, n, samples, seed + 1000 * i + n), 5)
            for n in range(1, MAX_OPPONENTS + 1)
        ]
    return {"samples": samples, "seed": seed, "equity": equity}


def main(argv: list[str]) -> int:
    samples = int(argv[0]) if argv else 40_000
    DATA_PATH.parent.mkdir(exist_ok=True)
    DATA_PATH.write_text(json.dumps(build(samples, seed=2024), indent=0) + "\n")
    print(f"wrote {DATA_PATH} ({samples} samples per cell)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
