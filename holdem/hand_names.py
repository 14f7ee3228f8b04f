"""Hands named as PokerStars names them: "a pair of Sixes", "a flush, Ace high".

PokerStars writes the name after a shown hand ("shows [Ad Qd] (a pair of Sixes)") and in
the summary; pokerkit picks the best five cards, this module only words them.

>>> hand_name(("Ad", "Qd"), ("Th", "6d", "6c", "Kh", "7h"))
'a pair of Sixes'
>>> hand_name(("5h", "Ah"), ("Th", "6d", "6c", "Kh", "7h"))
'a flush, Ace high'
>>> hand_name(("As", "2d"), ("3c", "4h")) is None  # fewer than five cards
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pokerkit as pk

RANKS = "23456789TJQKA"
_ONE = {
    "2": "Deuce", "3": "Three", "4": "Four", "5": "Five", "6": "Six", "7": "Seven",
    "8": "Eight", "9": "Nine", "T": "Ten", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace",
}  # fmt: skip


def _many(rank: str) -> str:
    return "Sixes" if rank == "6" else _ONE[rank] + "s"


def hand_name(hole: Sequence[str], board: Sequence[str]) -> str | None:
    """The PokerStars name of the best hand of `hole` and `board`; None under five cards."""
    if len(hole) + len(board) < 5 or "??" in hole:
        return None
    best = pk.StandardHighHand.from_game("".join(hole), "".join(board))
    ranks = [str(card.rank) for card in best.cards]
    # Ranks by how many of each, then by rank: a full house's trips before its pair.
    counts = Counter(ranks)
    order = sorted(counts, key=lambda r: (counts[r], RANKS.index(r)), reverse=True)
    label = best.entry.label
    if label in (pk.Label.STRAIGHT, pk.Label.STRAIGHT_FLUSH):
        values = sorted(RANKS.index(r) for r in ranks)
        wheel = values == [0, 1, 2, 3, 12]  # A-2-3-4-5: the Ace plays low
        low, high = ("A", "5") if wheel else (RANKS[values[0]], RANKS[values[-1]])
        if label is pk.Label.STRAIGHT:
            return f"a straight, {_ONE[low]} to {_ONE[high]}"
        return "a Royal Flush" if low == "T" else f"a straight flush, {_ONE[low]} to {_ONE[high]}"
    names = {
        pk.Label.HIGH_CARD: f"high card {_ONE[order[0]]}",
        pk.Label.ONE_PAIR: f"a pair of {_many(order[0])}",
        pk.Label.TWO_PAIR: f"two pair, {_many(order[0])} and {_many(order[1])}",
        pk.Label.THREE_OF_A_KIND: f"three of a kind, {_many(order[0])}",
        pk.Label.FLUSH: f"a flush, {_ONE[order[0]]} high",
        pk.Label.FULL_HOUSE: f"a full house, {_many(order[0])} full of {_many(order[1])}",
        pk.Label.FOUR_OF_A_KIND: f"four of a kind, {_many(order[0])}",
    }
    return names[label]
