"""Opponents' answers to our own bets: counted apart from their answers to anyone's, and
the search's tables move towards them."""

from __future__ import annotations

import numpy as np
from search_spots import LIMIT2, bot, spot

from ai.bots.base import HandSummary
from ai.bots.observation import ActionRecord
from ai.models.model import ModelSet, OpponentModel
from ai.search.opponents import build_tables
from ai.search.versus import VersusBook
from ai.sim.rules import BET, CALL, CHECK, FOLD, RAISE

UNITS = (2, 2, 4, 4)
# Three players, we are index 0. Flop: we bet, a raises, b folds, we call.
# Turn: a bets, we raise, a calls. River: a bets, we fold.
HAND = [
    ActionRecord(0, 1, BET, 2, 0, 12),
    ActionRecord(1, 1, RAISE, 4, 2, 14),
    ActionRecord(2, 1, FOLD, 0, 4, 18),
    ActionRecord(0, 1, CALL, 4, 2, 18),
    ActionRecord(1, 2, BET, 4, 0, 20),
    ActionRecord(0, 2, RAISE, 8, 4, 24),
    ActionRecord(1, 2, CALL, 8, 4, 32),
    ActionRecord(1, 3, BET, 4, 0, 36),
    ActionRecord(0, 3, FOLD, 0, 4, 40),
]


def test_only_answers_to_our_bets_are_counted_and_never_twice() -> None:
    book = VersusBook()
    players = ["me", "a", "b"]
    book.ingest("h1", players, HAND[:5], 0, UNITS)  # as seen at our turn decision
    book.ingest("h1", players, HAND, 0, UNITS)  # and again at the hand's end
    a, b = book.counts_of("a"), book.counts_of("b")
    assert a[1, 1].tolist() == [0, 0, 1]  # raised our flop bet
    assert a[2, 1].tolist() == [0, 1, 0]  # called our turn raise
    assert a.sum() == 2  # its bets into us are not answers to ours
    assert b.sum() == 0  # folded to a's raise over our bet: an answer to a's
    assert book.counts_of("me").sum() == 0


def test_the_tables_move_towards_an_opponents_answers_to_our_bets() -> None:
    obs = spot(LIMIT2, {1: "AhKd"}, [(CALL, 0), (CHECK, 0)], board="Ks7c2h")
    model = OpponentModel(ModelSet.frequency_only())
    plain = build_tables(obs, model)
    raises_ours = np.zeros((4, 3, 3))
    raises_ours[1, 1, 2] = 60  # raised our flop bet sixty times out of sixty
    moved = build_tables(obs, model, versus=[None, raises_ours])
    assert plain.shares[1, 1, 1, 2] < 0.3
    assert moved.shares[1, 1, 1, 2] > 0.7
    # Only where it was seen: its turn and unbet flop shares are the model's.
    assert np.allclose(moved.shares[1, 2], plain.shares[1, 2])
    assert np.allclose(moved.shares[1, 1, 0], plain.shares[1, 1, 0])


def test_the_bot_learns_answers_from_finished_hands() -> None:
    heads_up = [
        ActionRecord(1, 0, CALL, 2, 1, 3),
        ActionRecord(0, 0, CHECK, 0, 0, 4),
        ActionRecord(0, 1, BET, 2, 0, 4),
        ActionRecord(1, 1, RAISE, 4, 2, 6),
        ActionRecord(0, 1, FOLD, 0, 2, 10),
    ]
    learner = bot()
    for k in range(5):
        learner.hand_over(HandSummary(f"h{k}", ["me", "opp"], heads_up, {}, ()), 0)
    assert learner.versus is not None
    assert learner.versus.counts_of("opp")[1, 1].tolist() == [0, 0, 5]
