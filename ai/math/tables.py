"""Lookup tables behind the batched evaluator, built once per process (about a second).

Hand values are *strengths* 1..7462: the 7462 distinct five-card hand classes ordered
from 7-5-4-3-2 offsuit (1) to a royal flush (7462). Higher is better; ties are equal.

Non-flush hands are looked up by the sum of per-rank keys: the keys below (SKPokerEval's)
make the sum of any 5, 6 or 7 ranks (at most four of each) unique within one card count,
so key sum (+ an offset per count) -> strength is a sparse table of 21.6M slots, stored
compacted by a displacement hash. Flushes are looked up by the 13-bit rank mask of the
flush suit (with at most seven cards only one suit can hold five).

>>> t = build_tables()
>>> int(t.flush[0b1111100000000])  # A K Q J T of one suit
7462
>>> int(t.flush[0b1000000001111])  # 5 4 3 2 A of one suit: the lowest straight flush
7453
"""

from __future__ import annotations

import functools
import itertools
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ai.math._jit import jit

RANK_KEYS: tuple[int, ...] = (
    0,
    1,
    5,
    22,
    98,
    453,
    2031,
    8698,
    22854,
    83661,
    262349,
    636345,
    1479181,
)
MAX_KEY: dict[int, int] = {n: 4 * RANK_KEYS[12] + (n - 4) * RANK_KEYS[11] for n in (5, 6, 7)}
# Where each card count's region starts in the one concatenated non-flush table.
TABLE_OFFSET: dict[int, int] = {5: 0, 6: MAX_KEY[5] + 1, 7: MAX_KEY[5] + MAX_KEY[6] + 2}
TABLE_SIZE = TABLE_OFFSET[7] + MAX_KEY[7] + 1

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
CATEGORY_NAMES = (
    "High Card",
    "Pair",
    "Two Pair",
    "Trips",
    "Straight",
    "Flush",
    "Full House",
    "Quads",
    "Straight Flush",
)
# First strength of each category, so strength -> category is a search over 9 numbers.
N_CLASSES = 7462
DATA_FILE = "eval_tables.npz"
FORMAT_VERSION = 1  # bump when the table layout or the strength scale changes

Descriptor = tuple[int, tuple[int, ...]]


def _straight_top(mask: int) -> int:
    """Rank index of the top card of the best straight in a 13-bit rank mask, or -1."""
    wheel_mask = (mask << 1) | (mask >> 12)  # the ace also plays low: bit 0 = "ace-low"
    for top in range(12, 3, -1):
        if (mask >> (top - 4)) & 0b11111 == 0b11111:
            return top
    return 3 if wheel_mask & 0b11111 == 0b11111 else -1


def _best_flush(mask: int) -> Descriptor:
    top = _straight_top(mask)
    if top >= 0:
        return STRAIGHT_FLUSH, (top,)
    ranks = [r for r in range(12, -1, -1) if mask >> r & 1]
    return FLUSH, tuple(ranks[:5])


def _best_plain(counts: tuple[int, ...]) -> Descriptor:
    """Best five-card class of a rank multiset (5..7 ranks) when no flush is possible."""
    by_rank = [r for r in range(12, -1, -1) if counts[r]]  # distinct ranks, high first
    quads = [r for r in by_rank if counts[r] == 4]
    trips = [r for r in by_rank if counts[r] == 3]
    pairs = [r for r in by_rank if counts[r] == 2]
    if quads:
        q = quads[0]
        return QUADS, (q, next(r for r in by_rank if r != q))
    if trips and (len(trips) > 1 or pairs):
        t = trips[0]
        return FULL_HOUSE, (t, max([*trips[1:], *pairs]))
    mask = sum(1 << r for r in by_rank)
    top = _straight_top(mask)
    if top >= 0:
        return STRAIGHT, (top,)
    if trips:
        t = trips[0]
        return TRIPS, (t, *[r for r in by_rank if r != t][:2])
    if len(pairs) >= 2:
        hi, lo = pairs[0], pairs[1]
        return TWO_PAIR, (hi, lo, next(r for r in by_rank if r not in (hi, lo)))
    if pairs:
        p = pairs[0]
        return PAIR, (p, *[r for r in by_rank if r != p][:3])
    return HIGH_CARD, tuple(by_rank[:5])


