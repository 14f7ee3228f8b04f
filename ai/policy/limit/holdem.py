"""The card abstraction of heads-up Limit Hold'em.

Preflop: the 169 starting-hand classes (lossless up to suit isomorphism). Flop, turn
and river: a bucket of hand strength HS (DOMAIN.md §2: ahead + tied/2 against every
opponent holding, uniformly weighted, the current board only), cut at quantiles of HS
over random deals so each bucket holds about as many deals. HS alone ignores potential,
so on the flop and turn each HS bucket splits in two by a draw flag: a flush draw (four
of a suit, one of them ours) or a straight draw (two or more ranks would complete a
straight that our cards play in). E[HS^2] or potential-aware clustering would be the
finer choice (see docs/blueprint.md). Buckets do not remember earlier rounds
(imperfect recall).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ai.math._jit import jit
from ai.math.combos import class_of_pair
from ai.math.evaluator import CARD_BITS, CARD_PACK, OFFSET_5, OFFSET_6, OFFSET_7, value_of
from ai.math.fastrng import below, next_state, seed_state
from ai.math.tables import build_tables
from ai.policy.tree import FloatArray, IntArray

N_PREFLOP = 169
BOARD_BY_ROUND = (0, 3, 4, 5)
QUANTILE_DEALS = 20_000  # random deals whose HS quantiles cut the buckets
QUANTILE_SEED = 20260511


@jit
def _pair_strengths(
    board: IntArray,
    nb: int,
    hole: IntArray,  # (2, 2): both players' cards
    pack: IntArray,
    cbits: IntArray,
    plain: NDArray[np.int32],
    flush: NDArray[np.int32],
    out: FloatArray,  # (2,): each player's HS on board[:nb]
) -> int:
    """HS of both players against a uniformly random opponent holding, one shared
    enumeration; returns +1/-1/0 comparing the two hands themselves (the showdown on the
    river)."""
    offset = OFFSET_5 if nb == 3 else (OFFSET_6 if nb == 4 else OFFSET_7)
    bp = 0
    bb = 0
    used = 0
    for i in range(nb):
        bp += pack[board[i]]
        bb |= cbits[board[i]]
        used |= 1 << board[i]
    mine = np.empty(2, dtype=np.int64)
    masks = np.empty(2, dtype=np.int64)
    for p in range(2):
        a, b = hole[p, 0], hole[p, 1]
        mine[p] = value_of(bp + pack[a] + pack[b], bb | cbits[a] | cbits[b], offset, plain, flush)
        masks[p] = (1 << a) | (1 << b)
    score = np.zeros(2)
    total = np.zeros(2)
    for hi in range(52):
        if used >> hi & 1:
            continue
        for lo in range(hi):
            if used >> lo & 1:
                continue
            m = (1 << hi) | (1 << lo)
            theirs = value_of(
                bp + pack[hi] + pack[lo], bb | cbits[hi] | cbits[lo], offset, plain, flush
            )
            for p in range(2):
                if masks[p] & m:
                    continue
                total[p] += 1.0
                if mine[p] > theirs:
                    score[p] += 1.0
                elif mine[p] == theirs:
                    score[p] += 0.5
    for p in range(2):
        out[p] = score[p] / total[p]
    return 1 if mine[0] > mine[1] else (-1 if mine[0] < mine[1] else 0)


@jit
def _bucket(hs: float, cuts: FloatArray, n_cuts: int) -> int:
    b = 0
    while b < n_cuts and hs >= cuts[b]:
        b += 1
    return b


@jit
def _straight_ranks(mask: int) -> int:
    """How many ranks, added to the 13-bit rank mask, would make a straight it lacks."""
    count = 0
    for r in range(13):
        if not (mask >> r) & 1 and _has_straight(mask | (1 << r)):
            count += 1
    return 0 if _has_straight(mask) else count


@jit
def _has_straight(mask: int) -> bool:
    wide = (mask << 1) | ((mask >> 12) & 1)  # bit 0: the ace playing low
    for low in range(10):  # noqa: SIM110 - numba compiles no generator for any()
        if (wide >> low) & 0x1F == 0x1F:
            return True
    return False


@jit
def _draw(a: int, b: int, board: IntArray, nb: int) -> int:
    """1 for a flush or straight draw that uses a hole card, else 0 (flop and turn)."""
    suits = np.zeros(4, dtype=np.int64)
    ours = np.zeros(4, dtype=np.int64)
    mask = 0
    board_mask = 0
    for i in range(nb):
        suits[board[i] & 3] += 1
        mask |= 1 << (board[i] >> 2)
        board_mask |= 1 << (board[i] >> 2)
    for c in (a, b):
        suits[c & 3] += 1
        ours[c & 3] += 1
        mask |= 1 << (c >> 2)
    for s in range(4):
        if suits[s] == 4 and ours[s] > 0:
            return 1
    return 1 if _straight_ranks(mask) >= 2 and _straight_ranks(board_mask) < 2 else 0


@jit
def _all_buckets(
    board: IntArray,
    nb: int,
    first: IntArray,
    second: IntArray,
    with_card: IntArray,  # (52, 51): the holdings holding each card
    cuts: FloatArray,
    n_cuts: int,
    with_draw: bool,
    pack: IntArray,
    cbits: IntArray,
    plain: NDArray[np.int32],
    flush: NDArray[np.int32],
    out: IntArray,  # per holding: its bucket, -1 where it uses a board card
) -> None:
    """Every holding's bucket on `board[:nb]` at once: HS as `_pair_strengths` counts it
    (ahead + tied/2 against every holding that shares no card with it), one evaluation
    per holding, ranks by a sorted search and the ~100 card-sharing holdings corrected."""
    offset = OFFSET_5 if nb == 3 else (OFFSET_6 if nb == 4 else OFFSET_7)
    bp = 0
    bb = 0
    used = 0
    for i in range(nb):
        bp += pack[board[i]]
        bb |= cbits[board[i]]
        used |= 1 << board[i]
    n = first.shape[0]
    values = np.zeros(n, dtype=np.int64)
    masks = np.zeros(n, dtype=np.int64)
    live = np.zeros(n, dtype=np.bool_)
    for k in range(n):
        a, b = first[k], second[k]
        masks[k] = (1 << a) | (1 << b)
        if masks[k] & used:
            continue
        live[k] = True
        values[k] = value_of(bp + pack[a] + pack[b], bb | cbits[a] | cbits[b], offset, plain, flush)
    # Ahead and tied counted against every live holding by rank (sorted values), then the
    # holdings sharing a card with ours (those with either of its cards) taken back out.
    ranked = np.sort(values[live])
    n_live = ranked.shape[0]
    for k in range(n):
        if not live[k]:
            out[k] = -1
            continue
        v = values[k]
        below = np.searchsorted(ranked, v, side="left")
        ties = np.searchsorted(ranked, v, side="right") - below - 1  # not itself
        total = n_live - 1
        for c in (first[k], second[k]):
            for i in range(with_card.shape[1]):
                j = with_card[c, i]
                if j == k or not live[j]:
                    continue
                total -= 1
                if values[j] < v:
                    below -= 1
                elif values[j] == v:
                    ties -= 1
        score = below + 0.5 * ties
        bucket = _bucket(score / total, cuts, n_cuts)
        if with_draw:
            bucket = 2 * bucket + _draw(first[k], second[k], board, nb)
        out[k] = bucket


@jit
def _deal(rng: NDArray[np.int64], deck: IntArray) -> None:
    """Partial Fisher-Yates: deck[0..8] become 2 + 2 hole cards and 5 board cards."""
    for j in range(9):
        rng[0] = next_state(rng[0])
        k = j + below(rng[0], 52 - j)
        deck[j], deck[k] = deck[k], deck[j]


@jit
def _sample(
    n: int,
    rng: NDArray[np.int64],
    classes: IntArray,  # (52, 52)
    cuts: FloatArray,  # (4, max cuts); row 0 unused
    n_cuts: IntArray,  # per round
    pack: IntArray,
    cbits: IntArray,
    plain: NDArray[np.int32],
    flush: NDArray[np.int32],
    buckets: IntArray,  # (n, 2, 4) out
    results: IntArray,  # (n,) out
    strengths: FloatArray,  # (n, 2, 4) out: HS per round (0 preflop)
) -> None:
    deck = np.arange(52)
    hole = np.empty((2, 2), dtype=np.int64)
    hs = np.empty(2)
    for i in range(n):
        _deal(rng, deck)
        hole[0, 0], hole[0, 1], hole[1, 0], hole[1, 1] = deck[0], deck[1], deck[2], deck[3]
        board = deck[4:9]
        for p in range(2):
            buckets[i, p, 0] = classes[hole[p, 0], hole[p, 1]]
            strengths[i, p, 0] = 0.0
        result = 0
        for r in range(1, 4):
            result = _pair_strengths(board, 2 + r, hole, pack, cbits, plain, flush, hs)
            for p in range(2):
                strengths[i, p, r] = hs[p]
                bucket = _bucket(hs[p], cuts[r], n_cuts[r])
                if r < 3:
                    bucket = 2 * bucket + _draw(hole[p, 0], hole[p, 1], board, 2 + r)
                buckets[i, p, r] = bucket
        results[i] = result


def _tables() -> tuple[NDArray[np.int32], NDArray[np.int32]]:
    t = build_tables()
    return t.plain, t.flush


class HoldemAbstraction:
    """169 preflop classes; `hs` HS buckets on the flop, turn and river (flop and turn
    twice over: with and without a draw)."""

    name = "hs-draw"

    def __init__(self, hs: tuple[int, int, int], cuts: FloatArray | None = None) -> None:
        self.hs = hs
        self.buckets: tuple[int, ...] = (N_PREFLOP, 2 * hs[0], 2 * hs[1], hs[2])
        self.classes = class_of_pair().astype(np.int64)
        self.n_cuts = np.array([0, *(b - 1 for b in hs)], dtype=np.int64)
        self.cuts = cuts if cuts is not None else self._quantile_cuts()

    def _raw(
        self, n: int, rng: NDArray[np.int64], cuts: FloatArray
    ) -> tuple[IntArray, IntArray, FloatArray]:
        plain, flush = _tables()
        buckets = np.empty((n, 2, 4), dtype=np.int64)
        results = np.empty(n, dtype=np.int64)
        strengths = np.empty((n, 2, 4))
        _sample(
            n, rng, self.classes, cuts, self.n_cuts, CARD_PACK, CARD_BITS, plain, flush,
            buckets, results, strengths,
        )  # fmt: skip
        return buckets, results, strengths

    def _quantile_cuts(self) -> FloatArray:
        rng = np.array([seed_state(QUANTILE_SEED)], dtype=np.int64)
        width = int(self.n_cuts.max())
        _, _, strengths = self._raw(QUANTILE_DEALS, rng, np.zeros((4, max(width, 1))))
        cuts = np.ones((4, max(width, 1)))
        for r in range(1, 4):
            k = int(self.n_cuts[r])
            sample = strengths[:, :, r].ravel()
            cuts[r, :k] = np.quantile(sample, np.arange(1, k + 1) / (k + 1))
        return cuts

    def sample(self, n: int, rng: NDArray[np.int64]) -> tuple[IntArray, IntArray]:
        buckets, results, _ = self._raw(n, rng, self.cuts)
        return buckets, results

    def bucket(self, hole: tuple[int, int], board: tuple[int, ...]) -> int:
        """The bucket of one player's cards (the blueprint's lookup at a table)."""
        a, b = hole
        if not board:
            return int(self.classes[a, b])
        r = {3: 1, 4: 2, 5: 3}[len(board)]
        plain, flush = _tables()
        spare = [c for c in range(52) if c not in (*board, a, b)]
        padded = np.array([*board, *spare][:5], dtype=np.int64)
        # The second "player" is any two other cards: only our own HS is used.
        other = spare[:2]
        hs = np.empty(2)
        _pair_strengths(
            padded, len(board), np.array([[a, b], other], dtype=np.int64), CARD_PACK,
            CARD_BITS, plain, flush, hs,
        )  # fmt: skip
        bucket = int(_bucket(float(hs[0]), self.cuts[r], int(self.n_cuts[r])))
        if r < 3:
            bucket = 2 * bucket + int(_draw(a, b, padded, len(board)))
        return bucket

    def buckets_of_all(self, board: tuple[int, ...]) -> IntArray:
        """The bucket of every holding (`ai.math.range_strength`'s lexicographic order of
        the 1326) on `board`, -1 for the holdings that use a board card."""
        from ai.math.range_strength import COMBO_FIRST, COMBO_SECOND

        first = COMBO_FIRST.astype(np.int64)
        second = COMBO_SECOND.astype(np.int64)
        if not board:
            return np.asarray(self.classes[first, second], dtype=np.int64)
        r = {3: 1, 4: 2, 5: 3}[len(board)]
        plain, flush = _tables()
        out = np.empty(first.shape[0], dtype=np.int64)
        with_card = np.argsort(np.concatenate([first, second]), kind="stable").reshape(52, 51)
        _all_buckets(
            np.array(board, dtype=np.int64), len(board), first, second,
            with_card % first.shape[0], self.cuts[r],
            int(self.n_cuts[r]), r < 3, CARD_PACK, CARD_BITS, plain, flush, out,
        )  # fmt: skip
        return out

    def metadata(self) -> dict[str, object]:
        return {"abstraction": self.name, "hs_buckets": list(self.hs)}
