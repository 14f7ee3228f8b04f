"""A table across hands: seats, buy-ins, standing up, sitting out, the button, restarts."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pytest
from holdem_testlib import check_down, deck, fingerprint, nl, play, seated_table

from holdem.actions import Action, EventKind
from holdem.errors import BuyInError, SeatError
from holdem.hand import Hand
from holdem.table import Cashout, Table
from holdem.views import SeatState, observe

A = Action
CFG = nl(seats=6)  # blinds 1/2, buy-in 80..200


def fold_round(table: Table) -> Hand:
    """Start a hand and let everyone check or fold (the big blind wins the blinds)."""
    hand = table.start_hand()
    while not hand.is_over:
        assert hand.actor is not None
        table.act(hand.actor, table.default_action())
    return hand


def blinds(hand: Hand) -> tuple[int | None, int | None]:
    sb = next((e.seat for e in hand.events if e.kind is EventKind.SMALL_BLIND), None)
    bb = next((e.seat for e in hand.events if e.kind is EventKind.BIG_BLIND), None)
    return sb, bb


def assert_refused(table: Table, call: Callable[[], object], error: type, message: str) -> None:
    before = fingerprint(table)
    with pytest.raises(error, match=f"^{message}$") as caught:
        call()
    assert type(caught.value) is error
    assert fingerprint(table) == before


# -- sitting down ------------------------------------------------------------------------


def test_sit_within_the_buy_in_range() -> None:
    table = Table("t", CFG, seed=1)
    assert (CFG.min_buy_in, CFG.max_buy_in) == (80, 200)
    table.sit(1, "a", "A", 80)
    table.sit(6, "b", "B", 200)
    assert {n: s.stack for n, s in table.seats.items()} == {1: 80, 6: 200}
    for amount in (79, 201, 0):
        assert_refused(
            table,
            partial(table.sit, 2, "c", "C", amount),
            BuyInError,
            "the buy-in must be between 80 and 200",
        )


def test_sit_on_a_seat_that_does_not_exist_or_is_taken_or_twice() -> None:
    table = seated_table(CFG, {1: 100})
    assert_refused(
        table, lambda: table.sit(7, "c", "C", 100), SeatError, r"seat 7 does not exist \(1 to 6\)"
    )
    assert_refused(
        table, lambda: table.sit(0, "c", "C", 100), SeatError, r"seat 0 does not exist \(1 to 6\)"
    )
    assert_refused(table, lambda: table.sit(1, "c", "C", 100), SeatError, "seat 1 is taken")
    assert_refused(
        table,
        lambda: table.sit(2, "p1", "Again", 100),
        SeatError,
        "you are already seated at this table",
    )
    assert table.empty_seats() == [2, 3, 4, 5, 6]


def test_new_player_sitting_during_a_hand_waits_for_the_next_one() -> None:
    table = seated_table(CFG, {1: 100, 2: 100}, button=1)
    hand = table.start_hand()
    table.sit(3, "p3", "Player 3", 150)
    assert 3 not in hand.seats
    assert observe(table, 3).seats[2].state is SeatState.WAITING
    table.rebuy("p3", 50)  # not dealt in: chips may be added
    assert table.seats[3].stack == 200
    check_down(table)
    assert 3 in table.start_hand().seats  # dealt in at once, no big blind to wait for


# -- standing up ---------------------------------------------------------------------------


def test_stand_between_hands_cashes_out_the_stack() -> None:
    table = seated_table(CFG, {1: 100, 2: 150})
    cashout = table.stand("p2")
    assert cashout == Cashout("p2", 2, 150)
    assert table.cashouts == [cashout]
    assert 2 not in table.seats
    assert_refused(table, lambda: table.stand("p2"), SeatError, "you are not seated at this table")


def test_stand_mid_hand_folds_when_its_turn_comes_and_leaves_with_its_chips() -> None:
    # Button 3: SB 1, BB 2, seat 3 first.
    table = seated_table(CFG, {1: 100, 2: 100, 3: 100}, button=3)
    hand = table.start_hand(deck([1, 2, 3], {1: "AcAd", 2: "KcKd", 3: "3c8d"}, "2h7s9dJs4h"))
    play(table, (3, A.raise_to(6)))
    assert table.stand("p2") is None  # not its turn yet: it stays in for now
    assert table.seats[2].leaving
    assert observe(table, 1).seats[1].leaving
    play(table, (1, A.call()))
    # Seat 2's turn came facing a raise: it was folded.
    assert not hand.in_hand(2)
    assert [e.seat for e in hand.events if e.kind is EventKind.FOLD] == [2]
    assert 2 in table.seats  # still seated until the hand ends
    check_down(table)
    assert hand.is_over
    assert 2 not in table.seats
    assert table.cashouts == [Cashout("p2", 2, 98)]
    assert {n: s.stack for n, s in table.seats.items()} == {1: 108, 3: 94}


def test_stand_on_your_turn_folds_at_once() -> None:
    table = seated_table(CFG, {1: 100, 2: 100, 3: 100}, button=3)
    hand = table.start_hand()
    assert table.stand("p3") is None
    assert not hand.in_hand(3)
    assert hand.actor == 1


def test_stand_on_your_turn_heads_up_ends_the_hand_and_cashes_out() -> None:
    table = seated_table(nl(seats=2), {1: 100, 2: 100}, button=1)
    hand = table.start_hand()
    assert hand.actor == 1  # the button acts first heads-up
    assert table.stand("p1") is None
    assert hand.is_over
    assert table.cashouts == [Cashout("p1", 1, 99)]
    assert {n: s.stack for n, s in table.seats.items()} == {2: 101}
    assert table.last_result is not None
    assert table.last_result.net == {1: -1, 2: 1}
    assert table.chips_in_play() + 99 == 200


# -- rebuy and top-up ------------------------------------------------------------------------


def test_top_up_between_hands_up_to_the_maximum() -> None:
    table = seated_table(CFG, {1: 150, 2: 100})
    table.rebuy("p1", 50)
    assert table.seats[1].stack == 200
    assert_refused(
        table,
        lambda: table.rebuy("p1", 1),
        BuyInError,
        "a stack may not exceed the maximum buy-in of 200",
    )
    assert_refused(
        table,
        lambda: table.rebuy("p2", 101),
        BuyInError,
        "a stack may not exceed the maximum buy-in of 200: add at most 100",
    )
    assert_refused(table, lambda: table.rebuy("p2", 0), BuyInError, "the amount must be positive")
    assert_refused(
        table, lambda: table.rebuy("nobody", 10), SeatError, "you are not seated at this table"
    )


def test_no_chips_can_be_added_while_dealt_into_a_hand() -> None:
    table = seated_table(CFG, {1: 100, 2: 100}, button=1)
    table.start_hand()
    assert_refused(
        table, lambda: table.rebuy("p1", 10), SeatError, "you can add chips when the hand is over"
    )


def _bust(table: Table, loser: int, winner: int) -> None:
    """Heads-up all-in where `winner` holds aces against `loser`'s seven-deuce."""
    hand = table.start_hand(
        deck(_order(table, (loser, winner)), {winner: "AcAd", loser: "7h2s"}, "3c8d9hJsKh")
    )
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        if legal.raise_kind is not None:
            assert legal.max_to is not None
            table.act(legal.seat, Action(kind=legal.raise_kind, amount=legal.max_to))
        else:
            table.act(legal.seat, A.check() if legal.can_check else A.call())


