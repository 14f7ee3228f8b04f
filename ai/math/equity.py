"""Showdown equity of several hands or ranges: exact enumeration or Monte Carlo.

Every valid deal (one holding per range, no shared card, none of the board or dead
cards) counts equally, and every completion of the board. Equity is the average pot
share (a tie among k players gives each 1/k), so the equities sum to 1.

Exact when (matchups x board completions) is at most `EXACT_LIMIT`, otherwise a seeded
Monte Carlo with the standard error of each equity.

>>> r = equity_of(["AsAd", "KsKd"], board="2c7h9c")  # KK needs a king and no ace: 83/990
>>> r.exact, round(r.equities[1] * 990)
(True, 83)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ai.math._jit import jit
from ai.math.cardsets import CardsLike, disjoint, to_indices
from ai.math.combos import COMBO_CARDS, COMBO_MASKS
from ai.math.evaluator import CARD_BITS, CARD_PACK, OFFSET_7, value_of
from ai.math.fastrng import task_seed
from ai.math.ranges import RangeError, parse_range
from ai.math.tables import build_tables
from holdem.cards import parse_cards

EXACT_LIMIT = 20_000_000  # board completions x matchups; about a second at most
DEFAULT_TRIALS = 200_000
MAX_REJECTIONS = 1_000_000  # consecutive invalid deals before giving up on a range set


@dataclass(frozen=True)
class EquityResult:
    equities: tuple[float, ...]
    wins: tuple[float, ...]  # share of outcomes won alone
    ties: tuple[float, ...]  # share of outcomes split
    stderr: tuple[float, ...] | None  # None when exact
    exact: bool
    samples: int  # deals enumerated (exact) or simulated (Monte Carlo)


@jit
def _score(
    holdings: NDArray[np.int64],
    bp: int,
    bb: int,
    plain: NDArray[np.int32],
    flush: NDArray[np.int32],
    pack: NDArray[np.int64],
    cbits: NDArray[np.int64],
    offset7: int,
    values: NDArray[np.int64],
    share: NDArray[np.float64],
) -> int:
    """Fill share[i] with each player's pot share; return the number of winners."""
    n = holdings.shape[0]
    best = 0
    for i in range(n):
        a = holdings[i, 0]
        b = holdings[i, 1]
        v = value_of(bp + pack[a] + pack[b], bb | cbits[a] | cbits[b], offset7, plain, flush)
        values[i] = v
        if v > best:
            best = v
    winners = 0
    for i in range(n):
        if values[i] == best:
            winners += 1
    for i in range(n):
        share[i] = 1.0 / winners if values[i] == best else 0.0
    return winners


@jit
def _exact_kernel(
    ranges: NDArray[np.int64],
    sizes: NDArray[np.int64],
    board: NDArray[np.int64],
    dead_mask: int,
    plain: NDArray[np.int32],
    flush: NDArray[np.int32],
    pack: NDArray[np.int64],
    cbits: NDArray[np.int64],
    offset7: int,
    eq: NDArray[np.float64],
    win: NDArray[np.float64],
    tie: NDArray[np.float64],
) -> int:
    """Enumerate every valid matchup and board completion; return the number of deals."""
    n = sizes.shape[0]
    k = 5 - board.shape[0]
    base = np.int64(dead_mask)
    bp0 = 0
    bb0 = 0
    for c in board:
        base |= np.int64(1) << c
        bp0 += pack[c]
        bb0 |= cbits[c]
    pick = np.zeros(n, dtype=np.int64)
    holdings = np.empty((n, 2), dtype=np.int64)
    values = np.empty(n, dtype=np.int64)
    share = np.empty(n, dtype=np.float64)
    deck = np.empty(52, dtype=np.int64)
    idx = np.empty(5, dtype=np.int64)
    deals = 0
    while True:
        used = base
        valid = True
        for i in range(n):
            a = ranges[i, pick[i], 0]
            b = ranges[i, pick[i], 1]
            m = (np.int64(1) << a) | (np.int64(1) << b)
            if used & m:
                valid = False
                break
            used |= m
            holdings[i, 0] = a
            holdings[i, 1] = b
        if valid:
            size = 0
            for c in range(52):
                if not (used >> c) & 1:
                    deck[size] = c
                    size += 1
            for j in range(k):
                idx[j] = j
            while True:
                bp = bp0
                bb = bb0
                for j in range(k):
                    bp += pack[deck[idx[j]]]
                    bb |= cbits[deck[idx[j]]]
                winners = _score(
                    holdings, bp, bb, plain, flush, pack, cbits, offset7, values, share
                )
                for i in range(n):
                    eq[i] += share[i]
                    if share[i] > 0:
                        if winners == 1:
                            win[i] += 1.0
                        else:
                            tie[i] += 1.0
                deals += 1
                # Next k-subset of the deck in lexicographic order.
                j = k - 1
                while j >= 0 and idx[j] == size - k + j:
                    j -= 1
                if j < 0:
                    break
                idx[j] += 1
                for q in range(j + 1, k):
                    idx[q] = idx[q - 1] + 1
        # Next matchup (an odometer over the ranges).
        i = n - 1
        while i >= 0:
            pick[i] += 1
            if pick[i] < sizes[i]:
                break
            pick[i] = 0
            i -= 1
        if i < 0:
            return deals


