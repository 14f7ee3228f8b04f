"""Hand strength against weighted ranges, hand potential, holding percentiles (numba).

Ranges are arrays of 1326 weights, one per two-card holding `COMBOS[k] = (a, b)`
with a < b. The loki and poki bots use these; ai/math's versions can replace
them behind the same functions.

- `combo_values(board)`: the hand value of every holding on this board (-1 where
  a holding uses a board card); computed once per board and cached.
- `hand_strength`: HS = (ahead + tied/2) / total, weighted (DOMAIN.md §2).
- `potential`: PPot and NPot by weighted Monte Carlo over opponent holdings and
  runouts (two-card look-ahead on the flop, one on the turn).
- `percentiles`: each holding's rank among all holdings on the board (0..1),
  the strength the opponent model thinks in.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt
from numba import njit

from ai.bots.evaluator import IntArray, hand_value
from ai.bots.montecarlo import below, next_state, seed_state
from ai.math.evaluator import CARD_BITS, CARD_PACK, OFFSET_5, OFFSET_6, OFFSET_7, value_of
from ai.math.tables import build_tables

FloatArray = npt.NDArray[np.float64]


def _combos() -> tuple[IntArray, IntArray, IntArray]:
    first: list[int] = []
    second: list[int] = []
    index = np.full((52, 52), -1, dtype=np.int64)
    for a in range(52):
        for b in range(a + 1, 52):
            index[a, b] = index[b, a] = len(first)
            first.append(a)
            second.append(b)
    return np.array(first, dtype=np.int64), np.array(second, dtype=np.int64), index


COMBO_FIRST, COMBO_SECOND, COMBO_INDEX = _combos()
N_COMBOS = 1326


def combo_of(a: int, b: int) -> int:
    return int(COMBO_INDEX[a, b])


@njit(cache=True)
def _combo_values(first: IntArray, second: IntArray, board: IntArray, n_board: int) -> IntArray:
    used = np.zeros(52, dtype=np.bool_)
    cards = np.empty(7, dtype=np.int64)
    for i in range(n_board):
        used[board[i]] = True
        cards[2 + i] = board[i]
    out = np.empty(first.shape[0], dtype=np.int64)
    for k in range(first.shape[0]):
        if used[first[k]] or used[second[k]]:
            out[k] = -1
            continue
        cards[0] = first[k]
        cards[1] = second[k]
        out[k] = hand_value(cards, 2 + n_board)
    return out


@lru_cache(maxsize=4096)
def combo_values(board: tuple[int, ...]) -> IntArray:
    """Hand value per holding on a 3-5 card board; -1 for holdings that use a board card."""
    values = _combo_values(COMBO_FIRST, COMBO_SECOND, np.array(board, dtype=np.int64), len(board))
    values.setflags(write=False)
    return values


def blocked_mask(cards: tuple[int, ...]) -> npt.NDArray[np.bool_]:
    """True for holdings that share a card with `cards`."""
    dead = np.zeros(52, dtype=np.bool_)
    dead[list(cards)] = True
    return dead[COMBO_FIRST] | dead[COMBO_SECOND]


def hand_strength(my_value: int, values: IntArray, weights: FloatArray) -> float:
    """Weighted HS of a hand of value `my_value` against holdings of `values` (-1 = impossible).

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
    live = values[values >= 0]
    ordered = np.sort(live)
    lower = np.searchsorted(ordered, values, side="left")
    upper = np.searchsorted(ordered, values, side="right")
    pct = (lower + (upper - lower) / 2) / max(len(live), 1)
    pct[values < 0] = 0.0
    pct.setflags(write=False)
    return pct


