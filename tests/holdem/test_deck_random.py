"""The live shuffle: uniform, from one read of the OS's randomness a deck."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest

from holdem.cards import FULL_DECK, Deck, DeckRandom, make_rng


class _SeededBytes(DeckRandom):
    """DeckRandom's arithmetic on seeded bytes instead of the OS's, so a test repeats."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.source = random.Random(seed)
        self.reads = 0

    def randbytes(self, n: int) -> bytes:
        self.reads += 1
        return self.source.randbytes(n)


def test_every_order_of_four_cards_comes_equally_often() -> None:
    rng = _SeededBytes(3)
    counts: Counter[tuple[str, ...]] = Counter()
    for _ in range(24_000):
        cards = ["Ah", "Kd", "7c", "2s"]
        rng.shuffle(cards)
        counts[tuple(cards)] += 1
    assert set(counts) == set(itertools.permutations(["Ah", "Kd", "7c", "2s"]))
    # Chi-square with 23 degrees of freedom: 49.7 is its 99.9th percentile.
    expected = 24_000 / 24
    assert sum((n - expected) ** 2 / expected for n in counts.values()) < 49.7


def test_each_card_lands_in_each_place_of_a_deck_equally_often() -> None:
    rng = _SeededBytes(5)
    first: Counter[str] = Counter()
    last: Counter[str] = Counter()
    for _ in range(5_200):
        cards = list(FULL_DECK)
        rng.shuffle(cards)
        first[cards[0]] += 1
        last[cards[-1]] += 1
    for counts in (first, last):
        # 51 degrees of freedom: 98.0 is the 99.99th percentile.
        assert sum((counts[c] - 100) ** 2 / 100 for c in FULL_DECK) < 98.0


def test_a_deck_reads_the_os_once_and_again_only_after_a_rejected_draw() -> None:
    rng = _SeededBytes(11)
    for _ in range(200):
        Deck(rng=rng)
    # One read a deck (a draw above the largest multiple of 52! is drawn again: about one
    # deal in 59,000, none with this seed).
    assert rng.reads == 200

    class Rejects(_SeededBytes):
        def randbytes(self, n: int) -> bytes:
            self.reads += 1
            return b"\xff" * n if self.reads == 1 else self.source.randbytes(n)

    rejecting = Rejects(1)
    assert rejecting.below(math.factorial(52)) < math.factorial(52)
    assert rejecting.reads == 2


def test_live_decks_use_it_and_seeded_ones_do_not() -> None:
    assert isinstance(make_rng(None), DeckRandom)
    assert type(make_rng(7)) is random.Random
    cards = list(FULL_DECK)
    DeckRandom().shuffle(cards)
    assert sorted(cards) == sorted(FULL_DECK)


@pytest.mark.parametrize("bound", [1, 2, 3, 255, 256, 257, math.factorial(52)])
def test_below_stays_below(bound: int) -> None:
    rng = _SeededBytes(bound % 97)
    assert all(0 <= rng.below(bound) < bound for _ in range(200))