def rank_multisets(n: int) -> Iterator[tuple[int, ...]]:
    """Every 13-long count vector (each 0..4) summing to n."""

    def rec(left: int, rank: int, prefix: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if rank == 13:
            if left == 0:
                yield prefix
            return
        for c in range(min(4, left) + 1):
            yield from rec(left - c, rank + 1, (*prefix, c))

    return rec(n, 0, ())


@functools.cache
def class_order() -> dict[Descriptor, int]:
    """Descriptor -> strength 1..7462 over every five-card hand class."""
    descriptors = {_best_plain(c) for c in rank_multisets(5)}
    for ranks in itertools.combinations(range(13), 5):
        descriptors.add(_best_flush(sum(1 << r for r in ranks)))
    ordered = sorted(descriptors)
    assert len(ordered) == N_CLASSES
    return {d: i + 1 for i, d in enumerate(ordered)}


@jit
def _displace(keys: NDArray[np.int64], shift: int) -> NDArray[np.int64]:
    """First-fit "hash and displace": an offset per row (key >> shift) such that
    offset[row] + (key & mask) is a different slot for every key. Keys must be sorted."""
    mask = (1 << shift) - 1
    n_rows = (keys[-1] >> shift) + 1
    starts = np.searchsorted(keys >> shift, np.arange(n_rows + 1))
    sizes = starts[1:] - starts[:-1]
    offsets = np.zeros(n_rows, dtype=np.int64)
    used = np.zeros(keys.shape[0] * 4 + (4 << shift), dtype=np.bool_)
    first_free = 0
    for row in np.argsort(-sizes, kind="mergesort"):
        if sizes[row] == 0:
            continue
        cols = keys[starts[row] : starts[row + 1]] & mask
        offset = max(0, first_free - cols[0])
        while True:
            clash = False
            for c in cols:
                if used[offset + c]:
                    clash = True
                    break
            if not clash:
                break
            offset += 1
        for c in cols:
            used[offset + c] = True
        offsets[row] = offset
        while used[first_free]:
            first_free += 1
    return offsets


@dataclass(frozen=True)
class Tables:
    """The arrays the numba kernels take as arguments (globals would be baked into the cache)."""

    # Non-flush hands: for i = TABLE_OFFSET[n] + key sum, the strength is
    # plain[plain[i >> PLAIN_SHIFT] + (i & PLAIN_MASK)]; the row offsets sit at the front.
    # Compacted from a 21.6M-slot sparse table to ~0.7 MB so lookups stay in cache.
    plain: NDArray[np.int32]
    flush: NDArray[np.int32]  # 13-bit rank mask of the flush suit -> strength
    category_start: NDArray[np.int32]  # first strength of each category (9 entries)


PLAIN_SHIFT = 9  # measured: the smallest rows + values total (167k int32) of shifts 6..14
PLAIN_MASK = (1 << PLAIN_SHIFT) - 1


def compute_tables() -> Tables:
    """Build every table from the hand-class definitions (a few seconds)."""
    order = class_order()
    keys = np.array(RANK_KEYS, dtype=np.int64)
    all_sums: list[NDArray[np.int64]] = []
    all_values: list[NDArray[np.int64]] = []
    for n in (5, 6, 7):
        counts = list(rank_multisets(n))
        all_sums.append(np.array(counts, dtype=np.int64) @ keys + TABLE_OFFSET[n])
        all_values.append(np.array([order[_best_plain(c)] for c in counts], dtype=np.int64))
    sums = np.concatenate(all_sums)
    values = np.concatenate(all_values)
    sort = np.argsort(sums)
    sums, values = sums[sort], values[sort]
    offsets = _displace(sums, PLAIN_SHIFT) + (TABLE_SIZE >> PLAIN_SHIFT) + 1
    slots = offsets[sums >> PLAIN_SHIFT] + (sums & PLAIN_MASK)
    plain = np.zeros(int(slots.max()) + 1, dtype=np.int32)
    plain[: offsets.shape[0]] = offsets
    plain[slots] = values
    flush = np.zeros(1 << 13, dtype=np.int32)
    for mask in range(1 << 13):
        if mask.bit_count() >= 5:
            flush[mask] = order[_best_flush(mask)]
    starts = np.zeros(9, dtype=np.int32)
    for (category, _), strength in order.items():
        if starts[category] == 0 or strength < starts[category]:
            starts[category] = strength
    return Tables(plain=plain, flush=flush, category_start=starts)


def save_tables(tables: Tables, path: Path) -> None:
    np.savez_compressed(
        path,
        version=np.int64(FORMAT_VERSION),
        plain=tables.plain,
        flush=tables.flush,
        category_start=tables.category_start,
    )


def load_tables(source: Path | Traversable) -> Tables | None:
    """Tables from a saved file, or None when it is missing or of another format."""
    try:
        with source.open("rb") as handle, np.load(handle) as data:
            if int(data["version"]) != FORMAT_VERSION:
                return None
            return Tables(
                plain=data["plain"].astype(np.int32),
                flush=data["flush"].astype(np.int32),
                category_start=data["category_start"].astype(np.int32),
            )
    except (OSError, KeyError, ValueError):
        return None


@functools.cache
def build_tables() -> Tables:
    """The shipped tables (ai/data/eval_tables.npz), computed instead if that is missing."""
    return load_tables(resources.files("ai.data").joinpath(DATA_FILE)) or compute_tables()


def category_of(strength: int) -> int:
    """Category index (HIGH_CARD .. STRAIGHT_FLUSH) of a strength value.

    >>> CATEGORY_NAMES[category_of(7462)], CATEGORY_NAMES[category_of(1)]
    ('Straight Flush', 'High Card')
    """
    starts = build_tables().category_start
    return int(np.searchsorted(starts, strength, side="right")) - 1


def main() -> int:
    """Write the tables that `build_tables` loads: python -m ai.math.tables."""
    path = Path(__file__).resolve().parent.parent / "data" / DATA_FILE
    save_tables(compute_tables(), path)
    print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
