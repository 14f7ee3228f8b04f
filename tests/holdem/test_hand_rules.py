"""The rules of one hand, each with explicit cards and the exact chips that must move.

Dealing order (see holdem_testlib.deck): one card at a time from the first seat left
of the button, twice round; then burn + three, burn + one, burn + one.
"""

from __future__ import annotations

import warnings

import pytest
from holdem_testlib import check_down, deck, event_ledger, fl, nl, play

from holdem.actions import Action, ActionKind, EventKind, HandEvent, Street
from holdem.cards import FULL_DECK
from holdem.errors import BuyInError, IllegalActionError
from holdem.hand import Hand
from holdem.table import Table

A = Action


def kinds_and_amounts(events: list[HandEvent], *kinds: EventKind) -> list[tuple[str, int, int]]:
    return [(e.kind.value, e.seat or 0, e.amount or 0) for e in events if e.kind in kinds]


# -- blinds and the order of play ---------------------------------------------------


def test_heads_up_button_posts_small_blind_acts_first_preflop_and_last_after() -> None:
    # Seat 1 has the button: heads-up it is the small blind. Seat 2 is dealt first.
    hand = Hand(
        nl(seats=2), {1: 100, 2: 100}, 1, deck([2, 1], {2: "7c2d", 1: "AhKh"}, "3s4s5s9d9c")
    )
    assert hand.hole_cards == {2: ("7c", "2d"), 1: ("Ah", "Kh")}
    assert set(kinds_and_amounts(hand.events, EventKind.SMALL_BLIND, EventKind.BIG_BLIND)) == {
        ("small_blind", 1, 1),
        ("big_blind", 2, 2),
    }
    assert hand.stacks == {1: 99, 2: 98}
    assert hand.bets == {1: 1, 2: 2}
    assert hand.actor == 1  # the button acts first preflop
    play(hand, (1, A.call()))
    assert hand.actor == 2  # the big blind's option
    legal = hand.legal_actions()
    assert legal is not None
    assert (legal.can_check, legal.can_fold, legal.raise_kind, legal.min_to) == (
        True,
        False,
        ActionKind.RAISE,
        4,
    )
    play(hand, (2, A.check()))
    for street in (Street.FLOP, Street.TURN, Street.RIVER):
        assert hand.street is street
        assert hand.actor == 2  # the button acts last after the flop
        play(hand, (2, A.check()), (1, A.check()))
    assert hand.is_over
    assert hand.board == ["3s", "4s", "5s", "9d", "9c"]
    # Both play the board's nines; seat 1's A-K kickers beat seat 2's 7-5-4.
    assert hand.stacks == {1: 102, 2: 98}
    assert event_ledger(hand) == hand.stacks


def test_heads_up_with_the_button_on_the_higher_seat() -> None:
    # Button 2: seat 2 posts the small blind and acts first; seat 1 is dealt first.
    hand = Hand(nl(seats=2), {1: 100, 2: 100}, 2, deck([1, 2], {1: "7c2d", 2: "AhKh"}))
    assert set(kinds_and_amounts(hand.events, EventKind.SMALL_BLIND, EventKind.BIG_BLIND)) == {
        ("big_blind", 1, 2),
        ("small_blind", 2, 1),
    }
    assert hand.hole_cards == {1: ("7c", "2d"), 2: ("Ah", "Kh")}
    assert hand.actor == 2
    play(hand, (2, A.raise_to(6)), (1, A.fold()))
    assert hand.stacks == {1: 98, 2: 102}


def test_three_handed_first_to_act_is_left_of_big_blind_then_left_of_button() -> None:
    # 9-seat table, seats 1, 5 and 9, button 5: seat 9 posts the SB, seat 1 the BB.
    cards = deck([9, 1, 5], {9: "2c3d", 1: "4h5s", 5: "KdKc"}, "Ah7s8dQcJc")
    hand = Hand(nl(seats=9), {1: 100, 5: 100, 9: 100}, 5, cards)
    assert kinds_and_amounts(hand.events, EventKind.SMALL_BLIND, EventKind.BIG_BLIND) == [
        ("small_blind", 9, 1),
        ("big_blind", 1, 2),
    ]
    assert hand.actor == 5
    play(hand, (5, A.call()), (9, A.call()), (1, A.check()))
    assert hand.street is Street.FLOP
    assert hand.actor == 9  # first seat left of the button
    play(hand, (9, A.check()), (1, A.check()), (5, A.check()))
    assert hand.actor == 9


