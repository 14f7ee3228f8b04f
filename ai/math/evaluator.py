"""Seven-card evaluation: pkrbot for single hands, numba lookup tables for hot loops.

Both paths return the same *strength* 1..7462 (see `ai.math.tables`): higher is better,
equal hands are equal, so values from either path can be compared with each other.
The simulator's showdowns (`rank7`, `rank_hands`) skip the translation: pkrbot's raw
values order hands the same way and are only compared with each other.

Single-hand speed measured on this project's 2-core machine (AMD EPYC, Python 3.11),
200k random 7-card hands with card objects built in advance:
pkrbot 1.1.0 2.68 M/s, eval7 0.1.11 1.05 M/s, phevaluator 0.6.0 0.74 M/s; so pkrbot.
`ai.math.bench` measures this path and the batched one again.

>>> evaluate(["Ah", "Kh", "Qh", "Jh", "Th", "2c", "3d"])
7462
>>> evaluate("7c 5d 4h 3s 2c".split())
1
>>> int(evaluate_batch([[48, 44, 40, 36, 32, 0, 5]])[0])  # card indices: Ac Kc Qc Jc Tc ..
7462
>>> strength_of([48, 44, 40, 36, 32, 0, 5])
7462
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Sequence

import numpy as np
import pkrbot
from numpy.typing import ArrayLike, NDArray

from ai.math._jit import jit
from ai.math.tables import (
    PLAIN_MASK,
    PLAIN_SHIFT,
    RANK_KEYS,
    TABLE_OFFSET,
    _best_flush,
    _best_plain,
    build_tables,
    class_order,
    rank_multisets,
)
from holdem.cards import FULL_DECK, RANKS, SUITS, CardError

# Per card (index rank*4+suit): the rank key above bit 16 plus a 4-bit suit counter
# below it, so one addition per card accumulates both; and a bit at 16*suit+rank.
CARD_PACK: NDArray[np.int64] = np.array(
    [(RANK_KEYS[c >> 2] << 16) | (1 << (4 * (c & 3))) for c in range(52)], dtype=np.int64
)
CARD_BITS: NDArray[np.int64] = np.array(
    [1 << (16 * (c & 3) + (c >> 2)) for c in range(52)], dtype=np.int64
)
# Literal copies of the table layout for the kernels: numba's disk cache notices edits to
# this file but not to globals imported from another module.
OFFSET_5, OFFSET_6, OFFSET_7 = 0, 6553070, 13742485
_SHIFT, _MASK = 9, 511
if (
    TABLE_OFFSET[5],
    TABLE_OFFSET[6],
    TABLE_OFFSET[7],
    PLAIN_SHIFT,
    PLAIN_MASK,
) != (OFFSET_5, OFFSET_6, OFFSET_7, _SHIFT, _MASK):
    raise RuntimeError("ai.math.evaluator's layout constants disagree with ai.math.tables")


@jit
def value_of(
    packed: int, bits: int, offset: int, plain: NDArray[np.int32], flush: NDArray[np.int32]
) -> int:
    """Strength of a 5-7 card set given the sums of its CARD_PACK and CARD_BITS entries."""
    # Adding 3 to each 4-bit suit counter sets its top bit exactly when the count is >= 5.
    five = ((packed & 0xFFFF) + 0x3333) & 0x8888
    if five:
        if five & 0x8:
            suit = 0
        elif five & 0x80:
            suit = 1
        elif five & 0x800:
            suit = 2
        else:
            suit = 3
        return int(flush[(bits >> (16 * suit)) & 0x1FFF])
    i = offset + (packed >> 16)
    return int(plain[plain[i >> _SHIFT] + (i & _MASK)])


@jit
def evaluate_indices(
    cards: NDArray[np.int64],
    pack: NDArray[np.int64],
    cbits: NDArray[np.int64],
    plain: NDArray[np.int32],
    flush: NDArray[np.int32],
) -> int:
    """Strength of 5, 6 or 7 card indices (numba callers pass the tables through)."""
    packed = 0
    bits = 0
    for c in cards:
        packed += pack[c]
        bits |= cbits[c]
    n = cards.shape[0]
    offset = 0 if n == 5 else (OFFSET_6 if n == 6 else OFFSET_7)
    return value_of(packed, bits, offset, plain, flush)


@jit
def _evaluate_rows(
    cards: NDArray[np.int64],
    pack: NDArray[np.int64],
    cbits: NDArray[np.int64],
    plain: NDArray[np.int32],
    flush: NDArray[np.int32],
    out: NDArray[np.int32],
) -> None:
    n = cards.shape[1]
    offset = 0 if n == 5 else (OFFSET_6 if n == 6 else OFFSET_7)
    for i in range(cards.shape[0]):
        packed = 0
        bits = 0
        for j in range(n):
            c = cards[i, j]
            packed += pack[c]
            bits |= cbits[c]
        out[i] = value_of(packed, bits, offset, plain, flush)


def evaluate_batch(cards: ArrayLike) -> NDArray[np.int32]:
    """Strengths of many hands at once: an (n, k) array of card indices, k in 5..7.

    Rows must hold distinct cards (not checked: this is the hot path).
    """
    rows = np.ascontiguousarray(cards, dtype=np.int64)
    if rows.ndim != 2 or not 5 <= rows.shape[1] <= 7:
        raise ValueError(f"expected an (n, 5..7) array of card indices, got shape {rows.shape}")
    if rows.size and (rows.min() < 0 or rows.max() > 51):
        raise ValueError("card indices must be in 0..51")
    t = build_tables()
    out = np.empty(rows.shape[0], dtype=np.int32)
    _evaluate_rows(rows, CARD_PACK, CARD_BITS, t.plain, t.flush, out)
    return out


# --- the single-hand path -------------------------------------------------------------

_PK_CARDS: dict[str, object] = {card: pkrbot.Card(card) for card in FULL_DECK}
# The same cards by index (holdem.cards.card_index: rank-major, 2c=0 ... As=51).
_PK_BY_INDEX: tuple[object, ...] = tuple(_PK_CARDS[card] for card in FULL_DECK)
_pk_evaluate = pkrbot.evaluate


@functools.cache
def _strength_of_pkrbot() -> dict[int, int]:
    """pkrbot's raw value -> our strength, from one five-card hand of every class."""
    order = class_order()
    mapping: dict[int, int] = {}
    for counts in rank_multisets(5):
        # Deal suits round-robin over the cards so no five share a suit.
        ranks = [r for r in range(13) for _ in range(counts[r])]
        hand = [_PK_CARDS[RANKS[r] + SUITS[i % 4]] for i, r in enumerate(ranks)]
        mapping[pkrbot.evaluate(hand)] = order[_best_plain(counts)]
    for combo in itertools.combinations(range(13), 5):
        hand = [_PK_CARDS[RANKS[r] + "s"] for r in combo]
        mapping[pkrbot.evaluate(hand)] = order[_best_flush(sum(1 << r for r in combo))]
    return mapping


