"""A numba 5-to-7-card evaluator for the bots' hot loops.

Cards are ints 0..51 as in `holdem.cards.card_index` (rank * 4 + suit, 2c = 0).
A hand's value is an int: higher wins, equal ties. The category sits in bits
20.., then up to five ranks in 4-bit nibbles, most significant first.

>>> from holdem.cards import card_index
>>> royal = [card_index(c) for c in ("Ah", "Kh", "Qh", "Jh", "Th", "2c", "3d")]
>>> quads = [card_index(c) for c in ("As", "Ad", "Ac", "Ah", "Kd", "2c", "3d")]
>>> hand_value_of(royal) > hand_value_of(quads)
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from numba import njit

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
CATEGORY_SHIFT = 20

IntArray = npt.NDArray[np.int64]


@njit(cache=True, inline="always")
def _top_bit(mask: int) -> int:
    for r in range(12, -1, -1):
        if mask & (1 << r):
            return r
    return -1


@njit(cache=True, inline="always")
def _top_ranks(mask: int, count: int) -> int:
    """The `count` highest ranks of `mask` packed into nibbles, highest first."""
    out = 0
    taken = 0
    for r in range(12, -1, -1):
        if taken == count:
            break
        if mask & (1 << r):
            out = (out << 4) | r
            taken += 1
    return out << (4 * (5 - count))


@njit(cache=True, inline="always")
def _straight_high(mask: int) -> int:
    """Rank of the highest straight in a 13-bit rank mask (wheel = 3), else -1."""
    x = ((mask << 1) | ((mask >> 12) & 1)) & 0x3FFF  # ace also plays low at bit 0
    runs = x & (x >> 1) & (x >> 2) & (x >> 3) & (x >> 4)
    if runs == 0:
        return -1
    for i in range(9, -1, -1):
        if runs & (1 << i):
            return i + 3
    return -1


@njit(cache=True)
def hand_value(cards: IntArray, count: int) -> int:
    """Value of the best five of the first `count` (5..7) cards."""
    seen = 0
    pairs = 0
    trips = 0
    quads = 0
    # Suit counts packed in 4-bit fields: the flush check is one look at them.
    suit_counts = 0
    for i in range(count):
        c = cards[i]
        bit = 1 << (c >> 2)
        suit_counts += 1 << ((c & 3) << 2)
        if trips & bit:
            quads |= bit
        elif pairs & bit:
            trips |= bit
        elif seen & bit:
            pairs |= bit
        else:
            seen |= bit
    flush = 0
    for suit in range(4):
        if (suit_counts >> (suit << 2)) & 15 >= 5:
            for i in range(count):
                if cards[i] & 3 == suit:
                    flush |= 1 << (cards[i] >> 2)
    if flush:
        high = _straight_high(flush)
        if high >= 0:
            return (STRAIGHT_FLUSH << CATEGORY_SHIFT) | (high << 16)
    if quads:
        q = _top_bit(quads)
        return (QUADS << CATEGORY_SHIFT) | (q << 16) | (_top_bit(seen & ~(1 << q)) << 12)
    if trips:
        t = _top_bit(trips)
        others = pairs & ~(1 << t)
        if others:
            return (FULL_HOUSE << CATEGORY_SHIFT) | (t << 16) | (_top_bit(others) << 12)
    if flush:
        return (FLUSH << CATEGORY_SHIFT) | _top_ranks(flush, 5)
    high = _straight_high(seen)
    if high >= 0:
        return (STRAIGHT << CATEGORY_SHIFT) | (high << 16)
    if trips:
        t = _top_bit(trips)
        return (TRIPS << CATEGORY_SHIFT) | (t << 16) | (_top_ranks(seen & ~(1 << t), 2) >> 4)
    if pairs:
        p1 = _top_bit(pairs)
        rest = pairs & ~(1 << p1)
        if rest:
            p2 = _top_bit(rest)
            kick = _top_bit(seen & ~((1 << p1) | (1 << p2)))
            return (TWO_PAIR << CATEGORY_SHIFT) | (p1 << 16) | (p2 << 12) | (kick << 8)
        return (PAIR << CATEGORY_SHIFT) | (p1 << 16) | (_top_ranks(seen & ~(1 << p1), 3) >> 4)
    return (HIGH_CARD << CATEGORY_SHIFT) | _top_ranks(seen, 5)


@njit(cache=True)
def hand_values(hands: IntArray, count: int) -> IntArray:
    """Batched: the value of each row of an (n, >=count) card array."""
    out = np.empty(hands.shape[0], dtype=np.int64)
    for i in range(hands.shape[0]):
        out[i] = hand_value(hands[i], count)
    return out


def hand_value_of(cards: Sequence[int]) -> int:
    """Single evaluation from Python (5..7 cards)."""
    return int(hand_value(np.asarray(cards, dtype=np.int64), len(cards)))


def category_of(value: int) -> int:
    return value >> CATEGORY_SHIFT