def test_postflop_first_actor_skips_folded_seats_left_of_button() -> None:
    cards = deck([1, 2, 3, 4], {1: "2c3d", 2: "4h5s", 3: "KdKc", 4: "9s9h"}, "Ah7s8dQcJc")
    hand = Hand(nl(seats=4), {1: 100, 2: 100, 3: 100, 4: 100}, 4, cards)
    assert hand.actor == 3  # left of the big blind (seat 2)
    play(hand, (3, A.call()), (4, A.call()), (1, A.fold()), (2, A.check()))
    assert hand.street is Street.FLOP
    assert hand.actor == 2  # seat 1, first left of the button, folded


def test_big_blind_gets_the_option_when_everyone_limps() -> None:
    hand = Hand(
        nl(seats=4),
        {1: 100, 2: 100, 3: 100, 4: 100},
        4,
        deck([1, 2, 3, 4], {1: "2c3d", 2: "4h5s", 3: "KdKc", 4: "9s9h"}),
    )
    play(hand, (3, A.call()), (4, A.call()), (1, A.call()))
    assert hand.street is Street.PREFLOP
    assert hand.actor == 2
    play(hand, (2, A.raise_to(8)))
    assert hand.actor == 3
    legal = hand.legal_actions()
    assert legal is not None
    assert (legal.call_amount, legal.min_to) == (6, 14)


# -- no-limit sizes -----------------------------------------------------------------------


def test_no_limit_min_and_max_amounts_follow_the_last_full_raise() -> None:
    # 50/100, seats 1..4, button 4: SB 1, BB 2, seat 3 first.
    cards = deck([1, 2, 3, 4], {1: "2c3d", 2: "4h5s", 3: "KdKc", 4: "9s9h"}, "Ah7s8dQcJc")
    hand = Hand(nl(seats=4, sb=50, bb=100), dict.fromkeys((1, 2, 3, 4), 10_000), 4, cards)

    def legal_tuple() -> tuple[object, ...]:
        legal = hand.legal_actions()
        assert legal is not None
        return (
            legal.seat,
            legal.call_amount,
            legal.raise_kind,
            legal.min_to,
            legal.max_to,
            legal.committed,
            legal.stack,
        )

    assert legal_tuple() == (3, 100, ActionKind.RAISE, 200, 10_000, 0, 10_000)
    play(hand, (3, A.raise_to(300)))  # raises by 200
    assert legal_tuple() == (4, 300, ActionKind.RAISE, 500, 10_000, 0, 10_000)
    play(hand, (4, A.raise_to(800)))  # raises by 500
    assert legal_tuple() == (1, 750, ActionKind.RAISE, 1300, 10_000, 50, 9950)
    play(hand, (1, A.fold()))
    assert legal_tuple() == (2, 700, ActionKind.RAISE, 1300, 10_000, 100, 9900)
    play(hand, (2, A.call()), (3, A.call()))
    assert hand.street is Street.FLOP
    assert hand.total_pot == 50 + 3 * 800
    # Postflop the minimum bet is the big blind, the maximum the whole stack.
    assert legal_tuple() == (2, 0, ActionKind.BET, 100, 9200, 0, 9200)
    play(hand, (2, A.bet(250)))
    assert legal_tuple() == (3, 250, ActionKind.RAISE, 500, 9200, 0, 9200)
    play(hand, (3, A.raise_to(600)))  # raises by 350
    assert legal_tuple() == (4, 600, ActionKind.RAISE, 950, 9200, 0, 9200)
    play(hand, (4, A.raise_to(9200)))  # all-in
    assert legal_tuple() == (2, 8950, None, None, None, 250, 8950)