def pkrbot_value(cards: Iterable[str]) -> int:
    """pkrbot's own value for 5-7 cards (higher is better), without translation."""
    try:
        hand = [_PK_CARDS[c] for c in cards]
    except KeyError as exc:
        raise CardError(f"{exc.args[0]!r} is not a card (use e.g. Ah, Td, 7c)") from None
    return int(pkrbot.evaluate(hand))


def evaluate(cards: Sequence[str]) -> int:
    """Strength 1..7462 of 5-7 distinct cards such as ["Ah", "Kd", ...]."""
    if not 5 <= len(cards) <= 7:
        raise ValueError(f"need 5 to 7 cards, got {len(cards)}")
    return _strength_of_pkrbot()[pkrbot_value(cards)]


def strength_of(cards: Sequence[int]) -> int:
    """Strength 1..7462 of 5-7 distinct card indices (not checked: a bot's hot path)."""
    return _strength_of_pkrbot()[rank7(cards)]


def rank7(cards: Sequence[int]) -> int:
    """pkrbot's raw value of 5-7 card indices: higher wins, equal ties; not a strength."""
    pkr = _PK_BY_INDEX
    return int(_pk_evaluate([pkr[c] for c in cards]))


def rank_hands(board: Sequence[int], holes: Sequence[Sequence[int] | None]) -> list[int]:
    """rank7 of each hole pair with the 5-card board; -1 where the hole is None (folded)."""
    pkr = _PK_BY_INDEX
    base = [pkr[c] for c in board]
    return [-1 if h is None else int(_pk_evaluate([*base, pkr[h[0]], pkr[h[1]]])) for h in holes]
