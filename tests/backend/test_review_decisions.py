"""Hand review, pure parts: a finished hand's decisions as the player saw them, and grades."""

from __future__ import annotations

import pytest

from ai.bots.from_view import observation_from_view
from backend.review.decisions import ReviewError, decision_points
from backend.review.grade import grade, match_taken
from holdem.actions import Action, ActionKind, EventKind
from holdem.cards import FULL_DECK, ScriptedDeck, card_index
from holdem.config import TableConfig, Variant
from holdem.history import HandRecord
from holdem.table import Table
from protocol.messages import ActionValue

CONFIG = TableConfig(variant=Variant.NO_LIMIT, seats=6, small_blind=1, big_blind=2)


def played(actions: list[tuple[int, Action]], deck: list[str]) -> HandRecord:
    """Seats 1, 3, 5 (button 5 for the first hand: seat 1 small blind, 3 big blind)."""
    table = Table("t-review", CONFIG, seed=1)
    for seat, name in ((1, "alice"), (3, "bob"), (5, "carol")):
        table.sit(seat, name, name.title(), 200)
    table.button = 3  # moves to seat 5 for this hand
    table.start_hand(ScriptedDeck(deck))
    for seat, action in actions:
        table.act(seat, action)
    assert table.last_record is not None
    return table.last_record


# Deal order: first card to seats 1, 3, 5, then second cards; burn, flop, burn, turn, ...
DECK = ["Ah", "7c", "Qd", "Kh", "2d", "Qs", "3c", "Kd", "9s", "4h", "5c", "8d", "Jc", "6s"]
# Seat 5 (button) raises to 7, alice (sb) calls, bob folds; flop: alice checks, carol bets
# 9, alice raises to 27 (a No-Limit size), carol calls; turn: both check; river: alice
# bets 40, carol folds. Carol's cards (Qd Qs) are never shown.
LINE = [
    (5, Action.raise_to(7)),
    (1, Action.call()),
    (3, Action.fold()),
    (1, Action.check()),
    (5, Action.bet(9)),
    (1, Action.raise_to(27)),
    (5, Action.call()),
    (1, Action.check()),
    (5, Action.check()),
    (1, Action.bet(40)),
    (5, Action.fold()),
]


def test_each_decision_as_the_player_saw_it() -> None:
    record = played(LINE, DECK)
    points = decision_points(record, "alice")
    mine = [i for i, e in enumerate(record.events) if e.seat == 1 and e.kind in _ACTS]
    assert [p.event_index for p in points] == mine
    assert [p.taken for p in points] == [a for s, a in LINE if s == 1]
    for point in points:
        view = point.view
        assert view.viewer_seat == 1 and view.actor == 1
        assert view.legal_actions == point.legal
        assert view.events == tuple(record.events[: point.event_index])  # public story so far
        seen = {s.seat: s.hole_cards for s in view.seats}
        assert seen == {1: ("Ah", "Kh"), 3: None, 5: None}  # nobody else's cards
        obs = observation_from_view(view)  # the worker rebuilds the spot from it
        assert obs.hole == tuple(card_index(c) for c in ("Ah", "Kh"))
        assert list(obs.board) == [card_index(c) for c in view.board]
    raise_point = points[2]
    assert raise_point.legal.min_to == 18 and raise_point.taken == Action.raise_to(27)
    assert raise_point.view.board == ("Kd", "9s", "4h")  # after the burnt 3c


def test_other_players_unshown_cards_change_nothing() -> None:
    record = played(LINE, DECK)
    free = [c for c in FULL_DECK if c not in DECK]
    seats = [
        s if s.player_id == "alice" else s.model_copy(update={"hole_cards": (free[i], free[i + 9])})
        for i, s in enumerate(record.seats)
    ]
    scrambled = record.model_copy(update={"seats": seats})
    assert scrambled.seats != record.seats
    original = decision_points(record, "alice")
    again = decision_points(scrambled, "alice")
    assert [p.view for p in again] == [p.view for p in original]
    assert [p.legal for p in again] == [p.legal for p in original]


def test_shown_cards_count_only_after_the_showdown() -> None:
    # Everyone checks down: bob's and carol's cards are shown at the showdown, after
    # the last decision, so no view holds them.
    line = [(5, Action.call()), (1, Action.call()), (3, Action.check())]
    for _ in range(3):
        line += [(1, Action.check()), (3, Action.check()), (5, Action.check())]
    record = played(line, DECK)
    assert any(e.kind is EventKind.SHOW and e.seat != 3 for e in record.events)
    points = decision_points(record, "bob")
    assert len(points) == 4
    assert all(s.hole_cards is None for p in points for s in p.view.seats if s.seat != 3)