def test_no_limit_short_stack_may_only_raise_all_in_and_bet_below_the_big_blind() -> None:
    # Seat 3 (the button, first to act three-handed) has 3 chips: its only raise is all-in.
    cards = deck([1, 2, 3], {1: "2c3d", 2: "4h5s", 3: "KdKc"}, "Ah7s8dQcJc")
    hand = Hand(nl(seats=3), {1: 100, 2: 100, 3: 3}, 3, cards)
    legal = hand.legal_actions()
    assert legal is not None
    assert (legal.raise_kind, legal.min_to, legal.max_to) == (ActionKind.RAISE, 3, 3)
    play(hand, (3, A.call()), (1, A.call()), (2, A.check()))
    # Postflop seat 3 has 1 chip, less than the big blind: bet all-in for 1 is allowed.
    play(hand, (1, A.check()), (2, A.check()))
    legal = hand.legal_actions()
    assert legal is not None
    assert (legal.seat, legal.raise_kind, legal.min_to, legal.max_to) == (3, ActionKind.BET, 1, 1)
    play(hand, (3, A.bet(1)))
    legal = hand.legal_actions()
    assert legal is not None
    # The next bet is at least the big blind on top of it.
    assert (legal.seat, legal.call_amount, legal.min_to) == (1, 1, 3)


def test_short_all_in_does_not_reopen_betting_for_players_who_acted() -> None:
    # A = seat 1 (acts first postflop), B = seat 2 with 152, C = seat 3 (button).
    cards = deck([1, 2, 3], {1: "2c3d", 2: "4h5s", 3: "KdKc"}, "Ah7s8dQcJc")
    hand = Hand(nl(seats=3), {1: 1000, 2: 152, 3: 1000}, 3, cards)
    play(hand, (3, A.call()), (1, A.call()), (2, A.check()))
    play(hand, (1, A.bet(100)), (2, A.raise_to(150)))  # all-in, a raise of 50 < 100
    assert hand.is_all_in(2)
    legal = hand.legal_actions()
    assert legal is not None
    # C has not acted: C may raise, by at least the last full raise (100).
    assert (legal.seat, legal.call_amount, legal.raise_kind, legal.min_to) == (
        3,
        150,
        ActionKind.RAISE,
        250,
    )
    play(hand, (3, A.call()))
    legal = hand.legal_actions()
    assert legal is not None
    # A already acted and faced only a short raise: call or fold.
    assert (legal.seat, legal.kinds, legal.call_amount) == (
        1,
        (ActionKind.FOLD, ActionKind.CALL),
        50,
    )
    with pytest.raises(IllegalActionError, match="you cannot raise now"):
        hand.act(1, A.raise_to(400))
    play(hand, (1, A.call()))
    assert hand.street is Street.TURN


def test_full_all_in_raise_reopens_betting() -> None:
    cards = deck([1, 2, 3], {1: "2c3d", 2: "4h5s", 3: "KdKc"}, "Ah7s8dQcJc")
    hand = Hand(nl(seats=3), {1: 1000, 2: 202, 3: 1000}, 3, cards)
    play(hand, (3, A.call()), (1, A.call()), (2, A.check()))
    play(hand, (1, A.bet(100)), (2, A.raise_to(200)), (3, A.call()))  # a full raise of 100
    legal = hand.legal_actions()
    assert legal is not None
    assert (legal.seat, legal.raise_kind, legal.min_to, legal.max_to) == (
        1,
        ActionKind.RAISE,
        300,
        998,
    )


def test_short_all_ins_adding_up_to_a_full_raise_reopen_betting() -> None:
    # A bets 100, B all-in to 150 (+50), C all-in to 210 (+60): together a full raise.
    cards = deck([1, 2, 3, 4], {1: "2c3d", 2: "4h5s", 3: "KdKc", 4: "9s9h"}, "Ah7s8dQcJc")
    hand = Hand(nl(seats=4), {1: 1000, 2: 152, 3: 212, 4: 1000}, 4, cards)
    play(hand, (3, A.call()), (4, A.call()), (1, A.call()), (2, A.check()))
    play(hand, (1, A.bet(100)), (2, A.raise_to(150)), (3, A.raise_to(210)), (4, A.call()))
    legal = hand.legal_actions()
    assert legal is not None
    assert (legal.seat, legal.raise_kind, legal.min_to) == (1, ActionKind.RAISE, 310)


