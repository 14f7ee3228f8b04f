"""The all-in equity as it was before it was ranked in bulk (holdem.showdown_equity at
48ae2c7): every hand ranked one at a time in Python, 0.1-0.8 s per all-in hand.

Kept unchanged as the reference the fast version must equal exactly
(test_showdown_equity_fast.py) and as the anchor of `showdown bench allin`'s figure.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from holdem.cards import FULL_DECK, RANKS

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


def _boards(
    dead: set[str], board: tuple[str, ...], seed: int
) -> tuple[list[tuple[str, ...]], bool]:
    """The boards to score (exact, or a seeded sample preflop) and whether they are exact."""
    missing = 5 - len(board)
    live = [c for c in FULL_DECK if c not in dead]
    if missing <= 2:
        return [board + extra for extra in combinations(live, missing)], True
    rng = random.Random(seed)
    return [board + tuple(rng.sample(live, missing)) for _ in range(PREFLOP_SAMPLES)], False


def pot_shares(
    holes: Sequence[tuple[str, ...]],
    board: tuple[str, ...],
    pots: Sequence[tuple[int, Sequence[int]]],
    seed: int = 0,
) -> list[float]:
    """Each player's expected chips from `pots` ((amount, indexes of holes eligible)).

    Ties split a pot evenly; odd chips are ignored (an expectation, not a deal).
    """
    dead = set(board).union(*holes)
    boards, _ = _boards(dead, board, seed)
    shares = [0.0] * len(holes)
    for full in boards:
        scores = [rank_hand(hole + full) for hole in holes]
        for amount, eligible in pots:
            best = max(scores[i] for i in eligible)
            winners = [i for i in eligible if scores[i] == best]
            for i in winners:
                shares[i] += amount / len(winners)
    return [s / len(boards) for s in shares]


def equities(
    holes: Sequence[tuple[str, ...]], board: tuple[str, ...], seed: int = 0
) -> list[float]:
    """Each player's share of one pot everyone is in."""
    return pot_shares(holes, board, [(1, range(len(holes)))], seed)