@njit(cache=True)
def _potential(
    hole: IntArray,
    board: IntArray,
    n_board: int,
    first: IntArray,
    second: IntArray,
    cumulative: FloatArray,
    now_values: IntArray,
    samples: int,
    seed: int,
) -> tuple[float, float]:
    """(PPot, NPot) against one weighted range, sampled with replacement.

    Follows the counting of Billings et al.: ties count half in both the "now"
    and the "showdown" comparison.
    """
    mine = np.empty(7, dtype=np.int64)
    theirs = np.empty(7, dtype=np.int64)
    mine[0] = hole[0]
    mine[1] = hole[1]
    for i in range(n_board):
        mine[2 + i] = board[i]
        theirs[2 + i] = board[i]
    my_now = hand_value(mine, 2 + n_board)
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
        for i in range(missing):
            x = next_state(x)
            j = i + below(x, n_deck - i)
            deck[i], deck[j] = deck[j], deck[i]
            mine[2 + n_board + i] = deck[i]
            theirs[2 + n_board + i] = deck[i]
        their_now = now_values[k]
        now = 0 if my_now > their_now else (1 if my_now == their_now else 2)
        theirs[0] = a
        theirs[1] = b
        my_end = hand_value(mine, 7)
        their_end = hand_value(theirs, 7)
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
    ppot, npot = _potential(
        np.array(hole, dtype=np.int64),
        np.array(board, dtype=np.int64),
        len(board),
        COMBO_FIRST,
        COMBO_SECOND,
        cumulative,
        values,
        samples,
        seed,
    )
    return float(ppot), float(npot)


@njit(cache=True)
def _sampled_strengths(
    holes: IntArray,
    runouts: IntArray,
    first_street: int,
    samples: int,
    seed: int,
    pack: IntArray,
    cbits: IntArray,
    plain: npt.NDArray[np.int32],
    flush: npt.NDArray[np.int32],
) -> FloatArray:
    rollouts = holes.shape[0]
    n = holes.shape[1]
    out = np.zeros((rollouts, n, 4))
    used = np.zeros(52, dtype=np.bool_)
    x = seed_state(seed)
    for r in range(rollouts):
        for street in range(max(first_street, 1), 4):
            n_board = street + 2
            offset = OFFSET_5 if n_board == 3 else (OFFSET_6 if n_board == 4 else OFFSET_7)
            board_pack = 0
            board_bits = 0
            for i in range(n_board):
                board_pack += pack[runouts[r, i]]
                board_bits |= cbits[runouts[r, i]]
            for p in range(n):
                used[:] = False
                for i in range(n_board):
                    used[runouts[r, i]] = True
                h0 = holes[r, p, 0]
                h1 = holes[r, p, 1]
                used[h0] = True
                used[h1] = True
                value = value_of(
                    board_pack + pack[h0] + pack[h1], board_bits | cbits[h0] | cbits[h1],
                    offset, plain, flush,
                )  # fmt: skip
                score = 0.0
                for _ in range(samples):
                    while True:
                        x = next_state(x)
                        a = below(x, 52)
                        if not used[a]:
                            break
                    while True:
                        x = next_state(x)
                        b = below(x, 52)
                        if not used[b] and b != a:
                            break
                    other = value_of(
                        board_pack + pack[a] + pack[b], board_bits | cbits[a] | cbits[b],
                        offset, plain, flush,
                    )  # fmt: skip
                    if value > other:
                        score += 1.0
                    elif value == other:
                        score += 0.5
                out[r, p, street] = score / samples
    return out


def sampled_strengths(
    holes: IntArray, runouts: IntArray, first_street: int, samples: int, seed: int
) -> FloatArray:
    """Strength 0..1 of every player's holding on every street from `first_street` on.

    holes: (R, n, 2), runouts: (R, 5). out[r, i, street] = share of `samples` random
    holdings that player i's hand beats (ties half) on that street's board of rollout
    r: a cheap, unbiased estimate of the board percentile the opponent model uses.
    (Preflop, street 0, is left at 0 for the caller to fill.)
    """
    tables = build_tables()
    return _sampled_strengths(
        holes,
        runouts,
        first_street,
        samples,
        seed,
        CARD_PACK,
        CARD_BITS,
        tables.plain,
        tables.flush,
    )


def showdown_equity(
    holes: IntArray, runouts: IntArray, me: int, opponents: tuple[int, ...]
) -> float:
    """Our share of the pot if every deal (holes[R, n, 2], runouts[R, 5]) went to showdown:
    the equity against the ranges the deals were drawn from (ties split)."""
    from ai.math.evaluator import evaluate_batch

    def values(player: int) -> npt.NDArray[np.int64]:
        cards = np.concatenate([holes[:, player, :], runouts], axis=1)
        return evaluate_batch(cards).astype(np.int64)

    mine = values(me)
    if not opponents:
        return 1.0
    others = np.stack([values(i) for i in opponents])
    best = others.max(axis=0)
    ties = (others == best).sum(axis=0)
    share = np.where(mine > best, 1.0, np.where(mine == best, 1.0 / (ties + 1), 0.0))
    return float(share.mean())
