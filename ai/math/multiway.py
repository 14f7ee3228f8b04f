"""Hand strength against several opponents (DOMAIN.md §2).

Three estimates of the chance to beat every active opponent: HS^n against one
shared table (`ai.math.odds.multiway_strength`), the product of per-opponent HS
against each opponent's own table, and HS against the *field array* (the average
of the opponents' normalised tables) raised to the number of opponents.

>>> import numpy as np
>>> w = np.ones(1326)
>>> round(product_strength(["Ah", "Ad"], ["2c", "7d", "9h"], [w, w]), 4) == round(
...     field_strength(["Ah", "Ad"], ["2c", "7d", "9h"], [w, w]), 4)
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ai.math.cardsets import CardsLike, to_indices
from ai.math.combos import N_COMBOS, cards_mask, live_combos
from ai.math.potential import hand_strength


def normalised(weights: ArrayLike, dead: CardsLike = ()) -> NDArray[np.float64]:
    """A weight table over the combos that avoid `dead`, scaled to sum to 1."""
    table = np.array(weights, dtype=np.float64)
    if table.shape != (N_COMBOS,):
        raise ValueError(f"a weight table has {N_COMBOS} entries, got shape {table.shape}")
    dead_i = to_indices(dead)
    table[~live_combos(cards_mask(tuple(int(c) for c in dead_i)))] = 0.0
    total = table.sum()
    if total <= 0:
        raise ValueError("the weight table has no live holding")
    normal: NDArray[np.float64] = table / total
    return normal


def field_weights(tables: Sequence[ArrayLike], dead: CardsLike = ()) -> NDArray[np.float64]:
    """The field array: the mean of the active opponents' normalised tables."""
    if not tables:
        raise ValueError("need at least one opponent table")
    field: NDArray[np.float64] = np.mean([normalised(t, dead) for t in tables], axis=0)
    return field


def product_strength(hole: CardsLike, board: CardsLike, tables: Sequence[ArrayLike]) -> float:
    """Product over opponents of HS against each one's own table."""
    if not tables:
        raise ValueError("need at least one opponent table")
    result = 1.0
    for table in tables:
        result *= hand_strength(hole, board, table)
    return result


def field_strength(hole: CardsLike, board: CardsLike, tables: Sequence[ArrayLike]) -> float:
    """HS against the field array, raised to the number of opponents."""
    dead = np.concatenate([to_indices(hole), to_indices(board)])
    return float(hand_strength(hole, board, field_weights(tables, dead)) ** len(tables))