# -- fixed-limit sizes and the cap -----------------------------------------------------------


def _fl_hand(raise_cap: int | None = 4, stacks: int = 1000) -> Hand:
    cards = deck([1, 2, 3, 4], {1: "AcAd", 2: "4h5s", 3: "KdKc", 4: "9s9h"}, "2h7s8dQcJc")
    cfg = fl(seats=4, raise_cap=raise_cap)
    return Hand(cfg, dict.fromkeys((1, 2, 3, 4), stacks), 4, cards)


def _raise_window(hand: Hand) -> tuple[object, ...]:
    legal = hand.legal_actions()
    assert legal is not None
    return legal.seat, legal.call_amount, legal.raise_kind, legal.min_to, legal.max_to


def test_fixed_limit_sizes_and_default_cap_of_four_bets() -> None:
    hand = _fl_hand()
    # Preflop: the big blind (2) is the first bet; raises go up by the small bet (2).
    assert _raise_window(hand) == (3, 2, ActionKind.RAISE, 4, 4)
    play(hand, (3, A.raise_to(4)))
    assert _raise_window(hand) == (4, 4, ActionKind.RAISE, 6, 6)
    play(hand, (4, A.raise_to(6)))
    assert _raise_window(hand) == (1, 5, ActionKind.RAISE, 8, 8)
    play(hand, (1, A.raise_to(8)))  # four bets: capped
    assert _raise_window(hand) == (2, 6, None, None, None)
    play(hand, (2, A.call()), (3, A.call()), (4, A.call()))
    # Flop: bet 2, raises to 4, 6, 8, then capped.
    assert _raise_window(hand) == (1, 0, ActionKind.BET, 2, 2)
    play(hand, (1, A.bet(2)), (2, A.raise_to(4)), (3, A.raise_to(6)), (4, A.raise_to(8)))
    assert _raise_window(hand) == (1, 6, None, None, None)
    play(hand, (1, A.call()), (2, A.call()), (3, A.call()))
    # Turn: the big bet (4): bet 4, raises to 8, 12, 16, then capped.
    assert hand.street is Street.TURN
    assert _raise_window(hand) == (1, 0, ActionKind.BET, 4, 4)
    play(hand, (1, A.bet(4)), (2, A.raise_to(8)), (3, A.raise_to(12)), (4, A.raise_to(16)))
    assert _raise_window(hand) == (1, 12, None, None, None)
    play(hand, (1, A.call()), (2, A.call()), (3, A.call()))
    # River: big bet again.
    assert _raise_window(hand) == (1, 0, ActionKind.BET, 4, 4)
    check_down(hand)
    # Everyone put in 8 + 8 + 16 = 32; seat 1's aces win 128.
    assert hand.stacks == {1: 1096, 2: 968, 3: 968, 4: 968}
    assert event_ledger(hand) == hand.stacks


def test_fixed_limit_uncapped_keeps_raising() -> None:
    hand = _fl_hand(raise_cap=None)
    for to in range(4, 24, 2):  # ten raises preflop, and still open
        seat = hand.actor
        assert seat is not None
        assert _raise_window(hand)[2:] == (ActionKind.RAISE, to, to)
        hand.act(seat, A.raise_to(to))
    assert _raise_window(hand)[2:] == (ActionKind.RAISE, 24, 24)


def test_fixed_limit_cap_of_five() -> None:
    hand = _fl_hand(raise_cap=5)
    play(hand, (3, A.raise_to(4)), (4, A.raise_to(6)), (1, A.raise_to(8)), (2, A.raise_to(10)))
    assert _raise_window(hand) == (3, 6, None, None, None)  # BB + 4 raises = 5 bets
    play(hand, (3, A.call()), (4, A.call()), (1, A.call()))
    play(hand, (1, A.bet(2)), (2, A.raise_to(4)), (3, A.raise_to(6)), (4, A.raise_to(8)))
    assert _raise_window(hand) == (1, 6, ActionKind.RAISE, 10, 10)
    play(hand, (1, A.raise_to(10)))  # bet + 4 raises = 5 bets
    assert _raise_window(hand) == (2, 6, None, None, None)


