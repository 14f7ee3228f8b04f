"""Prize tables: the share of the pool each place gets; payouts sum to the pool exactly.

>>> payouts(1000, percents("top3"))
[500, 300, 200]
>>> payouts(100, [50, 30, 20]) , sum(payouts(101, [50, 30, 20]))
([50, 30, 20], 101)
"""

from __future__ import annotations

import itertools

PRESETS: dict[str, list[int]] = {
    "winner_takes_all": [100],
    "top2": [65, 35],
    "top3": [50, 30, 20],
}


def standard(entrants: int) -> list[int]:
    """Multi-table default: about the top 15% paid, steeper at the top."""
    paid = max(1, min(entrants - 1, entrants * 15 // 100)) if entrants > 2 else 1
    if paid <= 3:
        return PRESETS[{1: "winner_takes_all", 2: "top2", 3: "top3"}[paid]]
    weights = [1.0 / (place**0.9) for place in range(1, paid + 1)]
    total = sum(weights)
    shares = [int(1000 * w / total) for w in weights]  # per mille
    shares[0] += 1000 - sum(shares)
    return shares


def percents(name: str, entrants: int = 0) -> list[int]:
    if name == "standard":
        return standard(entrants)
    if name not in PRESETS:
        raise ValueError(f"prizes: one of {', '.join([*PRESETS, 'standard'])}, or custom")
    return PRESETS[name]


def check_custom(shares: list[int]) -> list[int]:
    """Custom shares: positive, best place first, not rising."""
    if not shares or any(s <= 0 for s in shares):
        raise ValueError("prizes: every paid place needs a share above 0")
    if any(a < b for a, b in itertools.pairwise(shares)):
        raise ValueError("prizes: a lower place cannot be paid more than a higher one")
    return shares


def payouts(pool: int, shares: list[int]) -> list[int]:
    """The pool split by the shares (any total: percent or per mille); the chips the
    rounding leaves go to the best places, one each, so the sum is the pool."""
    total = sum(shares)
    amounts = [pool * s // total for s in shares]
    for i in range(pool - sum(amounts)):
        amounts[i % len(amounts)] += 1
    return amounts