def _order(table: Table, seats: tuple[int, ...]) -> list[int]:
    button, playing = table.next_hand_seats()
    assert button is not None
    assert set(playing) == set(seats)
    return sorted(playing, key=lambda s: (s - button - 1) % table.config.seats)


def test_busted_seat_sits_out_and_must_rebuy_at_least_the_minimum() -> None:
    table = seated_table(CFG, {1: 100, 2: 200}, button=1)
    _bust(table, loser=1, winner=2)
    seat = table.seats[1]
    assert (seat.stack, seat.sitting_out) == (0, True)
    assert table.seats[2].stack == 300  # above the maximum buy-in: won chips are kept
    assert observe(table, None).seats[0].state is SeatState.SITTING_OUT
    assert not table.can_start_hand()
    assert_refused(
        table,
        lambda: table.sit_back("p1"),
        BuyInError,
        "you have less than a big blind: add chips first",
    )
    assert_refused(table, lambda: table.rebuy("p1", 79), BuyInError, "a rebuy must be at least 80")
    table.rebuy("p1", 80)
    assert table.seats[1].sitting_out  # rebuying does not sit you back in
    table.sit_back("p1")
    assert not table.seats[1].waiting_for_big_blind  # no hand was missed
    assert table.can_start_hand()
    assert set(table.start_hand().seats) == {1, 2}