def test_fixed_limit_cap_of_one_allows_no_raise() -> None:
    hand = _fl_hand(raise_cap=1)
    assert _raise_window(hand) == (3, 2, None, None, None)
    with pytest.raises(IllegalActionError, match="the betting is capped: call or fold"):
        hand.act(3, A.raise_to(4))
    play(hand, (3, A.call()), (4, A.call()), (1, A.call()), (2, A.check()))
    play(hand, (1, A.bet(2)))
    assert _raise_window(hand) == (2, 2, None, None, None)


def test_fixed_limit_short_stack_raises_all_in_for_less() -> None:
    cards = deck([1, 2, 3], {1: "AcAd", 2: "4h5s", 3: "KdKc"}, "2h7s8dQcJc")
    hand = Hand(fl(seats=3), {1: 100, 2: 100, 3: 3}, 3, cards)
    assert _raise_window(hand) == (3, 2, ActionKind.RAISE, 3, 3)


# -- pots, side pots, splits and returns ---------------------------------------------------


@pytest.mark.parametrize(
    ("best", "expected"),
    [
        (1, {1: 300, 2: 400, 3: 200}),  # the short stack wins the main pot only
        (2, {1: 0, 2: 700, 3: 200}),  # the middle stack wins main and side pot
        (3, {1: 0, 2: 0, 3: 900}),  # the big stack wins everything
    ],
)
def test_all_ins_make_main_and_side_pots(best: int, expected: dict[int, int]) -> None:
    ranking = {1: "AcAd", 2: "KcKd", 3: "QcQd"}
    order = sorted(ranking, key=lambda s: s != best)  # `best` gets the aces
    holes = {seat: hand for seat, hand in zip(order, ranking.values(), strict=True)}
    cards = deck([1, 2, 3], holes, "2h7s9dJs4h")
    hand = Hand(nl(seats=3), {1: 100, 2: 300, 3: 500}, 3, cards)
    play(hand, (3, A.raise_to(500)), (1, A.call()), (2, A.call()))
    assert hand.is_over
    assert hand.stacks == expected
    assert sum(hand.stacks.values()) == 900
    # Seat 3's 200 that nobody could call comes back to it before the showdown.
    assert kinds_and_amounts(hand.events, EventKind.RETURN) == [("return", 3, 200)]
    wins = {(e.seat, e.pot_index): e.amount for e in hand.events if e.kind is EventKind.WIN}
    if best == 1:  # two winners: the main pot and the side pot are pushed separately
        assert wins == {(1, 0): 300, (2, 1): 400}
    else:  # one winner: pokerkit pushes the pots it alone contests as one
        assert wins == {(best, 0): 700}
    # All-in: every hand is shown.
    assert sorted(e.seat or 0 for e in hand.events if e.kind is EventKind.SHOW) == [1, 2, 3]
    assert event_ledger(hand) == hand.stacks


def test_pots_before_the_showdown_list_who_contests_them() -> None:
    cards = deck([1, 2, 3, 4], {1: "AcAd", 2: "KcKd", 3: "QcQd", 4: "JcJd"}, "2h7s9dJs4h")
    hand = Hand(nl(seats=4), {1: 50, 2: 1000, 3: 1000, 4: 1000}, 4, cards)
    play(hand, (3, A.call()), (4, A.call()), (1, A.raise_to(50)), (2, A.call()))
    play(hand, (3, A.call()), (4, A.call()))
    assert [(p.amount, p.seats) for p in hand.pots] == [(200, (1, 2, 3, 4))]
    play(hand, (2, A.bet(100)), (3, A.call()), (4, A.fold()))
    assert [(p.amount, p.seats) for p in hand.pots] == [(200, (1, 2, 3)), (200, (2, 3))]
    assert hand.total_pot + sum(hand.stacks.values()) == 3050


