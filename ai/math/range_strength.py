"""Hand strength against the bots' weight tables: per-holding board values and percentiles,
weighted HS, and PPot/NPot by Monte Carlo (DOMAIN.md §2).

The opponent model's range tables (`ai.models.ranges.RangeTracker`) list the 1326 holdings in
*lexicographic* order, `(COMBO_FIRST[k], COMBO_SECOND[k])` with first < second, not in
the colex order of `ai.math.combos`: their seeded samplers (`potential` here, poki's
deals) draw holdings by position, so the order is part of every seeded result and stays
until those tables are replaced. `LEX_TO_COLEX` converts a table to `ai.math.combos`' order.

- `combo_values(board)`: the strength (`ai.math.evaluator`) of every holding on this
  board, -1 where a holding uses a board card; computed once per board and cached.
- `hand_strength`: HS = (ahead + tied/2) / total, weighted, against those cached values.
- `potential`: PPot and NPot by weighted Monte Carlo over opponent holdings and runouts
  (two-card look-ahead on the flop, one on the turn); `ai.math.potential` enumerates
  the same figures exactly, about 25x slower on the flop.
- `percentiles`: each holding's rank among all holdings on the board (0..1), the
  strength the opponent model thinks in.
- `river_percentiles`: each holding's rank at the river averaged over every runout
  of a flop or turn (its equity against one random holding, card removal aside): a
  draw counts for what it will become; `river_ranks`: the same as ranks, 0..1.

>>> from holdem.cards import card_index
>>> board = tuple(card_index(c) for c in ("Ah", "Kd", "7c"))
>>> hole = (card_index("As"), card_index("Ac"))
>>> aces = int(combo_values(board)[LEX_INDEX[hole]])  # a set of aces
>>> hand_strength(aces, combo_values(board), np.where(blocked_mask(hole), 0.0, 1.0))
1.0
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from ai.math._jit import jit
from ai.math.combos import combo_index_of
from ai.math.evaluator import CARD_BITS, CARD_PACK, OFFSET_5, OFFSET_6, OFFSET_7, value_of
from ai.math.fastrng import below, next_state, seed_state
from ai.math.tables import build_tables

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


def _lexicographic() -> tuple[IntArray, IntArray, IntArray]:
    first: list[int] = []
    second: list[int] = []
    index = np.full((52, 52), -1, dtype=np.int64)
    for a in range(52):
        for b in range(a + 1, 52):
            index[a, b] = index[b, a] = len(first)
            first.append(a)
            second.append(b)
    return np.array(first, dtype=np.int64), np.array(second, dtype=np.int64), index


COMBO_FIRST, COMBO_SECOND, LEX_INDEX = _lexicographic()
LEX_TO_COLEX: IntArray = np.array(
    [combo_index_of(int(a), int(b)) for a, b in zip(COMBO_FIRST, COMBO_SECOND, strict=True)],
    dtype=np.int64,
)


@jit
def _combo_values(
    first: IntArray,
    second: IntArray,
    board: IntArray,
    pack: IntArray,
    cbits: IntArray,
    plain: npt.NDArray[np.int32],
    flush: npt.NDArray[np.int32],
) -> IntArray:
    n_board = board.shape[0]
    offset = OFFSET_5 if n_board == 3 else (OFFSET_6 if n_board == 4 else OFFSET_7)
    used = np.zeros(52, dtype=np.bool_)
    board_pack = 0
    board_bits = 0
    for c in board:
        used[c] = True
        board_pack += pack[c]
        board_bits |= cbits[c]
    out = np.empty(first.shape[0], dtype=np.int64)
    for k in range(first.shape[0]):
        a = first[k]
        b = second[k]
        if used[a] or used[b]:
            out[k] = -1
            continue
        out[k] = value_of(
            board_pack + pack[a] + pack[b], board_bits | cbits[a] | cbits[b], offset, plain, flush
        )
    return out


@lru_cache(maxsize=4096)
def combo_values(board: tuple[int, ...]) -> IntArray:
    """Strength per holding on a 3-5 card board; -1 for holdings that use a board card."""
    tables = build_tables()
    values = _combo_values(
        COMBO_FIRST,
        COMBO_SECOND,
        np.array(board, dtype=np.int64),
        CARD_PACK,
        CARD_BITS,
        tables.plain,
        tables.flush,
    )
    values.setflags(write=False)
    return values


def blocked_mask(cards: tuple[int, ...]) -> npt.NDArray[np.bool_]:
    """True for holdings that share a card with `cards`."""
    dead = np.zeros(52, dtype=np.bool_)
    dead[list(cards)] = True
    return dead[COMBO_FIRST] | dead[COMBO_SECOND]


def hand_strength(my_value: int, values: IntArray, weights: FloatArray) -> float:
    """Weighted HS of a hand of strength `my_value` against holdings of `values` (-1 = impossible).

    `weights` must already be zero for holdings blocked by the hero's cards.
    """
    live = values >= 0
    w = np.where(live, weights, 0.0)
    total = float(w.sum())
    if total <= 0:
        return 0.5
    ahead = float(w[values < my_value].sum())
    tied = float(w[values == my_value].sum())
    return (ahead + tied / 2) / total


@lru_cache(maxsize=4096)
def percentiles(board: tuple[int, ...]) -> FloatArray:
    """Each holding's rank among all holdings on the board: (below + equal/2) / valid."""
    values = combo_values(board)
    return _ranks(values, values >= 0)