@jit
def _monte_carlo_kernel(
    ranges: NDArray[np.int64],
    sizes: NDArray[np.int64],
    board: NDArray[np.int64],
    dead_mask: int,
    trials: int,
    seed: int,
    max_rejections: int,
    plain: NDArray[np.int32],
    flush: NDArray[np.int32],
    pack: NDArray[np.int64],
    cbits: NDArray[np.int64],
    offset7: int,
    eq: NDArray[np.float64],
    eq_sq: NDArray[np.float64],
    win: NDArray[np.float64],
    tie: NDArray[np.float64],
) -> int:
    """Sample `trials` uniform valid deals; return trials done (0: ranges incompatible)."""
    np.random.seed(seed)
    n = sizes.shape[0]
    k = 5 - board.shape[0]
    base = np.int64(dead_mask)
    bp0 = 0
    bb0 = 0
    for c in board:
        base |= np.int64(1) << c
        bp0 += pack[c]
        bb0 |= cbits[c]
    holdings = np.empty((n, 2), dtype=np.int64)
    values = np.empty(n, dtype=np.int64)
    share = np.empty(n, dtype=np.float64)
    deck = np.empty(52, dtype=np.int64)
    for _ in range(trials):
        # Rejection sampling keeps every valid matchup equally likely.
        rejected = 0
        while True:
            used = base
            valid = True
            for i in range(n):
                p = np.random.randint(0, sizes[i])
                a = ranges[i, p, 0]
                b = ranges[i, p, 1]
                m = (np.int64(1) << a) | (np.int64(1) << b)
                if used & m:
                    valid = False
                    break
                used |= m
                holdings[i, 0] = a
                holdings[i, 1] = b
            if valid:
                break
            rejected += 1
            if rejected >= max_rejections:
                return 0
        size = 0
        for c in range(52):
            if not (used >> c) & 1:
                deck[size] = c
                size += 1
        bp = bp0
        bb = bb0
        for j in range(k):
            r = j + np.random.randint(0, size - j)
            deck[j], deck[r] = deck[r], deck[j]
            bp += pack[deck[j]]
            bb |= cbits[deck[j]]
        winners = _score(holdings, bp, bb, plain, flush, pack, cbits, offset7, values, share)
        for i in range(n):
            eq[i] += share[i]
            eq_sq[i] += share[i] * share[i]
            if share[i] > 0:
                if winners == 1:
                    win[i] += 1.0
                else:
                    tie[i] += 1.0
    return trials


