"""Cards as two-character strings ("Ah", "Td") and the deck they are dealt from.

Live deals shuffle with the OS's randomness (`DeckRandom`); simulations and tests pass a seed.

>>> parse_cards("AhKh 2c")
('Ah', 'Kh', '2c')
>>> Deck(seed=7).draw(2) == Deck(seed=7).draw(2)
True
"""

from __future__ import annotations

import math
import random
import re
import secrets
from collections.abc import Iterable, MutableSequence
from typing import Any

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


class DeckRandom(secrets.SystemRandom):
    """The OS's randomness, as `secrets.SystemRandom`, with a shuffle that reads it once.

    SystemRandom's own shuffle asks the OS for every swap: 51 reads (system calls) a
    deck, a few percent of a busy server's CPU. This one reads one uniform integer below
    n! and takes its mixed-radix digits as the Fisher-Yates swaps: the same uniform
    permutation, from one read (a draw in the tail above the largest multiple of n! is
    drawn again: for a deck, one deal in about 59,000).

    >>> cards = list(FULL_DECK)
    >>> DeckRandom().shuffle(cards)
    >>> sorted(cards) == sorted(FULL_DECK)
    True
    """

    def shuffle(self, x: MutableSequence[Any]) -> None:
        remaining = self.below(math.factorial(len(x)))
        for i in range(len(x) - 1, 0, -1):
            remaining, j = divmod(remaining, i + 1)  # j uniform in 0..i, independent
            x[i], x[j] = x[j], x[i]

    def below(self, bound: int) -> int:
        """A uniform integer in [0, bound), by rejection from whole bytes."""
        size = (bound.bit_length() + 7) // 8 + 1  # one byte more: rejects under 1/256
        span = 1 << (8 * size)
        limit = span - span % bound  # the largest multiple of bound that fits
        while True:
            drawn = int.from_bytes(self.randbytes(size))  # SystemRandom's: one OS read
            if drawn < limit:
                return drawn % bound


def make_rng(seed: int | None) -> random.Random:
    """The shuffle source: cryptographic for live play, seeded for tests and simulations."""
    if seed is None:
        return DeckRandom()
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
