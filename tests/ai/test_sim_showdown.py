"""ai.sim.showdown: hand ranks in pokerkit's order, and pokerkit's pot splitting."""

from __future__ import annotations

import random

import pokerkit as pk

from ai.sim.showdown import rank7, rank_hands, settle
from holdem.cards import FULL_DECK, card_index


def test_rank7_orders_hands_like_pokerkit() -> None:
    rng = random.Random(11)
    for _ in range(400):
        cards = rng.sample(FULL_DECK, 9)
        board, first, second = cards[:5], cards[5:7], cards[7:]
        theirs = [
            pk.StandardHighHand.from_game("".join(hole), "".join(board)) for hole in (first, second)
        ]
        ours = [rank7([card_index(c) for c in (*hole, *board)]) for hole in (first, second)]
        expected = (theirs[0] > theirs[1]) - (theirs[0] < theirs[1])
        assert (ours[0] > ours[1]) - (ours[0] < ours[1]) == expected, cards


def test_rank_hands_marks_folded_players() -> None:
    board = [card_index(c) for c in ("As", "Ks", "Qs", "Js", "Ts")]
    ranks = rank_hands(board, [(0, 1), None, (2, 3)])
    assert ranks[1] == -1 and ranks[0] == ranks[2] > 0


def test_settle_single_pot_with_folded_money_and_odd_chip() -> None:
    # Three players tie for 3 + 3 + 3 + 2 folded = 11: both odd chips go to the first
    # winner left of the button (pokerkit), not one each to the first two.
    assert settle([3, 3, 3, 2], [True, True, True, False], [5, 5, 5, -1]) == [5, 3, 3, 0]


def test_settle_side_pots() -> None:
    # Index 0 all-in for 10 with the best hand; 1 and 2 contest the side pot.
    assert settle([10, 50, 50], [True, True, True], [9, 5, 7]) == [30, 0, 80]


def test_settle_kills_losing_hands_before_splitting() -> None:
    # Levels 3 and 8 (with money from two folded players) make pots of 13 and 11 for
    # the tied indices 3 and 4; index 1 cannot win either, so its hand is killed and
    # the two pots merge into one of 24.
    contrib = [1, 3, 4, 8, 8]
    in_hand = [False, True, False, True, True]
    assert settle(contrib, in_hand, [-1, 1, -1, 6, 6]) == [0, 0, 0, 12, 12]
