"""EHS' of every holding on a board at once: the postflop ranking of weight tables.

Each holding is scored against a uniformly random opponent holding: HS now and one-card
PPot (none on the river), EHS' = HS + (1 - HS) * PPot. All holdings share one all-pairs
enumeration, so the whole table costs about as much as a few hundred single calls.

>>> from ai.math.combos import combo_index
>>> s = postflop_strengths(["Ah", "Kd", "7c"])
>>> bool(s[combo_index("As", "Ac")] > s[combo_index("Ks", "Kc")] > s[combo_index("3s", "2s")])
True
>>> float(s[combo_index("Ah", "2c")])  # holds a board card: not a live holding
0.0
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ai.math._jit import jit
from ai.math.cardsets import CardsLike, disjoint, to_indices
from ai.math.combos import COMBO_CARDS, N_COMBOS
from ai.math.evaluator import CARD_BITS, CARD_PACK, OFFSET_5, OFFSET_6, OFFSET_7, value_of
from ai.math.tables import build_tables


@jit
def _all_strengths(
    board: NDArray[np.int64],
    dead_mask: int,
    combo_cards: NDArray[np.int64],
    pack: NDArray[np.int64],
    cbits: NDArray[np.int64],
    plain: NDArray[np.int32],
    flush: NDArray[np.int32],
    offsets: NDArray[np.int64],
    out: NDArray[np.float64],
) -> None:
    used = np.int64(dead_mask)
    bp = np.int64(0)
    bb = np.int64(0)
    for c in board:
        used |= np.int64(1) << c
        bp += pack[c]
        bb |= cbits[c]
    n = board.shape[0] + 2
    live = np.empty(N_COMBOS, dtype=np.int64)
    masks = np.empty(N_COMBOS, dtype=np.int64)
    rank_now = np.empty(N_COMBOS, dtype=np.int64)
    count = 0
    for i in range(N_COMBOS):
        a = combo_cards[i, 0]
        b = combo_cards[i, 1]
        m = (np.int64(1) << a) | (np.int64(1) << b)
        if m & used:
            continue
        live[count] = i
        masks[count] = m
        rank_now[count] = value_of(
            bp + pack[a] + pack[b], bb | cbits[a] | cbits[b], offsets[n], plain, flush
        )
        count += 1
    hs = np.zeros(count)
    for i in range(count):
        score = 0.0
        total = 0.0
        for j in range(count):
            if masks[i] & masks[j]:
                continue
            total += 1.0
            if rank_now[i] > rank_now[j]:
                score += 1.0
            elif rank_now[i] == rank_now[j]:
                score += 0.5
        hs[i] = score / total if total > 0 else 0.0
    ppot = np.zeros(count)
    if n < 7:
        # Per holding: pairs (holding, opponent) behind or tied now, and of those the
        # ones ahead / tied after one more card (Billings' PPot, ties counting half).
        num = np.zeros(count)
        den = np.zeros(count)
        rank_next = np.empty(count, dtype=np.int64)
        idx = np.empty(count, dtype=np.int64)
        for t in range(52):
            tm = np.int64(1) << t
            if used & tm:
                continue
            k = 0
            for i in range(count):
                if masks[i] & tm:
                    continue
                a = combo_cards[live[i], 0]
                b = combo_cards[live[i], 1]
                rank_next[k] = value_of(
                    bp + pack[t] + pack[a] + pack[b],
                    bb | cbits[t] | cbits[a] | cbits[b],
                    offsets[n + 1],
                    plain,
                    flush,
                )
                idx[k] = i
                k += 1
            for x in range(k):
                i = idx[x]
                mi = masks[i]
                now_i = rank_now[i]
                next_i = rank_next[x]
                p_num = 0.0
                p_den = 0.0
                for y in range(k):
                    j = idx[y]
                    if mi & masks[j]:
                        continue
                    now_j = rank_now[j]
                    if now_i > now_j:
                        continue
                    next_j = rank_next[y]
                    if now_i < now_j:
                        p_den += 1.0
                        if next_i > next_j:
                            p_num += 1.0
                        elif next_i == next_j:
                            p_num += 0.5
                    else:
                        p_den += 0.5
                        if next_i > next_j:
                            p_num += 0.5
                num[i] += p_num
                den[i] += p_den
        for i in range(count):
            if den[i] > 0:
                ppot[i] = num[i] / den[i]
    for i in range(count):
        out[live[i]] = hs[i] + (1.0 - hs[i]) * ppot[i]


_OFFSETS = np.zeros(8, dtype=np.int64)
_OFFSETS[5], _OFFSETS[6], _OFFSETS[7] = OFFSET_5, OFFSET_6, OFFSET_7


def postflop_strengths(board: CardsLike, dead: CardsLike = ()) -> NDArray[np.float64]:
    """EHS' (0..1) of every combo on a 3-5 card board; 0 for combos that are not live."""
    board_i = to_indices(board)
    dead_i = to_indices(dead)
    if not 3 <= board_i.shape[0] <= 5:
        raise ValueError("postflop strengths need a flop, turn or river board (3-5 cards)")
    disjoint(board_i, dead_i)
    dead_mask = 0
    for c in dead_i:
        dead_mask |= 1 << int(c)
    t = build_tables()
    out = np.zeros(N_COMBOS, dtype=np.float64)
    _all_strengths(
        board_i, dead_mask, COMBO_CARDS, CARD_PACK, CARD_BITS, t.plain, t.flush, _OFFSETS, out
    )
    return out