def test_split_pot_odd_chip_goes_to_first_winner_left_of_button() -> None:
    # Button 1, SB 2 (folds: its 1 chip makes the pot odd), BB 3. The board is a royal
    # flush, so seats 3 and 1 split 5: seat 3 is first left of the button among the winners.
    cards = deck([2, 3, 1], {2: "2c3d", 3: "4c5d", 1: "6c7d"}, "AhKhQhJhTh")
    hand = Hand(nl(seats=3), {1: 100, 2: 100, 3: 100}, 1, cards)
    play(hand, (1, A.call()), (2, A.fold()), (3, A.check()))
    check_down(hand)
    assert hand.stacks == {1: 100, 2: 99, 3: 101}
    assert sorted(kinds_and_amounts(hand.events, EventKind.WIN)) == [
        ("win", 1, 2),
        ("win", 3, 3),
    ]


def test_split_pot_odd_chip_with_antes() -> None:
    # Ante 1 each, button 2: SB 3, BB 4, seat 1 first. Seat 1 limps, 2 and 3 fold, 4 checks:
    # pot 4 + 1 + 2 + 2 = 9 split by seats 4 and 1; seat 4 is first left of the button.
    cards = deck([3, 4, 1, 2], {3: "2c3d", 4: "4c5d", 1: "6c7d", 2: "8c9d"}, "AhKhQhJhTh")
    hand = Hand(nl(seats=4, ante=1), dict.fromkeys((1, 2, 3, 4), 100), 2, cards)
    assert kinds_and_amounts(hand.events, EventKind.ANTE) == [
        ("ante", 3, 1),
        ("ante", 4, 1),
        ("ante", 1, 1),
        ("ante", 2, 1),
    ]
    assert hand.total_pot == 4 + 1 + 2
    play(hand, (1, A.call()), (2, A.fold()), (3, A.fold()), (4, A.check()))
    check_down(hand)
    assert hand.stacks == {1: 101, 2: 99, 3: 98, 4: 102}
    assert event_ledger(hand) == hand.stacks


def test_uncalled_preflop_raise_is_returned_and_the_pot_won() -> None:
    cards = deck([1, 3, 5], {1: "2c3d", 3: "4c5d", 5: "AsAd"})
    hand = Hand(nl(seats=6), {1: 200, 3: 200, 5: 200}, 5, cards)
    play(hand, (5, A.raise_to(6)), (1, A.fold()), (3, A.fold()))
    assert hand.is_over
    assert hand.stacks == {1: 199, 3: 198, 5: 203}
    # 4 of the 6 were never matched; the pot (1 + 2 + the 2 that matched the BB) is won.
    assert kinds_and_amounts(hand.events, EventKind.RETURN, EventKind.WIN) == [
        ("return", 5, 4),
        ("win", 5, 5),
    ]
    assert hand.result is not None
    assert hand.result.winnings == {1: 0, 3: 0, 5: 5}
    assert hand.result.net == {1: -1, 3: -2, 5: 3}
    assert not any(e.kind is EventKind.SHOW for e in hand.events)  # nothing is shown


def test_big_blind_wins_the_small_blind_when_everyone_folds() -> None:
    hand = Hand(nl(seats=2), {1: 100, 2: 100}, 1, deck([2, 1], {2: "2c3d", 1: "4c5d"}))
    play(hand, (1, A.fold()))
    assert hand.stacks == {1: 99, 2: 101}
    assert kinds_and_amounts(hand.events, EventKind.RETURN, EventKind.WIN) == [
        ("return", 2, 1),
        ("win", 2, 2),
    ]
    assert event_ledger(hand) == hand.stacks


def test_uncalled_postflop_bet_is_returned() -> None:
    cards = deck([1, 2], {1: "2c3d", 2: "4c5d"}, "AhKhQhJhTh")
    hand = Hand(nl(seats=2), {1: 100, 2: 100}, 2, cards)
    play(hand, (2, A.call()), (1, A.check()), (1, A.bet(30)), (2, A.fold()))
    assert hand.stacks == {1: 102, 2: 98}
    assert kinds_and_amounts(hand.events, EventKind.RETURN, EventKind.WIN) == [
        ("return", 1, 30),
        ("win", 1, 4),
    ]
    assert hand.events[-2].street is Street.FLOP


