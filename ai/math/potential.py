"""Hand strength and hand potential against one opponent's weighted range (DOMAIN.md §2).

HS = (ahead + tied/2) / total over every opponent holding, weighted by its table.
PPot = P(behind or tied now -> ahead at showdown), NPot = P(ahead or tied now -> behind),
counted over the next card (one-card look-ahead) or the next two (two-card, flop only),
with Billings' formulas: ties count half on either side.

The enumeration runs in numba: on the flop, two-card potential is 1081 holdings x 990
turn/river pairs, each one table lookup (see `ai.math.bench` for the time per call).

>>> r = analyse(["Ah", "Kh"], ["Qh", "Jh", "2c"])  # royal-flush draw against any two cards
>>> round(r.hs, 3), round(r.ppot, 3), round(r.npot, 3)
(0.596, 0.577, 0.111)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ai.math._jit import jit
from ai.math.cardsets import CardsLike, disjoint, to_indices
from ai.math.combos import COMBO_CARDS, N_COMBOS
from ai.math.evaluator import CARD_BITS, CARD_PACK, value_of
from ai.math.odds import effective_strength, optimistic_strength
from ai.math.tables import TABLE_OFFSET, build_tables

AHEAD, TIED, BEHIND = 0, 1, 2


@jit
def _status(ours: int, theirs: int) -> int:
    if ours > theirs:
        return 0
    if ours == theirs:
        return 1
    return 2


@jit
def _strength_kernel(
    hole: NDArray[np.int64],
    board: NDArray[np.int64],
    weights: NDArray[np.float64],
    lookahead: int,
    combo_cards: NDArray[np.int64],
    pack: NDArray[np.int64],
    cbits: NDArray[np.int64],
    plain: NDArray[np.int32],
    flush: NDArray[np.int32],
    offsets: NDArray[np.int64],
    now: NDArray[np.float64],
    hp: NDArray[np.float64],
) -> None:
    """Fill now[status] with weighted counts and hp[now][later] with potential counts."""
    used = np.int64(0)
    board_pack = np.int64(0)
    board_bits = np.int64(0)
    for c in board:
        used |= np.int64(1) << c
        board_pack += pack[c]
        board_bits |= cbits[c]
    for c in hole:
        used |= np.int64(1) << c
    our_pack = board_pack + pack[hole[0]] + pack[hole[1]]
    our_bits = board_bits | cbits[hole[0]] | cbits[hole[1]]
    n = board.shape[0] + 2
    our_now = value_of(our_pack, our_bits, offsets[n], plain, flush)

    # The opponent's live holdings with positive weight, with their cards pre-summed.
    h_pack = np.empty(N_COMBOS, dtype=np.int64)
    h_bits = np.empty(N_COMBOS, dtype=np.int64)
    h_mask = np.empty(N_COMBOS, dtype=np.int64)
    h_weight = np.empty(N_COMBOS, dtype=np.float64)
    h_now = np.empty(N_COMBOS, dtype=np.int64)
    count = 0
    for i in range(N_COMBOS):
        a = combo_cards[i, 0]
        b = combo_cards[i, 1]
        mask = (np.int64(1) << a) | (np.int64(1) << b)
        w = weights[i]
        if w <= 0.0 or mask & used:
            continue
        h_pack[count] = pack[a] + pack[b]
        h_bits[count] = cbits[a] | cbits[b]
        h_mask[count] = mask
        h_weight[count] = w
        theirs = value_of(
            board_pack + h_pack[count], board_bits | h_bits[count], offsets[n], plain, flush
        )
        s = _status(our_now, theirs)
        h_now[count] = s
        now[s] += w
        count += 1

    if lookahead == 0:
        return
    # The possible next cards (one or two): their board sums and our rank with them.
    n_next = 0
    nx_pack = np.empty(1326, dtype=np.int64)
    nx_bits = np.empty(1326, dtype=np.int64)
    nx_mask = np.empty(1326, dtype=np.int64)
    nx_ours = np.empty(1326, dtype=np.int64)
    off = offsets[n + lookahead]
    for t in range(52):
        tmask = np.int64(1) << t
        if used & tmask:
            continue
        for r in range(t + 1, 52) if lookahead == 2 else range(t, t + 1):
            rmask = np.int64(1) << r
            if lookahead == 2 and used & rmask:
                continue
            nx_pack[n_next] = board_pack + pack[t] + (pack[r] if lookahead == 2 else 0)
            nx_bits[n_next] = board_bits | cbits[t] | cbits[r]
            nx_mask[n_next] = tmask | rmask
            nx_ours[n_next] = value_of(
                our_pack + nx_pack[n_next] - board_pack,
                our_bits | nx_bits[n_next],
                off,
                plain,
                flush,
            )
            n_next += 1
    # Holding-major: per holding only integer counts in registers, one weighted add after.
    for h in range(count):
        hm = h_mask[h]
        hpk = h_pack[h]
        hb = h_bits[h]
        ahead = 0
        tied = 0
        behind = 0
        for x in range(n_next):
            if hm & nx_mask[x]:
                continue
            theirs = value_of(nx_pack[x] + hpk, nx_bits[x] | hb, off, plain, flush)
            ours = nx_ours[x]
            if ours > theirs:
                ahead += 1
            elif ours == theirs:
                tied += 1
            else:
                behind += 1
        w = h_weight[h]
        row = h_now[h]
        hp[row, 0] += w * ahead
        hp[row, 1] += w * tied
        hp[row, 2] += w * behind


_OFFSETS = np.zeros(8, dtype=np.int64)
for _n, _offset in TABLE_OFFSET.items():
    _OFFSETS[_n] = _offset


@dataclass(frozen=True)
class HandStrength:
    """HS and potential of one holding against one weighted range."""

    hs: float
    ppot: float
    npot: float

    @property
    def ehs(self) -> float:
        return effective_strength(self.hs, self.ppot, self.npot)

    @property
    def ehs_optimistic(self) -> float:
        """EHS' = HS + (1 - HS) * PPot, the figure the betting rules use."""
        return optimistic_strength(self.hs, self.ppot)


