"""Seven-card hands ranked in bulk with numpy: the numbers `showdown_equity.rank_hand` gives.

The all-in equity ranks every player's hand on about a thousand boards; one at a
time in Python that cost 0.1-0.8 s per hand. Here each hand becomes bit masks of
its ranks (those held once, twice, three and four times, and the suited ranks of
a flush) and tables over the 8,192 masks give the best straight, the top card and
the top kickers, so a whole array of hands is ranked in a few array operations.

Seven cards cannot hold a flush and a full house (or quads) together, so a flush
is ranked from its suited ranks alone and everything else from the ranks.

Cards are indexes 0..51 as `holdem.cards.card_index` gives (rank * 4 + suit).
A value is `category * 16**5` plus up to five ranks (2..14) as base-16 digits.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numpy.typing import NDArray

Int64s = NDArray[np.int64]

_MASKS = 1 << 13
_DIGIT = (16**4, 16**3, 16**2, 16, 1)
_CATEGORY = 16**5
# Categories, weakest first (as in showdown_equity).
_PAIR, _TWO_PAIR, _TRIPS, _STRAIGHT, _FLUSH, _FULL_HOUSE, _QUADS, _STRAIGHT_FLUSH = range(1, 9)


class _Tables:
    """Per 13-bit rank mask (bit 0 = deuce): how many ranks, its top rank, that rank's bit, its best
    straight's top, and its top k ranks as k base-16 digits padded with zeros."""

    def __init__(self) -> None:
        masks = np.arange(_MASKS, dtype=np.int64)
        has = [(masks >> bit) & 1 == 1 for bit in range(13)]
        self.count = np.zeros(_MASKS, dtype=np.int64)
        self.high = np.zeros(_MASKS, dtype=np.int64)
        self.high_bit = np.zeros(_MASKS, dtype=np.int64)
        for bit in range(13):  # ascending: the last set bit wins
            self.count += has[bit]
            self.high = np.where(has[bit], bit + 2, self.high)
            self.high_bit = np.where(has[bit], 1 << bit, self.high_bit)
        self.straight = np.zeros(_MASKS, dtype=np.int64)
        for top in range(6, 15):  # ascending: the best straight wins
            run = np.logical_and.reduce([has[r - 2] for r in range(top - 4, top + 1)])
            self.straight = np.where(run, top, self.straight)
        wheel = np.logical_and.reduce([has[r - 2] for r in (14, 5, 4, 3, 2)])
        self.straight = np.where((self.straight == 0) & wheel, 5, self.straight)
        self.top = {k: self._top(has, k) for k in (2, 3, 5)}

    @staticmethod
    def _top(has: list[NDArray[np.bool_]], k: int) -> Int64s:
        value = np.zeros(_MASKS, dtype=np.int64)
        taken = np.zeros(_MASKS, dtype=np.int64)
        for bit in range(12, -1, -1):
            take = has[bit] & (taken < k)
            value = np.where(take, value * 16 + bit + 2, value)
            taken += take
        return value * 16 ** (k - taken)


@cache
def _tables() -> _Tables:
    return _Tables()


def suit_masks(cards: NDArray[np.integer]) -> Int64s:
    """The ranks held in each suit of each hand in `cards` (shape (..., n)): shape (..., 4).

    Masks of different cards can be or-ed together, e.g. a board's with each player's.
    """
    cards = np.asarray(cards, dtype=np.int64)
    rank_bit = np.left_shift(1, cards >> 2)
    masks: Int64s = np.stack(
        [np.where(cards & 3 == suit, rank_bit, 0).sum(axis=-1) for suit in range(4)], axis=-1
    )
    return masks


def rank_sevens(cards: NDArray[np.integer]) -> Int64s:
    """The value of each seven-card hand in `cards` (shape (..., 7)), as `rank_hand`'s."""
    return rank_masks(suit_masks(cards))


def rank_masks(suits: Int64s) -> Int64s:
    """The value of each seven-card hand given as `suit_masks` (shape (..., 4))."""
    t = _tables()
    s0, s1, s2, s3 = (suits[..., k] for k in range(4))
    present = s0 | s1 | s2 | s3
    two_up = (s0 & s1) | (s0 & s2) | (s0 & s3) | (s1 & s2) | (s1 & s3) | (s2 & s3)
    three_up = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    m4 = s0 & s1 & s2 & s3
    m3 = three_up & ~m4
    m2 = two_up & ~three_up
    m1 = present & ~two_up

    # At most one suit holds five of seven cards.
    in_suit = [t.count[s] >= 5 for s in (s0, s1, s2, s3)]
    has_flush = in_suit[0] | in_suit[1] | in_suit[2] | in_suit[3]
    suited = sum(np.where(flush, s, 0) for flush, s in zip(in_suit, (s0, s1, s2, s3), strict=True))

    trips, trips_bit = t.high[m3], t.high_bit[m3]
    full_pair = t.high[(m3 | m2) & ~trips_bit]
    pair, pair_bit = t.high[m2], t.high_bit[m2]
    second = m2 & ~pair_bit
    second_pair, second_bit = t.high[second], t.high_bit[second]
    flush_straight = t.straight[suited]
    straight = t.straight[present]

    value = np.select(
        [
            has_flush & (flush_straight > 0),
            m4 > 0,
            (m3 > 0) & (full_pair > 0),
            has_flush,
            straight > 0,
            m3 > 0,
            second > 0,
            m2 > 0,
        ],
        [
            _STRAIGHT_FLUSH * _CATEGORY + flush_straight * _DIGIT[0],
            _QUADS * _CATEGORY
            + t.high[m4] * _DIGIT[0]
            + t.high[present & ~t.high_bit[m4]] * _DIGIT[1],
            _FULL_HOUSE * _CATEGORY + trips * _DIGIT[0] + full_pair * _DIGIT[1],
            _FLUSH * _CATEGORY + t.top[5][suited],
            _STRAIGHT * _CATEGORY + straight * _DIGIT[0],
            _TRIPS * _CATEGORY + trips * _DIGIT[0] + t.top[2][m1] * _DIGIT[2],
            _TWO_PAIR * _CATEGORY
            + pair * _DIGIT[0]
            + second_pair * _DIGIT[1]
            + t.high[present & ~pair_bit & ~second_bit] * _DIGIT[2],
            _PAIR * _CATEGORY + pair * _DIGIT[0] + t.top[3][m1] * _DIGIT[3],
        ],
        default=t.top[5][m1],
    )
    result: Int64s = np.asarray(value, dtype=np.int64)
    return result
