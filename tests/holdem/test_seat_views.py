"""What each seat and a spectator may see: own cards always, others' only once shown."""

from __future__ import annotations

from holdem_testlib import assert_no_leaks, check_down, deck, leaked_cards, nl, play, seated_table

from holdem.actions import Action, Street
from holdem.table import Table
from holdem.views import SeatState, SeatView, TableView, observe

A = Action
HOLES = {1: "TcTd", 2: "7c8d", 3: "AcAd"}
BOARD = "2c5d9hJs3s"


def three_way() -> Table:
    """Button 3: SB 1, BB 2, seat 3 first. Tens, jack-high and aces."""
    table = seated_table(nl(seats=6), {1: 100, 2: 100, 3: 100}, button=3)
    table.start_hand(deck([1, 2, 3], HOLES, BOARD))
    return table


def seat_view(view: TableView, number: int) -> SeatView:
    return next(s for s in view.seats if s.seat == number)


def cards_seen(table: Table, viewer: int | None) -> dict[int, tuple[str, ...] | None]:
    return {s.seat: s.hole_cards for s in observe(table, viewer).seats}


def test_each_seat_sees_only_its_own_hole_cards_during_the_hand() -> None:
    table = three_way()
    steps = [(3, A.call()), (1, A.call()), (2, A.check())] + [
        (seat, A.check()) for _ in range(3) for seat in (1, 2, 3)
    ]
    for seat, action in [(0, None), *steps]:
        if action is not None:
            play(table, (seat, action))
        hand = table.hand
        assert hand is not None
        if hand.is_over:
            break
        for viewer in (1, 2, 3):
            own = tuple(HOLES[viewer][i : i + 2] for i in (0, 2))
            expected = {n: (own if n == viewer else None) for n in (1, 2, 3)}
            assert cards_seen(table, viewer) == expected
        assert cards_seen(table, None) == {1: None, 2: None, 3: None}
        assert_no_leaks(table)


def test_legal_actions_are_only_in_the_actors_view() -> None:
    table = three_way()
    hand = table.hand
    assert hand is not None
    while not hand.is_over:
        actor = hand.actor
        for viewer in (1, 2, 3, None):
            view = observe(table, viewer)
            assert view.actor == actor
            if viewer == actor:
                assert view.legal_actions == hand.legal_actions()
            else:
                assert view.legal_actions is None
        legal = hand.legal_actions()
        assert legal is not None
        table.act(legal.seat, A.check() if legal.can_check else A.call())
    assert all(observe(table, v).legal_actions is None for v in (1, 2, 3, None))


def test_shown_cards_are_public_and_mucked_cards_stay_hidden() -> None:
    table = three_way()
    check_down(table)
    hand = table.hand
    assert hand is not None
    # Seat 1 shows tens, seat 2 mucks jack-high, seat 3 shows aces.
    assert set(hand.shown) == {1, 3}
    for viewer in (1, 3, None):
        seen = cards_seen(table, viewer)
        assert seen[1] == ("Tc", "Td")
        assert seen[3] == ("Ac", "Ad")
        assert seen[2] is None
        assert leaked_cards(observe(table, viewer), hand) == set()
        assert "7c" not in observe(table, viewer).model_dump_json()
    assert cards_seen(table, 2)[2] == ("7c", "8d")  # the mucked hand, to its owner only
    result = observe(table, None).last_result
    assert result is not None
    assert result.shown == {1: ("Tc", "Td"), 3: ("Ac", "Ad")}
    assert result.net == {1: -2, 2: -2, 3: 4}
    assert result.board == ("2c", "5d", "9h", "Js", "3s")


def test_a_folded_hand_is_never_revealed() -> None:
    table = three_way()
    play(table, (3, A.raise_to(10)), (1, A.fold()), (2, A.fold()))
    hand = table.hand
    assert hand is not None
    assert hand.is_over
    assert hand.shown == {}
    for viewer in (2, 3, None):
        assert cards_seen(table, viewer)[1] is None
        assert "Tc" not in observe(table, viewer).model_dump_json()
    for viewer in (1, 3, None):
        assert cards_seen(table, viewer)[2] is None
    assert cards_seen(table, 3)[3] == ("Ac", "Ad")  # the winner's own view


def test_the_next_player_on_a_seat_does_not_see_the_last_occupants_cards() -> None:
    table = three_way()
    play(table, (3, A.raise_to(10)), (1, A.fold()), (2, A.fold()))
    table.stand("p1")
    table.sit(1, "newcomer", "Newcomer", 100)
    view = observe(table, 1)
    assert seat_view(view, 1).hole_cards is None
    assert "Tc" not in view.model_dump_json()
    assert seat_view(observe(table, 3), 3).hole_cards == ("Ac", "Ad")


def test_spectator_view_of_a_hand_in_progress() -> None:
    table = three_way()
    play(table, (3, A.raise_to(6)), (1, A.call()), (2, A.fold()))
    view = observe(table, None)
    assert view.viewer_seat is None
    assert view.hand_in_progress
    assert (view.button, view.small_blind_seat, view.big_blind_seat) == (3, 1, 2)
    assert view.street is Street.FLOP
    assert view.board == ("2c", "5d", "9h")
    assert view.total_pot == 14
    assert [(p.amount, p.seats) for p in view.pots] == [(14, (1, 3))]
    assert view.actor == 1
    assert view.legal_actions is None
    assert view.last_result is None
    states = {s.seat: (s.state, s.stack, s.bet, s.has_cards, s.hole_cards) for s in view.seats}
    assert states == {
        1: (SeatState.ACTIVE, 94, 0, True, None),
        2: (SeatState.FOLDED, 98, 0, False, None),
        3: (SeatState.ACTIVE, 94, 0, True, None),
    }


def test_seat_states_all_in_waiting_and_sitting_out() -> None:
    table = seated_table(nl(seats=6), {1: 100, 2: 100, 3: 100, 4: 100}, button=3)
    table.sit_out("p4")
    table.start_hand(deck([1, 2, 3], HOLES, BOARD))
    table.sit(5, "p5", "Player 5", 100)
    play(table, (3, A.raise_to(100)))
    view = observe(table, 5)
    states = {s.seat: s.state for s in view.seats}
    assert states == {
        1: SeatState.ACTIVE,
        2: SeatState.ACTIVE,
        3: SeatState.ALL_IN,
        4: SeatState.SITTING_OUT,
        5: SeatState.WAITING,
    }
    assert seat_view(view, 3).bet == 100
    assert seat_view(view, 5).hole_cards is None


def test_heads_up_view_puts_the_small_blind_on_the_button() -> None:
    table = seated_table(nl(seats=2), {1: 100, 2: 100}, button=2)
    table.start_hand()
    view = observe(table, 1)
    assert (view.button, view.small_blind_seat, view.big_blind_seat) == (2, 2, 1)


def test_a_recorded_hand_shows_a_player_only_own_and_shown_cards() -> None:
    from holdem.views import observe_record

    table = three_way()
    check_down(table)  # seat 1 shows tens, seat 2 mucks, seat 3 shows aces
    record = table.last_record
    assert record is not None
    assert record.seat(2).hole_cards == ("7c", "8d")  # the full record is server-side
    for viewer, own in (("p1", 1), ("p2", 2), ("p3", 3), (None, None)):
        seen = {s.seat: s.hole_cards for s in observe_record(record, viewer).seats}
        assert seen[1] == ("Tc", "Td")
        assert seen[3] == ("Ac", "Ad")
        assert seen[2] == (("7c", "8d") if own == 2 else ("??", "??"))
        if own != 2:
            assert "7c" not in observe_record(record, viewer).model_dump_json()
