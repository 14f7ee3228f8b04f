"""Rebuilding `ai/data/preflop_equity.json`, the table `ai.math.preflop_rank` reads:
`python -m ai.math.preflop_table [samples]` (seeded, ~1 min on 2 cores).

Its own module because the simulation (`ai.math.random_equity`) reads the shipped table
for preflop spots itself.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from ai.math.evaluator import CARD_BITS, CARD_PACK
from ai.math.preflop_rank import DATA_FILE, MAX_OPPONENTS, table_order
from ai.math.random_equity import equity_vs_random
from ai.math.tables import build_tables
from holdem.cards import RANKS


def build(samples: int, seed: int) -> dict[str, object]:
    """Simulate the table: one representative holding per class (suits don't matter preflop)."""
    tables = build_tables()
    board = np.zeros(5, dtype=np.int64)
    equity: dict[str, list[float]] = {}
    for i, label in enumerate(table_order()):
        hi, lo = RANKS.index(label[0]), RANKS.index(label[1])
        suited = len(label) == 3 and label[2] == "s"
        hole = np.array([hi * 4, lo * 4 + (0 if suited else 1)], dtype=np.int64)
        equity[label] = [
            round(
                equity_vs_random(
                    hole, board, 0, n, samples, seed + 1000 * i + n,
                    CARD_PACK, CARD_BITS, tables.plain, tables.flush,
                ),
                5,
            )
            for n in range(1, MAX_OPPONENTS + 1)
        ]  # fmt: skip
    return {"samples": samples, "seed": seed, "equity": equity}


def main(argv: list[str]) -> int:
    samples = int(argv[0]) if argv else 40_000
    path = Path(__file__).parent.parent / "data" / DATA_FILE
    path.write_text(json.dumps(build(samples, seed=2024), indent=0) + "\n")
    print(f"wrote {path} ({samples} samples per cell)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