def test_a_player_not_dealt_in_has_no_decisions() -> None:
    record = played(LINE, DECK)
    with pytest.raises(ReviewError, match="not dealt"):
        decision_points(record, "mallory")
    assert decision_points(record, "bob")[0].taken == Action.fold()


def test_a_record_that_does_not_replay_is_refused() -> None:
    record = played(LINE, DECK)
    events = list(record.events)
    i = next(i for i, e in enumerate(events) if e.kind is EventKind.RAISE and e.amount == 27)
    events[i] = events[i].model_copy(update={"amount": 500})  # more than alice had
    with pytest.raises(ReviewError, match="does not replay"):
        decision_points(record.model_copy(update={"events": events}), "alice")


_ACTS = {EventKind.FOLD, EventKind.CHECK, EventKind.CALL, EventKind.BET, EventKind.RAISE}


def _v(kind: ActionKind, value: float, amount: int | None = None) -> ActionValue:
    return ActionValue(action=kind, amount=amount, value_bb=value)


def test_grade_is_the_value_given_up_against_the_nearest_searched_size() -> None:
    values = [
        _v(ActionKind.FOLD, 0.0),
        _v(ActionKind.CALL, 1.5),
        _v(ActionKind.RAISE, 2.5, 20),
        _v(ActionKind.RAISE, 0.5, 60),
    ]
    assert grade(values, Action.raise_to(24)).grade_bb == 0.0  # nearest 20: the best
    graded = grade(values, Action.raise_to(50))
    assert graded.matched is not None and graded.matched.amount == 60
    assert graded.grade_bb == 2.0
    assert grade(values, Action.call()).grade_bb == 1.0
    assert grade(values, Action.fold()).grade_bb == 2.5
    assert grade(values, Action.raise_to(40)).matched == values[2]  # a tie: the smaller


def test_a_grade_carries_the_search_noise() -> None:
    values = [
        ActionValue(action=ActionKind.FOLD, value_bb=0.0, stderr_bb=0.0),
        ActionValue(action=ActionKind.CALL, value_bb=1.0, stderr_bb=0.3),
        ActionValue(action=ActionKind.RAISE, amount=20, value_bb=1.5, stderr_bb=0.4),
    ]
    called = grade(values, Action.call())
    assert called.grade_bb == 0.5 and called.grade_stderr_bb == 0.5  # hypot(0.3, 0.4)
    assert grade(values, Action.raise_to(20)).grade_stderr_bb == 0.0  # the best itself
    assert (
        grade([_v(ActionKind.CALL, 1.0), _v(ActionKind.FOLD, 0.0)], Action.fold()).grade_stderr_bb
        is None
    )


def test_a_fold_the_advisor_did_not_list_is_worth_zero() -> None:
    values = [_v(ActionKind.CALL, -1.25), _v(ActionKind.RAISE, -3.0, 30)]
    graded = grade(values, Action.fold())
    assert graded.matched is not None and graded.matched.value_bb == 0.0
    assert graded.grade_bb == 0.0  # the best listed is worse than folding
    assert match_taken(values, Action.check()) is None
    assert grade(values, Action.check()).grade_bb is None


def test_a_fixed_limit_hand_with_an_ante_replays() -> None:
    config = TableConfig(variant=Variant.LIMIT, seats=3, small_blind=1, big_blind=2, ante=1)
    table = Table("t-limit", config, seed=2)
    for seat, name in ((1, "alice"), (2, "bob"), (3, "carol")):
        table.sit(seat, name, name.title(), 100)
    table.start_hand(ScriptedDeck(DECK))
    while table.hand is not None and not table.hand.is_over:
        legal = table.hand.legal_actions()
        assert legal is not None
        bet = legal.raise_kind is not None and legal.seat == 1 and legal.committed < 4
        action = Action(kind=legal.raise_kind, amount=legal.min_to) if bet else None
        table.act(legal.seat, action or (Action.check() if legal.can_check else Action.call()))
    record = table.last_record
    assert record is not None
    points = decision_points(record, "alice")
    taken = [e for e in record.events if e.seat == 1 and e.kind in _ACTS]
    assert [p.taken.kind.value for p in points] == [e.kind.value for e in taken]
    assert all(p.view.config.is_limit and p.legal.seat == 1 for p in points)
    graded = grade([_v(ActionKind.CALL, 0.5), _v(ActionKind.RAISE, 1.0)], points[0].taken)
    assert graded.matched is not None  # a limit raise is graded as the advisor's raise