def _ranks(values: npt.NDArray[np.generic], live: npt.NDArray[np.bool_]) -> FloatArray:
    """Each live holding's rank among the live ones, (below + equal/2) / live; 0 if dead."""
    ordered = np.sort(values[live])
    lower = np.searchsorted(ordered, values, side="left")
    upper = np.searchsorted(ordered, values, side="right")
    out: FloatArray = (lower + (upper - lower) / 2) / max(len(ordered), 1)
    out[~live] = 0.0
    out.setflags(write=False)
    return out


@lru_cache(maxsize=64)
def river_percentiles(board: tuple[int, ...], stride: int = 1) -> FloatArray:
    """Each holding's river percentile averaged over every runout of a 3-5 card board
    (0 for holdings that use a board card). On a flop, `stride` k > 1 takes every k-th
    runout (turn and river card positions summing to a multiple of k), k times faster.

    >>> from holdem.cards import card_index
    >>> flop = tuple(card_index(c) for c in ("Ah", "7h", "2c"))
    >>> strength = river_percentiles(flop)
    >>> def of(a, b):
    ...     return round(float(strength[LEX_INDEX[card_index(a), card_index(b)]]), 2)
    >>> of("Kh", "Qh"), of("Kc", "Qd")  # the flush draw is worth more than its rank now
    (0.71, 0.51)
    >>> turn, hole = (*flop, card_index("3h")), (card_index("Kh"), card_index("Qh"))
    >>> k = LEX_INDEX[hole]
    >>> rivers = [percentiles((*turn, c))[k] for c in range(52) if c not in turn + hole]
    >>> bool(np.isclose(river_percentiles(turn)[k], np.mean(rivers)))
    True
    """
    if len(board) == 5:
        return percentiles(board)
    tables = build_tables()
    out = _river_percentiles(
        COMBO_FIRST,
        COMBO_SECOND,
        np.array(board, dtype=np.int64),
        CARD_PACK,
        CARD_BITS,
        tables.plain,
        tables.flush,
        stride,
    )
    out.setflags(write=False)
    return out


@lru_cache(maxsize=64)
def river_ranks(board: tuple[int, ...], stride: int = 1) -> FloatArray:
    """`river_percentiles` as ranks among the live holdings, (below + equal/2) / live:
    averaged ranks bunch towards the middle, and a share of holdings taken from the
    top of a 0..1 strength scale (the mu-sigma weighting) needs them spread evenly.

    >>> flop = (0, 17, 34)
    >>> ranks = river_ranks(flop)
    >>> live = ~blocked_mask(flop)
    >>> round(float(ranks[live].mean()), 3), round(float((ranks[live] > 0.7).mean()), 2)
    (0.5, 0.3)
    """
    return _ranks(river_percentiles(board, stride), ~blocked_mask(board))


@jit
def _river_percentiles(
    first: IntArray,
    second: IntArray,
    board: IntArray,
    pack: IntArray,
    cbits: IntArray,
    plain: npt.NDArray[np.int32],
    flush: npt.NDArray[np.int32],
    stride: int,
) -> FloatArray:
    n = first.shape[0]
    used = np.zeros(52, dtype=np.bool_)
    for c in board:
        used[c] = True
    live = np.array([c for c in range(52) if not used[c]], dtype=np.int64)
    river = np.empty(5, dtype=np.int64)
    river[: board.shape[0]] = board
    two = board.shape[0] == 3
    total = np.zeros(n)
    count = np.zeros(n)
    for i in range(live.shape[0]):
        for j in range(i + 1 if two else live.shape[0] - 1, live.shape[0]):
            if two and (i + j) % stride:
                continue
            river[board.shape[0]] = live[i]
            if two:
                river[4] = live[j]
            values = _combo_values(first, second, river, pack, cbits, plain, flush)
            ordered = np.sort(values[values >= 0])
            m = ordered.shape[0]
            for k in range(n):
                if values[k] < 0:
                    continue
                lower = np.searchsorted(ordered, values[k], side="left")
                upper = np.searchsorted(ordered, values[k], side="right")
                total[k] += (lower + (upper - lower) / 2) / m
                count[k] += 1
    out = np.zeros(n)
    for k in range(n):
        if count[k] > 0:
            out[k] = total[k] / count[k]
    return out


