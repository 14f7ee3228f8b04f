"""Opponents' answers to our own bets: counted apart from their answers to anyone's, and
the search's tables move towards them; in No-Limit, their answers to our overbets set
how much a bet beyond the pot scares them."""

from __future__ import annotations

import numpy as np
from search_spots import LIMIT2, NL2, bot, spot

from ai.game.observation import ActionRecord
from ai.game.summary import HandSummary
from ai.models.model import ModelSet, OpponentModel
from ai.models.ranges import RangeTracker
from ai.search import kernel
from ai.search.mcts import Search, SearchConfig
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


def test_with_us_counts_every_decision_while_we_are_in_the_hand_once() -> None:
    """A player's decisions with us in the hand, by street, cost and crowd: its bets
    into us too, none after we folded, none of ours, none counted twice."""
    book = VersusBook()
    players = ["me", "a", "b"]
    book.ingest("h1", players, HAND[:5], 0, UNITS)
    book.ingest("h1", players, HAND, 0, UNITS)
    a, b = book.with_us("a"), book.with_us("b")
    assert a.decisions == 4  # flop raise, turn bet and call, river bet; not after our fold
    assert a.counts[3, 0].tolist() == [0, 0, 1]
    assert a.crowd_counts[1, 1, 1].tolist() == [0, 0, 1]  # the flop raise, three-way
    assert a.crowd_counts[2, 0, 0].tolist() == [0, 0, 1]  # the turn bet, heads-up
    assert b.decisions == 1 and b.counts[1, 2, 0] == 1  # folded facing two bets
    assert book.with_us("me").decisions == 0
    after_our_fold = [ActionRecord(0, 0, FOLD, 0, 2, 3), ActionRecord(1, 0, RAISE, 4, 2, 3)]
    book.ingest("h2", players, after_our_fold, 0, UNITS)
    assert book.with_us("a").decisions == 4


def test_answers_are_read_with_as_many_players_in_the_hand_as_now() -> None:
    """A player who folds to our heads-up flop bets and calls them three-way is read as
    folding heads-up and calling three-way, each row keeping its total."""
    book = VersusBook()
    players = ["me", "a", "b"]
    three_way = [ActionRecord(0, 1, BET, 2, 0, 6), ActionRecord(1, 1, CALL, 2, 2, 8)]
    heads_up = [ActionRecord(2, 0, FOLD, 0, 2, 3), ActionRecord(0, 1, BET, 2, 0, 6),
                ActionRecord(1, 1, FOLD, 0, 2, 8)]  # fmt: skip
    for k in range(30):
        book.ingest(("3", k), players, three_way, 0, UNITS)
        book.ingest(("2", k), players, heads_up, 0, UNITS)
    assert book.counts_of("a")[1, 1].tolist() == [30, 30, 0]
    alone, three = book.answers_of("a", 0)[1, 1], book.answers_of("a", 1)[1, 1]
    assert alone.sum() == three.sum() == 60
    assert alone[0] > 45 and three[1] > 45
    assert book.answers_of("a", 2)[1, 1].tolist() == [30, 30, 0]  # never seen four-way
    assert book.answers_of("b", 0).sum() == 0


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


# Heads-up No-Limit, we are index 0 with 200 chips: preflop to 6 and called (pot 12); on
# the flop we move all in (194 into 12, about 16 pots) and are called.
SHOVE_CALLED = [
    ActionRecord(1, 0, RAISE, 6, 1, 3),
    ActionRecord(0, 0, CALL, 6, 4, 8),
    ActionRecord(0, 1, BET, 194, 0, 12),
    ActionRecord(1, 1, CALL, 194, 194, 206),
]
POT_BET_FOLDED = [*SHOVE_CALLED[:2], ActionRecord(0, 1, BET, 12, 0, 12),
                  ActionRecord(1, 1, FOLD, 0, 12, 24)]  # fmt: skip


def test_answers_to_our_overbets_are_counted_by_size_in_no_limit_only() -> None:
    book = VersusBook()
    book.ingest("shove", ["me", "opp"], SHOVE_CALLED, 0, UNITS, limit=False)
    book.ingest("pot", ["me", "opp"], POT_BET_FOLDED, 0, UNITS, limit=False)
    over = book.overbets_of("opp")
    assert over[1, 3].tolist() == [0, 1]  # the all-in of 16 pots, called
    assert over.sum() == 1  # a pot-sized bet is no overbet
    limit_book = VersusBook()
    limit_book.ingest("shove", ["me", "opp"], SHOVE_CALLED, 0, UNITS, limit=True)
    assert limit_book.overbets_of("opp").sum() == 0


def test_a_player_who_calls_our_overbets_is_searched_as_calling_them() -> None:
    model = OpponentModel(ModelSet.frequency_only())
    calls_shoves = np.zeros((4, 4, 2))
    calls_shoves[1, 3] = (11, 9)  # called 9 of 20 flop all-ins

    def all_in(hole: str) -> tuple[float, float]:
        """Our flop all-in's value against the prior, then against the caller."""
        obs = spot(NL2, {1: hole}, [(RAISE, 6), (CALL, 0)], board="Ks7c2h", stacks=200)
        prior = build_tables(obs, model)
        fitted = build_tables(obs, model, overbets=[None, calls_shoves])
        assert prior.overbet == [1.0, 1.0]
        assert fitted.overbet[1] < 0.3
        assert kernel.table_array(fitted)[1, 2, 2, kernel.T_OVERBET] == fitted.overbet[1]
        values = []
        for tables in (prior, fitted):
            ranges = RangeTracker()
            ranges.update(obs, model)
            result = Search(obs, ranges, tables, SearchConfig(), seed=2).run(iterations=2000)
            values.append(max(result.actions, key=lambda a: a.to).value_bb)
        return values[0], values[1]

    # Air's all-in into 6 big blinds (97 big blinds): the caller's whole continuing
    # share meets it (-15 -> -55 bb); top pair's is paid (+13 -> +46 bb).
    believed, called = all_in("5h4d")
    assert called < believed - 20.0, (believed, called)
    believed, called = all_in("AsKc")
    assert called > believed + 15.0, (believed, called)
