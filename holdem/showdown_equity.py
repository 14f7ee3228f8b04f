"""Each player's share of the pots when the chips went in: the all-in expected value.

Pure and I/O-free. Seven-card hands are ranked by a small evaluator of our own
(pokerkit's ranks every five-card combination: far too slow for enumerating
boards); a test checks it against pokerkit on seeded random hands. `rank_hand`
ranks one hand; `pot_shares` ranks all its boards at once with the same numbers
(`holdem.rank_arrays`), and a test checks it gives exactly what the one-at-a-time
version gave (tests/holdem/showdown_equity_reference.py).

Boards still to come are enumerated exactly when one or two cards are missing
(an all-in on the turn or the flop); preflop (about 1.7 million boards) they are
drawn: `PREFLOP_SAMPLES` boards from a seed the caller gives, so one hand always
gets the same figure.

>>> equities([("Ah", "Ad"), ("Kc", "Kd")], ("Ks", "7h", "2c", "3d"))
[0.045454545454545456, 0.9545454545454546]
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

import numpy as np
from numpy.typing import NDArray

from holdem.cards import FULL_DECK, RANKS, card_index
from holdem.rank_arrays import rank_masks, suit_masks

PREFLOP_SAMPLES = 1000

_RANK = {r: i + 2 for i, r in enumerate(RANKS)}
_WHEEL = (14, 5, 4, 3, 2)

# Categories, weakest first.
_HIGH, _PAIR, _TWO_PAIR, _TRIPS, _STRAIGHT, _FLUSH, _FULL_HOUSE, _QUADS, _STRAIGHT_FLUSH = range(9)


def _straight_top(ranks: set[int]) -> int:
    """The top rank of the best straight in `ranks`, or 0."""
    for top in range(14, 5, -1):
        if all(r in ranks for r in range(top - 4, top + 1)):
            return top
    return 5 if all(r in ranks for r in _WHEEL) else 0


def _encode(category: int, kickers: Sequence[int]) -> int:
    value = category
    for k in (*kickers, 0, 0, 0, 0, 0)[:5]:
        value = value * 16 + k
    return value


def rank_hand(cards: Sequence[str]) -> int:
    """A number that orders the best five-card hands of 5 to 7 cards (higher wins)."""
    ranks = [_RANK[c[0]] for c in cards]
    suits = Counter(c[1] for c in cards)
    suit, in_suit = suits.most_common(1)[0]
    if in_suit >= 5:
        flush = sorted((_RANK[c[0]] for c in cards if c[1] == suit), reverse=True)
        top = _straight_top(set(flush))
        if top:
            return _encode(_STRAIGHT_FLUSH, [top])
        best_flush = _encode(_FLUSH, flush[:5])
    else:
        best_flush = 0
    counts = Counter(ranks)
    # Ranks by (how many, rank), most first: quads, then trips, pairs, singles.
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    first_rank, first_count = groups[0]
    if first_count == 4:
        kicker = max(r for r in ranks if r != first_rank)
        return _encode(_QUADS, [first_rank, kicker])
    if first_count == 3 and len(groups) > 1 and groups[1][1] >= 2:
        return _encode(_FULL_HOUSE, [first_rank, groups[1][0]])
    if best_flush:
        return best_flush
    top = _straight_top(set(ranks))
    if top:
        return _encode(_STRAIGHT, [top])
    singles = sorted((r for r in ranks if counts[r] == 1), reverse=True)
    if first_count == 3:
        return _encode(_TRIPS, [first_rank, *singles[:2]])
    if first_count == 2:
        second_rank, second_count = groups[1]
        if second_count == 2:
            # A third pair's rank may be the best kicker.
            kicker = max(r for r in ranks if r not in (first_rank, second_rank))
            return _encode(_TWO_PAIR, [first_rank, second_rank, kicker])
        return _encode(_PAIR, [first_rank, *singles[:3]])
    return _encode(_HIGH, singles[:5])


def runouts(dead: set[str], board: tuple[str, ...], seed: int) -> NDArray[np.int64]:
    """The boards to score as card indexes, one a row: exact when one or two cards are
    missing, else a seeded sample (the same boards, in the same order, as ever)."""
    missing = 5 - len(board)
    # FULL_DECK is in card_index order, so positions in `live` are the cards' indexes.
    live = [i for i, c in enumerate(FULL_DECK) if c not in dead]
    if missing <= 2:
        extras = list(combinations(live, missing))
    else:
        rng = random.Random(seed)
        extras = [tuple(rng.sample(live, missing)) for _ in range(PREFLOP_SAMPLES)]
    known = np.array([card_index(c) for c in board], dtype=np.int64)
    drawn = np.array(extras, dtype=np.int64).reshape(len(extras), missing)
    return np.concatenate([np.broadcast_to(known, (len(extras), len(board))), drawn], axis=1)


def _scores(holes: Sequence[tuple[str, ...]], boards: NDArray[np.int64]) -> NDArray[np.int64]:
    """Each player's hand value on each board: shape (boards, players)."""
    if all(len(hole) == 2 for hole in holes):
        # The board's masks once, or-ed with each player's two cards.
        mine = suit_masks(np.array([[card_index(c) for c in h] for h in holes], dtype=np.int64))
        return rank_masks(suit_masks(boards)[:, None, :] | mine[None, :, :])
    # Not hold'em hole cards: one hand at a time.
    texts = [tuple(FULL_DECK[c] for c in full) for full in boards]
    values = [[rank_hand(hole + full) for hole in holes] for full in texts]
    return np.array(values, dtype=np.int64).reshape(len(boards), len(holes))


def pot_shares(
    holes: Sequence[tuple[str, ...]],
    board: tuple[str, ...],
    pots: Sequence[tuple[int, Sequence[int]]],
    seed: int = 0,
) -> list[float]:
    """Each player's expected chips from `pots` ((amount, indexes of holes eligible)).

    Ties split a pot evenly; odd chips are ignored (an expectation, not a deal).
    """
    boards = runouts(set(board).union(*holes), board, seed)
    scores = _scores(holes, boards)
    # What each board and pot gives each player, in that order, summed one after the
    # other (cumsum, not sum: the same additions, so the same floats, as a plain loop).
    won = np.zeros((len(boards), len(pots), len(holes)))
    for p, (amount, eligible) in enumerate(pots):
        among = list(eligible)
        theirs = scores[:, among]
        best = theirs == theirs.max(axis=1, keepdims=True)
        won[:, p, among] = np.where(best, amount / best.sum(axis=1, keepdims=True), 0.0)
    totals = np.cumsum(won.reshape(-1, len(holes)), axis=0)
    if not len(totals):
        return [0.0] * len(holes)
    return [float(s) / len(boards) for s in totals[-1]]


def equities(
    holes: Sequence[tuple[str, ...]], board: tuple[str, ...], seed: int = 0
) -> list[float]:
    """Each player's share of one pot everyone is in."""
    return pot_shares(holes, board, [(1, range(len(holes)))], seed)
