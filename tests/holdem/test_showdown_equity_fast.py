"""The all-in equity ranked in bulk (holdem.rank_arrays) gives exactly what the
one-at-a-time version gave (showdown_equity_reference.py): the same hand values and
the same floats, on seeded random all-ins of 2 to 6 players with side pots and ties."""

from __future__ import annotations

import random

import numpy as np
import pytest
import showdown_equity_reference as reference

from holdem.cards import FULL_DECK
from holdem.rank_arrays import rank_sevens
from holdem.showdown_equity import equities, pot_shares, rank_hand

Spot = tuple[list[tuple[str, ...]], tuple[str, ...], list[tuple[int, list[int]]], int]


def skewed_hand(rng: random.Random) -> list[int]:
    """Seven cards from a random part of the deck: few ranks or few suits, so quads,
    full houses, flushes and straight flushes come often."""
    ranks = rng.sample(range(13), rng.randint(3, 13))
    suits = rng.sample(range(4), rng.randint(1, 4))
    part = [r * 4 + s for r in ranks for s in suits]
    return rng.sample(part if len(part) >= 7 else range(52), 7)


def test_rank_sevens_equals_rank_hand() -> None:
    rng = random.Random(36)
    hands = [skewed_hand(rng) for _ in range(6000)] + [
        rng.sample(range(52), 7) for _ in range(2000)
    ]
    values = rank_sevens(np.array(hands))
    expected = [rank_hand([FULL_DECK[c] for c in hand]) for hand in hands]
    assert values.tolist() == expected
    # Every category came up (the value's top digit).
    assert {v >> 20 for v in expected} == set(range(9))


def allin_spot(rng: random.Random, street: int) -> Spot:
    """Players' cards, the board of `street` (0, 3 or 4 cards) and pots from random stacks."""
    players = rng.randint(2, 6)
    cards = [FULL_DECK[c] for c in skewed_hand(rng)] if rng.random() < 0.3 else []
    rest = [c for c in FULL_DECK if c not in cards]
    rng.shuffle(rest)
    deck = cards + rest  # a skewed start makes shared cards and ties common
    holes = [(deck[2 * i], deck[2 * i + 1]) for i in range(players)]
    board = tuple(deck[2 * players : 2 * players + street])
    stacks = [rng.choice((100, 250, 250, 400, 1000)) for _ in range(players)]
    pots: list[tuple[int, list[int]]] = []
    below = 0
    for top in sorted(set(stacks)):
        eligible = [i for i, s in enumerate(stacks) if s >= top]
        pots.append(((top - below) * len(eligible) + rng.choice((0, 0, 35)), eligible))
        below = top
    return holes, board, pots, rng.randrange(2**32)


def spots(street: int, count: int, seed: int) -> list[Spot]:
    rng = random.Random(seed)
    return [allin_spot(rng, street) for _ in range(count)]


# The reference takes 0.05-0.5 s on a flop or preflop all-in: most spots are on the turn.
@pytest.mark.parametrize(
    ("street", "count", "seed"), [(4, 160, 1), (4, 140, 2), (3, 20, 3), (0, 15, 4)]
)
def test_pot_shares_equal_the_reference_exactly(street: int, count: int, seed: int) -> None:
    for holes, board, pots, deal_seed in spots(street, count, seed):
        expected = reference.pot_shares(holes, board, pots, deal_seed)
        assert pot_shares(holes, board, pots, deal_seed) == expected, (holes, board, pots)


def test_split_side_pots_equal_the_reference_exactly() -> None:
    """Two players chop most boards (same ranks) while a third is in the main pot only."""
    turn = ("2c", "7d", "9h", "Js")  # no flush can come: they chop every river
    holes = [("Ah", "Kd"), ("As", "Kc"), ("Qh", "Qd")]
    pots = [(300, [0, 1, 2]), (401, [0, 1])]
    for board in [turn, turn[:3], ()]:
        expected = reference.pot_shares(holes, board, pots, 5)
        assert pot_shares(holes, board, pots, 5) == expected
    shares = pot_shares(holes, turn, pots)
    assert shares[0] == shares[1] and 0 < shares[2] < 300


def test_odd_hands_fall_back_to_one_at_a_time() -> None:
    """Not two hole cards each (not a hold'em deal): still the reference's answer."""
    holes = [("Ah",), ("Kc", "Kd", "2s")]
    board = ("Ks", "7h", "2c", "3d")
    assert pot_shares(holes, board, [(10, [0, 1])]) == reference.pot_shares(
        holes, board, [(10, [0, 1])]
    )
    assert equities([("Ah", "Ad"), ("Kc", "Kd")], ()) == reference.equities(
        [("Ah", "Ad"), ("Kc", "Kd")], ()
    )
