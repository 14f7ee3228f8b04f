"""Our card ints (`holdem.cards.card_index`, 2c=0 .. As=51) in other packages' spellings."""

from __future__ import annotations

from holdem.cards import FULL_DECK


def card_text(card: int) -> str:
    """'Ah', 'Td': ours, and texasholdem's `Card(...)` reads the same."""
    return FULL_DECK[card]


def rlcard_text(card: int) -> str:
    """rlcard's suit-then-rank: 'HA', 'DT', 'C2'."""
    text = FULL_DECK[card]
    return text[1].upper() + text[0]
