"""The 169 starting-hand classes on the usual 13x13 grid, and their concrete holdings.

Class k = row * 13 + col, rows and columns ranked A..2: pairs on the diagonal, suited
hands above it (row = high card), offsuit below (column = high card), as the published
push/fold charts and `ai.models.ranges.grid_of` lay them out. Cards are indices
rank * 4 + suit with rank 0 = deuce (`holdem.cards`).

>>> label(0), label(1), label(13), label(168)
('AA', 'AKs', 'AKo', '22')
>>> class_of(card_index("Ah"), card_index("Kd")) == index("AKo")
True
>>> int(COMBOS.sum())
1326
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ai.math.combos import N_CLASSES, class_index, class_name, combo_class, combo_index_of
from holdem.cards import RANKS, card_index

GRID_RANKS = RANKS[::-1]  # "AKQJT98765432"

# The grid is ai.math.combos': one definition of the 169 classes and their names.
label = class_name
index = class_index


def class_of(a: int, b: int) -> int:
    """The class of the holding of card indices a and b."""
    return combo_class(combo_index_of(a, b))


def _holdings() -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    cards = np.array([(a, b) for a in range(52) for b in range(a + 1, 52)], dtype=np.int64)
    classes = np.array([class_of(int(a), int(b)) for a, b in cards], dtype=np.int64)
    return cards, classes


HOLDINGS, HOLDING_CLASS = _holdings()  # the 1326 holdings (card pairs) and their classes
COMBOS: NDArray[np.int64] = np.bincount(HOLDING_CLASS, minlength=N_CLASSES)  # 6, 4 or 12


def _compatible() -> NDArray[np.float64]:
    """[i, j] = pairs (holding of class i, holding of class j) sharing no card."""
    bits = np.zeros((len(HOLDINGS), 52), dtype=bool)
    bits[np.arange(len(HOLDINGS)), HOLDINGS[:, 0]] = True
    bits[np.arange(len(HOLDINGS)), HOLDINGS[:, 1]] = True
    overlap = bits.astype(np.int32) @ bits.T.astype(np.int32)
    free = (overlap == 0).astype(np.float64)
    onehot = np.zeros((len(HOLDINGS), N_CLASSES))
    onehot[np.arange(len(HOLDINGS)), HOLDING_CLASS] = 1.0
    out: NDArray[np.float64] = onehot.T @ free @ onehot
    return out


PAIR_WEIGHTS = _compatible()  # card removal: how often class i meets class j

__all__ = [
    "COMBOS",
    "GRID_RANKS",
    "HOLDINGS",
    "HOLDING_CLASS",
    "N_CLASSES",
    "PAIR_WEIGHTS",
    "card_index",
    "class_of",
    "index",
    "label",
]