def test_all_in_call_for_less_returns_the_excess() -> None:
    cards = deck([1, 2], {1: "AcAd", 2: "KcKd"}, "2h7s9dJs4h")
    hand = Hand(nl(seats=2), {1: 40, 2: 100}, 2, cards)
    play(hand, (2, A.raise_to(100)), (1, A.call()))
    assert hand.stacks == {1: 80, 2: 60}
    assert kinds_and_amounts(hand.events, EventKind.RETURN) == [("return", 2, 60)]
    call = next(e for e in hand.events if e.kind is EventKind.CALL)
    assert (call.seat, call.amount, call.all_in) == (1, 38, True)


# -- showdown ---------------------------------------------------------------------------------


def _three_way(board: str, holes: dict[int, str]) -> Hand:
    return Hand(nl(seats=3), {1: 100, 2: 100, 3: 100}, 3, deck([1, 2, 3], holes, board))


def test_showdown_without_bet_starts_left_of_button_and_losers_muck() -> None:
    # Seat 1 (tens) shows first; seat 2 (jack high) cannot beat it and mucks; seat 3 (aces)
    # shows and wins.
    hand = _three_way("2c5d9hJs3s", {1: "TcTd", 2: "7c8d", 3: "AcAd"})
    play(hand, (3, A.call()), (1, A.call()), (2, A.check()))
    check_down(hand)
    showdown = [(e.kind.value, e.seat) for e in hand.events if e.street is Street.SHOWDOWN]
    assert showdown[:3] == [("show", 1), ("muck", 2), ("show", 3)]
    assert hand.shown == {1: ("Tc", "Td"), 3: ("Ac", "Ad")}
    assert hand.stacks == {1: 98, 2: 98, 3: 104}
    muck = next(e for e in hand.events if e.kind is EventKind.MUCK)
    assert muck.cards == ()


def test_ten_handed_hand_to_the_river_deals_from_the_deck_without_warnings() -> None:
    # pokerkit is given only the cards a hand can deal; with none to spare it warns on
    # every river action ("returning reserved cards as dealable").
    order = list(range(1, 11))
    holes = {seat: FULL_DECK[2 * seat] + FULL_DECK[2 * seat + 1] for seat in order}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        hand = Hand(nl(seats=10), dict.fromkeys(order, 100), 10, deck(order, holes, "AhKhQhJhTh"))
        check_down(hand)
    assert [str(w.message) for w in caught] == []
    assert hand.board == ["Ah", "Kh", "Qh", "Jh", "Th"]
    assert hand.stacks == dict.fromkeys(order, 100)  # the board plays: ten ways split


def test_last_aggressor_shows_first_and_beaten_hands_are_mucked() -> None:
    hand = _three_way("2c5d9hJs3s", {1: "TcTd", 2: "AcAd", 3: "7c8d"})
    play(hand, (3, A.call()), (1, A.call()), (2, A.check()))
    for _ in range(2):
        play(hand, (1, A.check()), (2, A.check()), (3, A.check()))
    play(hand, (1, A.check()), (2, A.bet(10)), (3, A.call()), (1, A.call()))
    showdown = [(e.kind.value, e.seat) for e in hand.events if e.street is Street.SHOWDOWN]
    assert showdown[:3] == [("show", 2), ("muck", 3), ("muck", 1)]
    assert hand.shown == {2: ("Ac", "Ad")}
    assert hand.stacks == {1: 88, 2: 124, 3: 88}


def test_tied_hands_are_both_shown() -> None:
    hand = _three_way("AhKhQhJhTh", {1: "2c3d", 2: "4c5d", 3: "6c7d"})
    check_down(hand)
    assert set(hand.shown) == {1, 2, 3}
    assert hand.stacks == {1: 100, 2: 100, 3: 100}


# -- antes ------------------------------------------------------------------------------------