def _can_deal(ranges: list[list[int]]) -> bool:
    """Whether one holding per range can be dealt without a shared card (depth-first)."""
    order = sorted(range(len(ranges)), key=lambda i: len(ranges[i]))
    budget = [200_000]  # give up proving impossibility; sampling then decides

    def search(depth: int, used: int) -> bool:
        if depth == len(order):
            return True
        budget[0] -= 1
        if budget[0] < 0:
            return True
        for combo in ranges[order[depth]]:
            mask = int(COMBO_MASKS[combo])
            if not used & mask and search(depth + 1, used | mask):
                return True
        return False

    return search(0, 0)


def equity(
    ranges: Sequence[Sequence[int]],
    board: CardsLike = (),
    dead: CardsLike = (),
    *,
    trials: int = DEFAULT_TRIALS,
    seed: int = 0,
    exact: bool | None = None,
) -> EquityResult:
    """Equity of each range (combo indices) on a board. exact=None picks by cost."""
    if len(ranges) < 2:
        raise RangeError("need at least two hands")
    board_i = to_indices(board)
    dead_i = to_indices(dead)
    if len(board_i) > 5:
        raise RangeError("a board has at most five cards")
    dead_mask = 0
    for c in disjoint(board_i, dead_i):
        dead_mask |= 1 << int(c)
    live: list[list[int]] = []
    for number, combos in enumerate(ranges, 1):
        kept = [int(c) for c in combos if not int(COMBO_MASKS[c]) & dead_mask]
        if not kept:
            raise RangeError(f"hand {number} has no holding left besides the board/dead cards")
        live.append(kept)
    k = 5 - len(board_i)
    remaining = 52 - len(board_i) - len(dead_i) - 2 * len(ranges)
    if remaining < k:
        raise RangeError("not enough cards left to complete the board")
    if not _can_deal(live):
        raise RangeError("the hands cannot all be dealt at once (they share every holding)")

    n = len(live)
    width = max(len(r) for r in live)
    packed = np.zeros((n, width, 2), dtype=np.int64)
    for i, combos in enumerate(live):
        packed[i, : len(combos)] = COMBO_CARDS[combos]
    sizes = np.array([len(r) for r in live], dtype=np.int64)
    work = math.prod(len(r) for r in live) * math.comb(remaining, k)
    use_exact = work <= EXACT_LIMIT if exact is None else exact
    t = build_tables()
    eq, win, tie = np.zeros(n), np.zeros(n), np.zeros(n)
    if use_exact:
        deals = _exact_kernel(
            packed,
            sizes,
            board_i,
            dead_mask,
            t.plain,
            t.flush,
            CARD_PACK,
            CARD_BITS,
            OFFSET_7,
            eq,
            win,
            tie,
        )
        return EquityResult(
            tuple((eq / deals).tolist()),
            tuple((win / deals).tolist()),
            tuple((tie / deals).tolist()),
            None,
            True,
            int(deals),
        )
    if trials < 2:
        raise RangeError("need at least two trials")
    eq_sq = np.zeros(n)
    done = _monte_carlo_kernel(
        packed,
        sizes,
        board_i,
        dead_mask,
        trials,
        task_seed(seed),
        MAX_REJECTIONS,
        t.plain,
        t.flush,
        CARD_PACK,
        CARD_BITS,
        OFFSET_7,
        eq,
        eq_sq,
        win,
        tie,
    )
    if done == 0:
        raise RangeError("the hands can almost never be dealt together")
    mean = eq / done
    var = np.maximum(eq_sq / done - mean**2, 0.0) * done / (done - 1)
    stderr = np.sqrt(var / done)
    return EquityResult(
        tuple(mean.tolist()),
        tuple((win / done).tolist()),
        tuple((tie / done).tolist()),
        tuple(stderr.tolist()),
        False,
        int(done),
    )


def equity_of(
    hands: Sequence[str],
    board: str = "",
    dead: str = "",
    *,
    trials: int = DEFAULT_TRIALS,
    seed: int = 0,
    exact: bool | None = None,
) -> EquityResult:
    """`equity` with text input: hands/ranges like "AhKh" or "QQ+,AKs", cards like "2c7d9h"."""
    return equity(
        [parse_range(h) for h in hands],
        parse_cards(board),
        parse_cards(dead),
        trials=trials,
        seed=seed,
        exact=exact,
    )
