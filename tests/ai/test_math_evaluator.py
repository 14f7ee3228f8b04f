"""ai.math.evaluator and ai.math.tables: every path agrees with pkrbot (and the simulator's
showdown ranks with pokerkit) on every comparison."""

from __future__ import annotations

import random

import numpy as np
import pokerkit as pk
import pytest

from ai.math.bench import agreement_with_pkrbot, random_hands
from ai.math.evaluator import (
    evaluate,
    evaluate_batch,
    pkrbot_value,
    rank7,
    rank_hands,
    strength_of,
)
from ai.math.tables import (
    CATEGORY_NAMES,
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    STRAIGHT,
    STRAIGHT_FLUSH,
    build_tables,
    category_of,
    compute_tables,
)
from holdem.cards import FULL_DECK, CardError, card_index


def _same_order(reference: np.ndarray, ours: np.ndarray) -> bool:
    """Every pair compares alike iff neighbours in the reference order compare alike."""
    order = np.argsort(reference, kind="stable")
    return bool(
        (np.sign(np.diff(reference[order])) == np.sign(np.diff(ours[order].astype(np.int64)))).all()
    )


@pytest.mark.parametrize(("cards", "count"), [(7, 100_000), (6, 20_000), (5, 20_000)])
def test_batched_ranks_random_hands_like_pkrbot(cards: int, count: int) -> None:
    rows = random_hands(count, cards, seed=cards)
    ours = evaluate_batch(rows)
    theirs = np.array([pkrbot_value([FULL_DECK[c] for c in row]) for row in rows.tolist()])
    assert _same_order(theirs, ours)
    # 100k 7-card hands reach most of the 4824 strengths a 7-card hand can have.
    if cards == 7:
        assert len(np.unique(ours)) > 4000


def test_single_and_batched_paths_give_the_same_values() -> None:
    rows = random_hands(20_000, 7, seed=99)
    single = [evaluate([FULL_DECK[c] for c in row]) for row in rows.tolist()]
    assert single == evaluate_batch(rows).tolist()


def test_strength_of_card_indices_matches_the_batched_path() -> None:
    hands = random_hands(2_000, 7, seed=4)
    assert [strength_of(row) for row in hands.tolist()] == evaluate_batch(hands).tolist()
    assert [strength_of(row[:5]) for row in hands.tolist()] == evaluate_batch(hands[:, :5]).tolist()


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


def test_bench_agreement_check_reports_no_disagreement() -> None:
    assert agreement_with_pkrbot(hands=20_000, seed=5) == {"hands": 20_000.0, "disagreements": 0}


@pytest.mark.parametrize(
    ("hand", "strength", "category"),
    [
        ("As Ks Qs Js Ts 2c 3d", 7462, STRAIGHT_FLUSH),
        ("5h 4h 3h 2h Ah Kd Kc", 7453, STRAIGHT_FLUSH),  # steel wheel, the lowest
        ("7c 5d 4h 3s 2c", 1, HIGH_CARD),
        ("Ah 2d 3c 4s 5h 9d 9c", 5854, STRAIGHT),  # wheel: the lowest straight
        ("Ah Ad Ac Kh Kd 2s 3s", 7296, FULL_HOUSE),  # aces full of kings, best full house
    ],
)
def test_known_hands(hand: str, strength: int, category: int) -> None:
    value = evaluate(hand.split())
    assert value == strength
    assert category_of(value) == category
    assert CATEGORY_NAMES[category_of(value)] == CATEGORY_NAMES[category]


def test_flush_over_straight_and_kickers_matter() -> None:
    flush = evaluate(["2h", "5h", "9h", "Jh", "Kh", "Qd", "Tc"])
    straight = evaluate(["9c", "Td", "Jh", "Qs", "Kd", "2h", "3h"])
    assert category_of(flush) == FLUSH and flush > straight
    assert evaluate(["Ah", "Ad", "9c", "7d", "5s"]) > evaluate(["Ac", "As", "9d", "7h", "4s"])
    assert evaluate(["Ah", "Ad", "9c", "7d", "5s"]) == evaluate(["Ac", "As", "9d", "7h", "5c"])


def test_shipped_tables_match_a_fresh_build() -> None:
    shipped, fresh = build_tables(), compute_tables()
    assert np.array_equal(shipped.plain, fresh.plain)
    assert np.array_equal(shipped.flush, fresh.flush)
    assert np.array_equal(shipped.category_start, fresh.category_start)


def test_bad_input_is_rejected() -> None:
    with pytest.raises(CardError):
        evaluate(["Ah", "Kh", "Qh", "Jh", "1h"])
    with pytest.raises(ValueError, match="5 to 7"):
        evaluate(["Ah", "Kh"])
    with pytest.raises(ValueError, match=r"0\.\.51"):
        evaluate_batch([[0, 1, 2, 3, 52]])
    with pytest.raises(ValueError, match="shape"):
        evaluate_batch([[0, 1, 2, 3]])
