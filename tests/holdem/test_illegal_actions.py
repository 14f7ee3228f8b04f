"""Illegal actions raise typed errors a player can read, and change nothing at all."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from holdem_testlib import deck, fingerprint, fl, nl, play, seated_table

from holdem.actions import Action, ActionKind
from holdem.errors import HandOverError, IllegalActionError, NotYourTurnError, RuleError
from holdem.table import Table

A = Action
CARDS = {1: "2c3d", 2: "4h5s", 3: "KdKc", 4: "9s9h"}
BOARD = "Ah7s8dQcJc"


def nl_table(stacks: int = 10_000) -> Table:
    """50/100, seats 1..4 with the button on 4: SB 1, BB 2, seat 3 first to act."""
    cfg = nl(seats=6, sb=50, bb=100, min_buy_in=100)
    table = seated_table(cfg, dict.fromkeys((1, 2, 3, 4), stacks), button=4)
    table.start_hand(deck([1, 2, 3, 4], CARDS, BOARD))
    assert table.button == 4
    return table


def facing_raise() -> Table:
    table = nl_table()
    play(table, (3, A.raise_to(300)))  # seat 4 faces 300; a re-raise is to 500 or more
    return table


def on_the_flop() -> Table:
    table = nl_table()
    play(table, (3, A.call()), (4, A.call()), (1, A.call()), (2, A.check()))
    return table  # seat 1 to act, nothing bet


def after_short_all_in() -> Table:
    cfg = nl(seats=6, sb=50, bb=100, min_buy_in=100)
    table = seated_table(cfg, {1: 10_000, 2: 10_000, 3: 1_000, 4: 10_000}, button=4)
    table.start_hand(deck([1, 2, 3, 4], CARDS, BOARD))
    play(table, (3, A.call()), (4, A.call()), (1, A.call()), (2, A.check()))
    play(table, (1, A.bet(800)), (2, A.call()), (3, A.raise_to(900)), (4, A.call()))
    return table  # seat 1 bet 800, faced a 100 short all-in: call or fold only


def short_stack_to_act() -> Table:
    cfg = nl(seats=6, sb=50, bb=100, min_buy_in=100)
    table = seated_table(cfg, {1: 10_000, 2: 10_000, 3: 150, 4: 10_000}, button=4)
    table.start_hand(deck([1, 2, 3, 4], CARDS, BOARD))
    return table  # seat 3 has 150: its only raise is all-in to 150


def limit_table() -> Table:
    table = seated_table(fl(seats=6), dict.fromkeys((1, 2, 3, 4), 200), button=4)
    table.start_hand(deck([1, 2, 3, 4], CARDS, BOARD))
    return table  # 1/2 limit: seat 3 may raise to exactly 4


def limit_capped() -> Table:
    table = limit_table()
    play(table, (3, A.raise_to(4)), (4, A.raise_to(6)), (1, A.raise_to(8)))
    return table  # four bets: seat 2 may only call or fold


CASES: list[tuple[Callable[[], Table], int, Action, type[RuleError], str]] = [
    (facing_raise, 1, A.call(), NotYourTurnError, "it is not your turn"),
    (facing_raise, 5, A.call(), IllegalActionError, "seat 5 is not in this hand"),
    (facing_raise, 4, A.raise_to(400), IllegalActionError, "the minimum raise is to 500"),
    (
        facing_raise,
        4,
        A.raise_to(10_001),
        IllegalActionError,
        r"the maximum raise is to 10000 \(all-in\)",
    ),
    (
        facing_raise,
        4,
        Action(kind=ActionKind.RAISE),
        IllegalActionError,
        "say how much to raise: from 500 to 10000",
    ),
    (
        facing_raise,
        4,
        A.bet(500),
        IllegalActionError,
        "you cannot bet here; raise instead",
    ),
    (
        facing_raise,
        4,
        A.check(),
        IllegalActionError,
        "you cannot check facing a bet: call 300 or fold",
    ),
    (
        facing_raise,
        4,
        Action(kind=ActionKind.CALL, amount=200),
        IllegalActionError,
        "the call is 300",
    ),
    (
        on_the_flop,
        1,
        A.fold(),
        IllegalActionError,
        "nothing to call: check instead of folding",
    ),
    (
        on_the_flop,
        1,
        A.raise_to(200),
        IllegalActionError,
        "you cannot raise here; nobody has bet yet: bet instead",
    ),
    (on_the_flop, 1, A.call(), IllegalActionError, "there is no bet to call: check instead"),
    (on_the_flop, 1, A.bet(99), IllegalActionError, "the minimum bet is to 100"),
    (on_the_flop, 2, A.check(), NotYourTurnError, "it is not your turn"),
    (after_short_all_in, 1, A.raise_to(2000), IllegalActionError, "you cannot raise now"),
    (
        short_stack_to_act,
        3,
        A.raise_to(140),
        IllegalActionError,
        "the only raise allowed is all-in to 150",
    ),
    (limit_table, 3, A.raise_to(6), IllegalActionError, "in limit the raise is to 4"),
    (limit_table, 3, A.bet(4), IllegalActionError, "you cannot bet here; raise instead"),
    (limit_capped, 2, A.raise_to(10), IllegalActionError, "the betting is capped: call or fold"),
]


@pytest.mark.parametrize(
    ("make", "seat", "action", "error", "message"),
    CASES,
    ids=[f"{c[0].__name__}-{c[4][:30]}" for c in CASES],
)
def test_illegal_action_is_refused_with_a_readable_message_and_changes_nothing(
    make: Callable[[], Table],
    seat: int,
    action: Action,
    error: type[RuleError],
    message: str,
) -> None:
    table = make()
    hand = table.hand
    assert hand is not None
    before = fingerprint(table)
    with pytest.raises(error, match=f"^{message}$") as caught:
        table.act(seat, action)
    assert type(caught.value) is error
    assert caught.value.code == error.code
    assert str(caught.value) == caught.value.message
    assert fingerprint(table) == before
    # The other two of the triple agree and change nothing either.
    assert not hand.can(seat, action)
    with pytest.raises(error, match=f"^{message}$"):
        hand.verify(seat, action)
    assert fingerprint(table) == before


def test_error_codes_are_stable_for_clients() -> None:
    assert (
        RuleError.code,
        IllegalActionError.code,
        NotYourTurnError.code,
        HandOverError.code,
    ) == ("rule", "illegal_action", "not_your_turn", "hand_over")
    assert issubclass(NotYourTurnError, IllegalActionError)
    assert issubclass(HandOverError, IllegalActionError)


def test_acting_after_the_hand_is_over() -> None:
    table = facing_raise()
    play(table, (4, A.fold()), (1, A.fold()), (2, A.fold()))
    hand = table.hand
    assert hand is not None
    assert hand.is_over
    before = fingerprint(table)
    with pytest.raises(HandOverError, match=r"^the hand is over$"):
        hand.act(3, A.check())
    with pytest.raises(IllegalActionError, match=r"^no hand is in progress$"):
        table.act(3, A.check())
    with pytest.raises(IllegalActionError, match=r"^nobody is to act$"):
        table.default_action()
    assert fingerprint(table) == before


def test_acting_before_any_hand() -> None:
    table = seated_table(nl(), {1: 200, 2: 200})
    before = fingerprint(table)
    with pytest.raises(IllegalActionError, match=r"^no hand is in progress$"):
        table.act(1, A.check())
    assert fingerprint(table) == before


def test_a_legal_limit_raise_may_leave_out_the_amount() -> None:
    table = limit_table()
    assert table.hand is not None
    assert table.hand.can(3, Action(kind=ActionKind.RAISE))
    table.act(3, Action(kind=ActionKind.RAISE))
    assert table.hand.bets[3] == 4
