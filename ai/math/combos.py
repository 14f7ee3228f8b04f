"""The 1326 two-card holdings and the 169 starting-hand classes.

A holding's canonical *combo index* is its colex rank: for card indices lo < hi,
``hi * (hi - 1) // 2 + lo`` (0..1325). Weight tables and per-holding arrays use it.
Classes are numbered on the usual 13x13 chart, aces first: row i, column j
(0 = ace .. 12 = deuce); pairs on the diagonal, suited above it, offsuit below.

>>> combo_index("Ah", "Kh") == combo_index("Kh", "Ah")
True
>>> combo_cards(combo_index("2c", "2d"))
('2c', '2d')
>>> CLASS_NAMES[0], CLASS_NAMES[1], CLASS_NAMES[13], CLASS_NAMES[168]
('AA', 'AKs', 'AKo', '22')
>>> class_name(combo_class(combo_index("7c", "2d")))
'72o'
>>> [len(class_combos(class_index(n))) for n in ("QQ", "AKs", "T9o")]
[6, 4, 12]
"""

from __future__ import annotations

import functools

import numpy as np
from numpy.typing import NDArray

from holdem.cards import FULL_DECK, RANKS, CardError, card_index, is_card

N_COMBOS = 1326
N_CLASSES = 169

# COMBO_CARDS[i] = (lo, hi) card indices of combo i.
COMBO_CARDS: NDArray[np.int64] = np.array(
    [(lo, hi) for hi in range(52) for lo in range(hi)], dtype=np.int64
)
# Bit mask (1 << card) of each combo: conflict tests against dead cards are one AND.
COMBO_MASKS: NDArray[np.int64] = (np.int64(1) << COMBO_CARDS[:, 0]) | (
    np.int64(1) << COMBO_CARDS[:, 1]
)

_CHART = RANKS[::-1]  # "AKQJT98765432": chart position 0 is the ace


def combo_index_of(a: int, b: int) -> int:
    """Combo index of two distinct card indices, in either order."""
    if a == b or not (0 <= a < 52 and 0 <= b < 52):
        raise CardError(f"not a two-card holding: {a}, {b}")
    lo, hi = (a, b) if a < b else (b, a)
    return hi * (hi - 1) // 2 + lo


def combo_index(a: str, b: str) -> int:
    """Combo index of two cards given as strings, e.g. combo_index("Ah", "Kd")."""
    for card in (a, b):
        if not is_card(card):
            raise CardError(f"{card!r} is not a card (use e.g. Ah, Td, 7c)")
    return combo_index_of(card_index(a), card_index(b))


def combo_cards(index: int) -> tuple[str, str]:
    """The two cards of a combo, lower card index first."""
    lo, hi = COMBO_CARDS[index]
    return FULL_DECK[lo], FULL_DECK[hi]


def combo_name(index: int) -> str:
    """The holding written high card first: combo_name(combo_index("2c", "Ah")) == "Ah2c"."""
    lo, hi = combo_cards(index)
    return hi + lo


def _class_of_cards(a: int, b: int) -> int:
    ra, rb = 12 - (a >> 2), 12 - (b >> 2)  # chart positions, 0 = ace
    hi, lo = min(ra, rb), max(ra, rb)
    if hi == lo:
        return hi * 13 + hi
    if a & 3 == b & 3:
        return hi * 13 + lo  # suited: above the diagonal
    return lo * 13 + hi  # offsuit: below it


def _class_name(index: int) -> str:
    i, j = divmod(index, 13)
    if i == j:
        return _CHART[i] * 2
    if i < j:
        return _CHART[i] + _CHART[j] + "s"
    return _CHART[j] + _CHART[i] + "o"


CLASS_NAMES: tuple[str, ...] = tuple(_class_name(i) for i in range(N_CLASSES))
# COMBO_CLASS[combo] = class index.
COMBO_CLASS: NDArray[np.int64] = np.array(
    [_class_of_cards(int(a), int(b)) for a, b in COMBO_CARDS], dtype=np.int64
)
_CLASS_BY_NAME = {name: i for i, name in enumerate(CLASS_NAMES)}


def combo_class(index: int) -> int:
    return int(COMBO_CLASS[index])


def class_name(index: int) -> str:
    return CLASS_NAMES[index]


def class_index(name: str) -> int:
    """Class index of "AA", "AKs", "72o" (case of the s/o suffix is ignored)."""
    key = name[:2].upper() + name[2:].lower()
    if key not in _CLASS_BY_NAME:
        raise ValueError(f"{name!r} is not a starting-hand class (e.g. AA, AKs, 72o)")
    return _CLASS_BY_NAME[key]


@functools.cache
def _class_members() -> tuple[NDArray[np.int64], ...]:
    return tuple(np.flatnonzero(c == COMBO_CLASS) for c in range(N_CLASSES))


def class_combos(index: int) -> NDArray[np.int64]:
    """Combo indices of one class: 6 for a pair, 4 suited, 12 offsuit."""
    return _class_members()[index]


@functools.cache
def class_of_pair() -> NDArray[np.int64]:
    """52x52 table: the class index of every two-card holding (0 on the diagonal).

    >>> from holdem.cards import card_index
    >>> CLASS_NAMES[int(class_of_pair()[card_index("Kh"), card_index("Ah")])]
    'AKs'
    """
    table = np.zeros((52, 52), dtype=np.int64)
    for a in range(52):
        for b in range(52):
            if a != b:
                table[a, b] = _class_of_cards(a, b)
    table.setflags(write=False)
    return table


def cards_mask(cards: list[int] | tuple[int, ...]) -> int:
    """Bit mask of card indices."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def live_combos(dead_mask: int) -> NDArray[np.bool_]:
    """Which combos avoid every card in dead_mask."""
    live: NDArray[np.bool_] = (COMBO_MASKS & np.int64(dead_mask)) == 0
    return live