def test_a_stack_below_the_minimum_may_be_topped_up_by_any_amount() -> None:
    table = seated_table(nl(seats=2, min_buy_in=80), {1: 80, 2: 200}, button=2)
    hand = table.start_hand(deck([1, 2], {1: "7h2s", 2: "AcAd"}, "3c8d9hJsKh"))
    play(table, (2, A.raise_to(76)), (1, A.call()))  # seat 1 keeps 4
    check_down(table)
    assert hand.is_over
    assert table.seats[1].stack == 4
    table.rebuy("p1", 1)
    assert table.seats[1].stack == 5


def test_busted_seat_that_rebuys_after_hands_were_dealt_plays_at_once() -> None:
    # Issue #34: the next hand was dealt while the rebuy dialog was open, and the seat then
    # waited for the big blind. Busting is not sitting out by choice: a rebuy deals it in
    # at once, as standing up and sitting down again would.
    table = seated_table(CFG, {1: 100, 2: 200, 3: 200}, button=3)
    # Seat 1 goes all-in against seat 2; seat 3 folds.
    hand = table.start_hand(deck([1, 2, 3], {1: "7h2s", 2: "AcAd", 3: "4c5d"}, "3c8d9hJsKh"))
    play(table, (3, A.fold()), (1, A.raise_to(100)), (2, A.call()))
    assert hand.is_over
    assert table.seats[1].sitting_out
    fold_round(table)  # a hand without seat 1
    table.rebuy("p1", 100)
    table.sit_back("p1")
    assert not table.seats[1].waiting_for_big_blind
    assert 1 in table.next_hand_seats()[1]


def test_a_seat_that_chose_to_sit_out_and_busted_waits_for_the_big_blind() -> None:
    table = seated_table(CFG, {1: 100, 2: 200, 3: 200}, button=3)
    hand = table.start_hand(deck([1, 2, 3], {1: "7h2s", 2: "AcAd", 3: "4c5d"}, "3c8d9hJsKh"))
    play(table, (3, A.fold()), (1, A.raise_to(100)))
    table.sit_out("p1")  # during the hand: sitting out was the player's choice
    play(table, (2, A.call()))
    assert hand.is_over and table.seats[1].sitting_out
    fold_round(table)  # a hand without seat 1
    table.rebuy("p1", 100)
    table.sit_back("p1")
    assert table.seats[1].waiting_for_big_blind


# -- sitting out and the big blind ---------------------------------------------------------


def test_sit_out_and_back_waits_for_the_big_blind() -> None:
    table = seated_table(CFG, {1: 100, 2: 100, 3: 100, 4: 100}, button=1)
    table.sit_out("p3")
    assert_refused(table, lambda: table.sit_out("p3"), SeatError, "you are already sitting out")
    hand = fold_round(table)
    assert (table.button, hand.seats, blinds(hand)) == (1, (2, 4, 1), (2, 4))
    table.sit_back("p3")
    assert table.seats[3].waiting_for_big_blind
    assert observe(table, None).seats[2].waiting_for_big_blind
    # Button 2: seat 3 would be the small blind: not dealt in.
    hand = fold_round(table)
    assert (table.button, hand.seats, blinds(hand)) == (2, (4, 1, 2), (4, 1))
    # Button 4: the big blind is on seat 2, seat 3 would be under the gun: not dealt in.
    hand = fold_round(table)
    assert (table.button, hand.seats, blinds(hand)) == (4, (1, 2, 4), (1, 2))
    # Button 1: the big blind reaches seat 3: dealt in, posting just the big blind.
    stack = table.seats[3].stack
    hand = table.start_hand()
    assert (table.button, hand.seats, blinds(hand)) == (1, (2, 3, 4, 1), (2, 3))
    assert [(e.kind, e.amount) for e in hand.events if e.seat == 3] == [(EventKind.BIG_BLIND, 2)]
    assert hand.stacks[3] == stack - 2
    assert not table.seats[3].waiting_for_big_blind


