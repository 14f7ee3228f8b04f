"""Cards as two-character strings ("Ah", "Td") and the deck they are dealt from.

Live deals shuffle with `secrets.SystemRandom`; simulations and tests pass a seed.

>>> parse_cards("AhKh 2c")
('Ah', 'Kh', '2c')
>>> Deck(seed=7).draw(2) == Deck(seed=7).draw(2)
True
"""

from __future__ import annotations

import random
import re
import secrets
from collections.abc import Iterable

RANKS = "23456789TJQKA"
SUITS = "cdhs"
FULL_DECK: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)
_CARD_RE = re.compile(r"[2-9TJQKA][cdhs]")


class CardError(ValueError):
    """A card string that is not a card, or a card used twice."""


def is_card(text: str) -> bool:
    return len(text) == 2 and _CARD_RE.fullmatch(text) is not None


def parse_cards(text: str) -> tuple[str, ...]:
    """Parse "AhKh", "Ah Kh" or "ah,kh" into ("Ah", "Kh"); rejects duplicates."""
    compact = re.sub(r"[\s,]", "", text)
    if len(compact) % 2:
        raise CardError(f"cannot read cards from {text!r}")
    cards = tuple(compact[i].upper() + compact[i + 1].lower() for i in range(0, len(compact), 2))
    for card in cards:
        if not is_card(card):
            raise CardError(f"{card!r} is not a card (use e.g. Ah, Td, 7c)")
    if len(set(cards)) != len(cards):
        raise CardError(f"a card appears twice in {text!r}")
    return cards


def card_index(card: str) -> int:
    """0..51, rank-major: 2c=0, 2d=1, ..., As=51."""
    return RANKS.index(card[0]) * 4 + SUITS.index(card[1])


def make_rng(seed: int | None) -> random.Random:
    """The shuffle source: cryptographic for live play, seeded for tests and simulations."""
    if seed is None:
        return secrets.SystemRandom()
    return random.Random(seed)


class Deck:
    """A shuffled 52-card deck dealt from the top."""

    def __init__(
        self,
        seed: int | None = None,
        *,
        rng: random.Random | None = None,
        exclude: Iterable[str] = (),
    ) -> None:
        excluded = set(exclude)
        self._cards = [c for c in FULL_DECK if c not in excluded]
        (rng or make_rng(seed)).shuffle(self._cards)
        self._cards.reverse()  # pop() from the end == dealing from the top

    def __len__(self) -> int:
        return len(self._cards)

    def draw(self, count: int = 1) -> tuple[str, ...]:
        if count > len(self._cards):
            raise CardError("the deck is empty")
        return tuple(self._cards.pop() for _ in range(count))


class ScriptedDeck(Deck):
    """A deck that deals a fixed sequence (tests, replays), then the rest at random."""

    def __init__(self, cards: Iterable[str], seed: int = 0) -> None:
        order = list(cards)
        super().__init__(seed, exclude=order)
        self._cards.extend(reversed(order))