@jit
def _potential(
    hole: IntArray,
    board: IntArray,
    first: IntArray,
    second: IntArray,
    cumulative: FloatArray,
    now_values: IntArray,
    samples: int,
    seed: int,
    pack: IntArray,
    cbits: IntArray,
    plain: npt.NDArray[np.int32],
    flush: npt.NDArray[np.int32],
) -> tuple[float, float]:
    """(PPot, NPot) against one weighted range, sampled with replacement.

    Follows the counting of Billings et al.: ties count half in both the "now"
    and the "showdown" comparison.
    """
    n_board = board.shape[0]
    board_pack = 0
    board_bits = 0
    for c in board:
        board_pack += pack[c]
        board_bits |= cbits[c]
    my_pack = board_pack + pack[hole[0]] + pack[hole[1]]
    my_bits = board_bits | cbits[hole[0]] | cbits[hole[1]]
    offset = OFFSET_5 if n_board == 3 else OFFSET_6
    my_now = value_of(my_pack, my_bits, offset, plain, flush)
    missing = 5 - n_board
    total_weight = cumulative[cumulative.shape[0] - 1]
    x = seed_state(seed)
    deck = np.empty(52, dtype=np.int64)
    # hp[now][later], 0 = ahead, 1 = tied, 2 = behind
    hp = np.zeros((3, 3))
    for _ in range(samples):
        x = next_state(x)
        target = ((x >> 11) & ((1 << 53) - 1)) / float(1 << 53) * total_weight
        k = np.searchsorted(cumulative, target, side="right")
        if k >= first.shape[0]:
            k = first.shape[0] - 1
        a = first[k]
        b = second[k]
        n_deck = 0
        for c in range(52):
            if c == a or c == b or c == hole[0] or c == hole[1]:  # noqa: SIM109 - numba-friendly
                continue
            clash = False
            for i in range(n_board):
                if board[i] == c:
                    clash = True
                    break
            if not clash:
                deck[n_deck] = c
                n_deck += 1
        runout_pack = 0
        runout_bits = 0
        for i in range(missing):
            x = next_state(x)
            j = i + below(x, n_deck - i)
            deck[i], deck[j] = deck[j], deck[i]
            runout_pack += pack[deck[i]]
            runout_bits |= cbits[deck[i]]
        their_now = now_values[k]
        now = 0 if my_now > their_now else (1 if my_now == their_now else 2)
        my_end = value_of(my_pack + runout_pack, my_bits | runout_bits, OFFSET_7, plain, flush)
        their_end = value_of(
            board_pack + runout_pack + pack[a] + pack[b],
            board_bits | runout_bits | cbits[a] | cbits[b],
            OFFSET_7,
            plain,
            flush,
        )
        later = 0 if my_end > their_end else (1 if my_end == their_end else 2)
        hp[now, later] += 1.0
    behind = hp[2, 0] + hp[2, 1] + hp[2, 2]
    tied = hp[1, 0] + hp[1, 1] + hp[1, 2]
    ahead = hp[0, 0] + hp[0, 1] + hp[0, 2]
    ppot_den = behind + tied / 2
    npot_den = ahead + tied / 2
    ppot = (hp[2, 0] + hp[2, 1] / 2 + hp[1, 0] / 2) / ppot_den if ppot_den > 0 else 0.0
    npot = (hp[0, 2] + hp[1, 2] / 2 + hp[0, 1] / 2) / npot_den if npot_den > 0 else 0.0
    return ppot, npot


def potential(
    hole: tuple[int, int],
    board: tuple[int, ...],
    weights: FloatArray,
    samples: int = 400,
    seed: int = 0,
) -> tuple[float, float]:
    """(PPot, NPot) of `hole` on a flop or turn against a weighted range; (0, 0) on the river."""
    if len(board) >= 5 or len(board) < 3:
        return 0.0, 0.0
    values = combo_values(board)
    w = np.where((values >= 0) & ~blocked_mask(hole), weights, 0.0)
    cumulative = np.cumsum(w)
    if cumulative[-1] <= 0:
        return 0.0, 0.0
    tables = build_tables()
    ppot, npot = _potential(
        np.array(hole, dtype=np.int64),
        np.array(board, dtype=np.int64),
        COMBO_FIRST,
        COMBO_SECOND,
        cumulative,
        values,
        samples,
        seed,
        CARD_PACK,
        CARD_BITS,
        tables.plain,
        tables.flush,
    )
    return float(ppot), float(npot)