def test_sitting_out_again_ends_the_wait_for_the_big_blind() -> None:
    # Issue #34: a seat sat out again while waiting showed "Waiting for BB" and
    # "I'm back" at once; sitting out ends the wait, coming back decides afresh.
    table = seated_table(CFG, {1: 100, 2: 100, 3: 100}, button=1)
    table.sit_out("p3")
    fold_round(table)
    table.sit_back("p3")
    assert table.seats[3].waiting_for_big_blind
    table.sit_out("p3")
    seat = table.seats[3]
    assert (seat.sitting_out, seat.waiting_for_big_blind) == (True, False)
    assert observe(table, None).seats[2].waiting_for_big_blind is False


def test_sit_out_and_back_before_any_hand_is_missed_deals_in_at_once() -> None:
    table = seated_table(CFG, {1: 100, 2: 100, 3: 100}, button=1)
    table.sit_out("p2")
    table.sit_back("p2")
    assert not table.seats[2].waiting_for_big_blind
    assert_refused(table, lambda: table.sit_back("p2"), SeatError, "you are not sitting out")
    assert table.start_hand().seats == (2, 3, 1)


def test_only_the_first_waiting_seat_the_big_blind_reaches_is_dealt_in() -> None:
    # Seats 3 and 4 both wait, sat down in the order 4 then 3 (regression: both were dealt).
    table = seated_table(CFG, {1: 100, 2: 100, 5: 100}, button=5)
    for number in (4, 3):
        table.sit(number, f"p{number}", f"Player {number}", 100)
        table.sit_out(f"p{number}")
    fold_round(table)  # button 5
    table.sit_back("p4")
    table.sit_back("p3")
    # Button 1, small blind 2: the big blind reaches seat 3, seat 4 keeps waiting.
    button, playing = table.next_hand_seats()
    assert (button, playing) == (1, [1, 2, 3, 5])
    hand = table.start_hand()
    assert blinds(hand) == (2, 3)
    assert table.seats[4].waiting_for_big_blind
    fold_round_after(table, hand)
    hand = table.start_hand()  # button 2: the big blind reaches seat 4
    assert (table.button, blinds(hand)) == (2, (3, 4))


def fold_round_after(table: Table, hand: Hand) -> None:
    while not hand.is_over:
        assert hand.actor is not None
        table.act(hand.actor, table.default_action())


def test_waiting_seat_plays_when_nobody_else_could() -> None:
    table = seated_table(CFG, {1: 100, 2: 100, 3: 100}, button=1)
    table.sit_out("p3")
    fold_round(table)
    table.sit_back("p3")
    table.sit_out("p2")
    assert table.next_hand_seats()[1] == [1, 3]  # heads-up: no big blind to wait for


def test_sit_out_during_a_hand_takes_effect_when_it_ends() -> None:
    table = seated_table(CFG, {1: 100, 2: 100, 3: 100}, button=3)
    hand = table.start_hand()
    table.sit_out("p1")
    assert table.seats[1].wants_to_sit_out
    assert not table.seats[1].sitting_out
    assert hand.actor == 3
    fold_round_after(table, hand)
    assert table.seats[1].sitting_out
    assert 1 not in table.start_hand().seats


def test_sit_back_during_the_hand_cancels_the_sit_out() -> None:
    table = seated_table(CFG, {1: 100, 2: 100, 3: 100}, button=3)
    hand = table.start_hand()
    table.sit_out("p1")
    table.sit_back("p1")
    fold_round_after(table, hand)
    assert not table.seats[1].sitting_out
    assert 1 in table.start_hand().seats


# -- the button and when a hand can start ---------------------------------------------------


def test_button_moves_to_the_next_dealt_in_seat_as_seats_empty_and_fill() -> None:
    table = seated_table(CFG, {1: 100, 3: 100, 5: 100}, button=1)
    buttons = []
    fold_round(table)
    buttons.append(table.button)
    fold_round(table)
    buttons.append(table.button)
    table.stand("p5")
    fold_round(table)  # from 3 past the empty 4, 5 and 6
    buttons.append(table.button)
    table.sit(2, "p2", "Player 2", 100)
    fold_round(table)  # the new seat 2 is next clockwise: it gets the button at once
    buttons.append(table.button)
    table.sit_out("p3")
    fold_round(table)  # seat 3 is out: back to seat 1
    buttons.append(table.button)
    assert buttons == [1, 3, 1, 2, 1]


