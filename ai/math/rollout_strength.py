"""Figures over a batch of dealt rollouts (poki's simulation): every player's strength on
every street, and the hero's showdown equity.

A batch is `holes[R, n, 2]` (every player's cards per rollout) and `runouts[R, 5]` (the
full board per rollout), card indices as in `holdem.cards.card_index`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ai.math._jit import jit
from ai.math.evaluator import (
    CARD_BITS,
    CARD_PACK,
    OFFSET_5,
    OFFSET_6,
    OFFSET_7,
    evaluate_batch,
    value_of,
)
from ai.math.fastrng import below, next_state, seed_state
from ai.math.tables import build_tables

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@jit
def _sampled_strengths(
    holes: IntArray,
    runouts: IntArray,
    first_street: int,
    samples: int,
    seed: int,
    potential: bool,
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
                # With runouts our value is taken on each sample's completed board instead.
                runout = potential and n_board < 5
                value = 0
                if not runout:
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
                    if runout:
                        # Both holdings on a random completion of the board: the river
                        # strength averaged over the runouts, draws counted.
                        more_pack = 0
                        more_bits = 0
                        used[a] = True
                        used[b] = True
                        drawn = 0
                        c0 = -1
                        while drawn < 5 - n_board:
                            x = next_state(x)
                            c = below(x, 52)
                            if not used[c] and c != c0:
                                more_pack += pack[c]
                                more_bits |= cbits[c]
                                c0 = c
                                drawn += 1
                        used[a] = False
                        used[b] = False
                        full_pack = board_pack + more_pack
                        full_bits = board_bits | more_bits
                        value = value_of(
                            full_pack + pack[h0] + pack[h1], full_bits | cbits[h0] | cbits[h1],
                            OFFSET_7, plain, flush,
                        )  # fmt: skip
                        other = value_of(
                            full_pack + pack[a] + pack[b], full_bits | cbits[a] | cbits[b],
                            OFFSET_7, plain, flush,
                        )  # fmt: skip
                    else:
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
    holes: IntArray,
    runouts: IntArray,
    first_street: int,
    samples: int,
    seed: int,
    potential: bool = False,
) -> FloatArray:
    """Strength 0..1 of every player's holding on every street from `first_street` on.

    out[r, i, street] = share of `samples` random holdings that player i's hand beats
    (ties half) on that street's board of rollout r: a cheap, unbiased estimate of the
    board percentile (`ai.math.range_strength.percentiles`) the opponent model uses.
    With `potential`, on the flop and turn each sample also completes the board at
    random, estimating the river strength averaged over the runouts instead
    (`ai.math.range_strength.river_percentiles`). (Preflop, street 0, is left at 0 for
    the caller to fill.)
    """
    tables = build_tables()
    return _sampled_strengths(
        holes,
        runouts,
        first_street,
        samples,
        seed,
        potential,
        CARD_PACK,
        CARD_BITS,
        tables.plain,
        tables.flush,
    )


def showdown_equity(
    holes: IntArray, runouts: IntArray, me: int, opponents: tuple[int, ...]
) -> float:
    """Our share of the pot if every deal went to showdown: the equity against the ranges
    the deals were drawn from (ties split).

    >>> holes = np.array([[[48, 49], [0, 5]]])  # Ac Ad against 2c 3d
    >>> showdown_equity(holes, np.array([[8, 13, 22, 30, 38]]), 0, (1,))
    1.0
    """

    def values(player: int) -> IntArray:
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