def test_antes_are_posted_by_every_seat_before_the_blinds() -> None:
    cards = deck([1, 2, 3], {1: "2c3d", 2: "4c5d", 3: "6c7d"})
    hand = Hand(nl(seats=3, ante=1), {1: 100, 2: 100, 3: 100}, 3, cards)
    assert [(e.kind.value, e.seat, e.amount) for e in hand.events] == [
        ("ante", 1, 1),
        ("ante", 2, 1),
        ("ante", 3, 1),
        ("small_blind", 1, 1),
        ("big_blind", 2, 2),
    ]
    assert hand.stacks == {1: 98, 2: 97, 3: 99}
    assert hand.bets == {1: 1, 2: 2, 3: 0}  # antes are not part of the street's bets
    assert hand.total_pot == 6
    play(hand, (3, A.fold()), (1, A.fold()))
    assert hand.stacks == {1: 98, 2: 103, 3: 99}
    assert kinds_and_amounts(hand.events, EventKind.RETURN, EventKind.WIN) == [
        ("return", 2, 1),
        ("win", 2, 5),
    ]


def test_heads_up_antes() -> None:
    hand = Hand(nl(seats=2, ante=2), {1: 100, 2: 100}, 1, deck([2, 1], {2: "2c3d", 1: "4c5d"}))
    assert kinds_and_amounts(hand.events, EventKind.ANTE) == [("ante", 2, 2), ("ante", 1, 2)]
    assert hand.stacks == {1: 97, 2: 96}
    play(hand, (1, A.fold()))
    assert hand.stacks == {1: 97, 2: 103}


def test_an_ante_nobody_can_match_is_trimmed_and_returned() -> None:
    # Seats 1 and 2 are all-in on a 5-chip ante; seat 3's 10 is matched to 5 only.
    cards = deck([1, 2, 3], {1: "AcAd", 2: "KcKd", 3: "QcQd"}, "2h7s9dJs4h")
    cfg = nl(seats=3, ante=10, min_buy_in=10)
    hand = Hand(cfg, {1: 5, 2: 5, 3: 100}, 3, cards)
    assert hand.is_over  # nobody can bet
    assert kinds_and_amounts(hand.events, EventKind.ANTE, EventKind.RETURN) == [
        ("ante", 1, 5),
        ("ante", 2, 5),
        ("ante", 3, 10),
        ("return", 3, 5),
    ]
    assert [e.all_in for e in hand.events if e.kind is EventKind.ANTE] == [True, True, False]
    assert hand.stacks == {1: 15, 2: 0, 3: 95}
    assert event_ledger(hand) == hand.stacks


# -- blinds bigger than a stack ------------------------------------------------------------


def test_short_big_blind_posts_all_in() -> None:
    cards = deck([1, 2, 3], {1: "2c3d", 2: "AcAd", 3: "6c7d"}, "2h7s9dJs4h")
    hand = Hand(nl(seats=3), {1: 100, 2: 1, 3: 100}, 3, cards)
    bb = next(e for e in hand.events if e.kind is EventKind.BIG_BLIND)
    assert (bb.seat, bb.amount, bb.all_in) == (2, 1, True)
    assert hand.is_all_in(2)
    check_down(hand)
    # Seat 2's aces win the main pot of 3 (1 from each); the rest is contested by 1 and 3.
    assert hand.stacks[2] == 3
    assert sum(hand.stacks.values()) == 201


def test_a_seat_short_of_the_big_blind_is_not_dealt_in() -> None:
    # pokerkit would let the others call a short all-in big blind for less than a
    # full blind; the table avoids that spot by sitting such a seat out.
    table = Table("short", fl(seats=3), seed=3)
    for number, name in ((1, "a"), (2, "b"), (3, "c")):
        table.sit(number, name, name, table.config.min_buy_in)
    table.seats[2].stack = table.config.big_blind - 1
    _, playing = table.next_hand_seats()
    assert playing == [1, 3]
    hand = table.start_hand()
    assert 2 not in hand.seats
    table.sit_out("b")
    with pytest.raises(BuyInError, match="less than a big blind"):
        table.sit_back("b")