def test_first_button_is_drawn_with_the_table_seed() -> None:
    def first_button(seed: int) -> int | None:
        table = seated_table(CFG, {1: 100, 3: 100, 5: 100}, seed=seed)
        table.start_hand()
        return table.button

    drawn = {seed: first_button(seed) for seed in range(12)}
    assert set(drawn.values()) == {1, 3, 5}
    assert all(first_button(seed) == button for seed, button in drawn.items())


def test_a_hand_starts_only_with_two_ready_seats() -> None:
    table = Table("t", CFG, seed=0)
    assert not table.can_start_hand()
    table.sit(2, "p2", "Player 2", 100)
    assert not table.can_start_hand()
    assert_refused(
        table, table.start_hand, SeatError, "a hand needs two or more players with chips"
    )
    table.sit(4, "p4", "Player 4", 100)
    table.sit_out("p4")
    assert not table.can_start_hand()
    table.sit_back("p4")
    assert table.can_start_hand()
    hand = table.start_hand()
    assert not table.can_start_hand()
    assert_refused(table, table.start_hand, SeatError, "a hand is already in progress")
    fold_round_after(table, hand)
    assert table.can_start_hand()


def test_default_action_checks_when_free_and_folds_otherwise() -> None:
    table = seated_table(CFG, {1: 100, 2: 100, 3: 100}, button=3)
    table.start_hand()
    assert table.default_action() == A.fold()  # seat 3 faces the big blind
    play(table, (3, A.call()), (1, A.call()))
    assert table.default_action() == A.check()  # the big blind's option


# -- chips and restarts ------------------------------------------------------------------


def test_chips_in_play_counts_stacks_and_the_hand_in_progress() -> None:
    table = seated_table(CFG, {1: 100, 2: 150, 3: 200}, button=3)
    table.start_hand()
    play(table, (3, A.raise_to(20)), (1, A.call()))
    assert table.chips_in_play() == 450
    assert {n: s.stack for n, s in table.seats.items()} == {1: 0, 2: 0, 3: 0}


def test_snapshot_voids_the_hand_in_progress_returning_every_chip() -> None:
    table = seated_table(CFG, {1: 100, 2: 150, 3: 200}, button=3)
    table.start_hand()
    table.sit(5, "p5", "Player 5", 120)  # not dealt in
    play(table, (3, A.raise_to(20)), (1, A.call()))
    table.stand("p2")  # folded at once (its turn); voiding the hand keeps it seated
    snapshot = table.snapshot()
    assert {s.number: s.stack for s in snapshot.seats} == {1: 100, 2: 150, 3: 200, 5: 120}
    assert not any(s.leaving for s in snapshot.seats)
    restored = Table.restore(snapshot, seed=3)
    assert restored.hand is None
    assert (restored.button, restored.hand_no) == (3, 1)
    assert restored.chips_in_play() == table.chips_in_play() == 570
    assert restored.can_start_hand()
    assert set(restored.start_hand().seats) == {1, 2, 3, 5}
    # The live table is untouched by taking the snapshot.
    assert table.hand is not None
    assert not table.hand.is_over


def test_snapshot_between_hands_keeps_the_stacks() -> None:
    table = seated_table(CFG, {1: 100, 2: 150}, button=1)
    fold_round(table)
    stacks = {n: s.stack for n, s in table.seats.items()}
    restored = Table.restore(table.snapshot())
    assert {n: s.stack for n, s in restored.seats.items()} == stacks
    assert restored.hand_no == table.hand_no


def test_tables_restored_from_one_snapshot_do_not_share_seats() -> None:
    table = seated_table(CFG, {1: 100, 2: 150}, button=1)
    snapshot = table.snapshot()
    first = Table.restore(snapshot)
    second = Table.restore(snapshot)
    first.rebuy("p1", 50)
    first.sit_out("p2")
    assert second.seats[1].stack == 100
    assert not second.seats[2].sitting_out
    assert [s.stack for s in snapshot.seats] == [100, 150]
    assert table.seats[1].stack == 100