def _weights_array(weights: ArrayLike | None) -> NDArray[np.float64]:
    if weights is None:
        return np.ones(N_COMBOS, dtype=np.float64)
    array = np.ascontiguousarray(weights, dtype=np.float64)
    if array.shape != (N_COMBOS,):
        raise ValueError(f"a weight table has {N_COMBOS} entries, got shape {array.shape}")
    if (array < 0).any() or not np.isfinite(array).all():
        raise ValueError("weights must be finite and non-negative")
    return array


def strength_counts(
    hole: CardsLike, board: CardsLike, weights: ArrayLike | None = None, lookahead: int = 0
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Raw weighted counts: now[ahead, tied, behind] and hp[now, later] (3x3).

    lookahead: 0 (no potential), 1 (next card) or 2 (next two; flop only).
    """
    hole_i = to_indices(hole)
    board_i = to_indices(board)
    if hole_i.shape[0] != 2:
        raise ValueError("a holding is two cards")
    if not 3 <= board_i.shape[0] <= 5:
        raise ValueError("hand strength needs a flop, turn or river board (3-5 cards)")
    disjoint(hole_i, board_i)
    if lookahead not in (0, 1, 2) or board_i.shape[0] + lookahead > 5:
        raise ValueError(f"cannot look {lookahead} card(s) ahead from {board_i.shape[0]} cards")
    t = build_tables()
    now = np.zeros(3, dtype=np.float64)
    hp = np.zeros((3, 3), dtype=np.float64)
    _strength_kernel(
        hole_i,
        board_i,
        _weights_array(weights),
        lookahead,
        COMBO_CARDS,
        CARD_PACK,
        CARD_BITS,
        t.plain,
        t.flush,
        _OFFSETS,
        now,
        hp,
    )
    return now, hp


def _hs(now: NDArray[np.float64]) -> float:
    total = float(now.sum())
    return (float(now[AHEAD]) + float(now[TIED]) / 2) / total if total > 0 else 0.0


def _potentials(hp: NDArray[np.float64]) -> tuple[float, float]:
    total = hp.sum(axis=1)
    ppot_den = total[BEHIND] + total[TIED] / 2
    npot_den = total[AHEAD] + total[TIED] / 2
    ppot_num = hp[BEHIND, AHEAD] + hp[BEHIND, TIED] / 2 + hp[TIED, AHEAD] / 2
    npot_num = hp[AHEAD, BEHIND] + hp[TIED, BEHIND] / 2 + hp[AHEAD, TIED] / 2
    ppot = float(ppot_num / ppot_den) if ppot_den > 0 else 0.0
    npot = float(npot_num / npot_den) if npot_den > 0 else 0.0
    return ppot, npot


def hand_strength(hole: CardsLike, board: CardsLike, weights: ArrayLike | None = None) -> float:
    """HS of hole cards on a board against a weight table (uniform when None).

    >>> round(hand_strength(["As", "Ad"], ["Ac", "Ah", "Ks"]), 4)
    1.0
    """
    now, _ = strength_counts(hole, board, weights, 0)
    return _hs(now)


def hand_potential(
    hole: CardsLike, board: CardsLike, weights: ArrayLike | None = None, lookahead: int = 1
) -> tuple[float, float]:
    """(PPot, NPot) with one- or two-card look-ahead."""
    if lookahead not in (1, 2):
        raise ValueError("lookahead is 1 or 2 cards")
    _, hp = strength_counts(hole, board, weights, lookahead)
    return _potentials(hp)


def analyse(
    hole: CardsLike,
    board: CardsLike,
    weights: ArrayLike | None = None,
    lookahead: int | None = None,
) -> HandStrength:
    """HS, PPot and NPot in one enumeration.

    lookahead defaults to as many cards as are still to come, at most two
    (two on the flop, one on the turn, none on the river).
    """
    if lookahead is None:
        lookahead = min(2, 5 - len(board))
    now, hp = strength_counts(hole, board, weights, lookahead)
    ppot, npot = _potentials(hp) if lookahead else (0.0, 0.0)
    return HandStrength(_hs(now), ppot, npot)
