"""Focused rules of ai.sim.SimState, each checked against holdem.Hand as well.

Every scenario runs through `Both`, which plays the same cards and actions through
the simulator and the rules core and asserts they agree after every action; the
tests then state the expected numbers explicitly.
"""

from __future__ import annotations

import random

import pytest

from ai.sim.rules import BET, CALL, CHECK, FOLD, RAISE, SimAction, SimLegal
from ai.sim.state import SimState, to_indices
from holdem.actions import Action, ActionKind
from holdem.cards import FULL_DECK, ScriptedDeck
from holdem.config import TableConfig, Variant
from holdem.errors import HandOverError, IllegalActionError
from holdem.hand import Hand

NL, FL = Variant.NO_LIMIT, Variant.LIMIT
ROYAL = ("As", "Ks", "Qs", "Js", "Ts")  # everyone plays the board


class Both:
    """A Hand and a SimState with the same table, cards and actions."""

    def __init__(
        self,
        stacks: dict[int, int],
        button: int,
        *,
        variant: Variant = NL,
        blinds: tuple[int, int] = (1, 2),
        ante: int = 0,
        cap: int | None = 4,
        seats: int = 10,
        holes: dict[int, tuple[str, str]] | None = None,
        board: tuple[str, ...] = ("2c", "7d", "9h", "Jc", "Kd"),
    ) -> None:
        small, big = blinds
        self.config = TableConfig(
            variant=variant,
            seats=seats,
            small_blind=small,
            big_blind=big,
            ante=ante,
            raise_cap=cap,
            min_buy_in=big,
        )
        holes = dict(holes or {})
        taken = {*board, *(c for cards in holes.values() for c in cards)}
        spare = [c for c in FULL_DECK if c not in taken]
        for seat in stacks:
            holes.setdefault(seat, (spare.pop(), spare.pop()))
        self.sim = SimState.new_hand(self.config, stacks, button, holes, board)
        order = self.sim.seats
        script = [holes[s][0] for s in order] + [holes[s][1] for s in order]
        script += [spare.pop(), *board[:3], spare.pop(), board[3], spare.pop(), board[4]]
        self.hand = Hand(self.config, stacks, button, ScriptedDeck(script))
        self.check()

    def check(self) -> None:
        legal = self.sim.legal_actions()
        assert (legal.to_legal_actions() if legal else None) == self.hand.legal_actions()
        assert self.sim.final_stacks() == self.hand.stacks

    @property
    def legal(self) -> SimLegal:
        legal = self.sim.legal_actions()
        assert legal is not None
        return legal

    def act(self, seat: int, action: Action) -> None:
        assert self.sim.actor == seat
        self.hand.act(seat, action)
        self.sim.apply(action)
        self.check()

    def acts(self, *moves: tuple[int, Action]) -> None:
        for seat, action in moves:
            self.act(seat, action)


def fold() -> Action:
    return Action.fold()


def call() -> Action:
    return Action.call()


def check() -> Action:
    return Action.check()


def to(amount: int) -> Action:
    return Action.raise_to(amount)


def bet(amount: int) -> Action:
    return Action.bet(amount)


def test_docstring_example_and_payoffs() -> None:
    cfg = TableConfig(variant=NL, seats=6, small_blind=1, big_blind=2)
    s = SimState.new_hand(cfg, {1: 200, 3: 200, 5: 200}, button=5, seed=1)
    assert (s.actor, s.street, s.pot, s.to_call()) == (5, 0, 3, 2)
    s.apply(SimAction(RAISE, 6))
    s.apply(SimAction(FOLD))
    s.apply(SimAction(FOLD))
    assert s.is_terminal() and s.actor is None and s.legal_actions() is None
    assert s.final_stacks() == {1: 199, 3: 198, 5: 203}
    assert s.payoffs() == [-1, -2, 3]


def test_heads_up_button_posts_small_blind_acts_first_preflop_last_after() -> None:
    b = Both({2: 100, 7: 100}, button=7)
    assert b.hand.bets == {2: 2, 7: 1}
    assert b.legal.seat == 7 and b.legal.call_amount == 1
    b.act(7, call())
    assert b.legal.seat == 2 and b.legal.can_check and b.legal.raise_kind == RAISE
    b.act(2, check())
    assert b.sim.street == 1 and b.legal.seat == 2 and b.legal.raise_kind == BET
    assert b.sim.board == tuple(to_indices(("2c", "7d", "9h")))


def test_first_to_act_left_of_big_blind_then_left_of_button() -> None:
    b = Both({1: 100, 3: 100, 5: 100, 8: 100}, button=3)  # 5 SB, 8 BB, 1 first
    assert b.legal.seat == 1
    b.acts((1, call()), (3, fold()), (5, call()), (8, check()))
    assert b.legal.seat == 5  # first active seat left of the button


def test_no_limit_minimum_raise_is_largest_increment() -> None:
    b = Both({1: 500, 2: 500, 3: 500, 4: 500}, button=4)
    assert (b.legal.min_to, b.legal.max_to) == (4, 500)  # min raise = one big blind
    b.act(3, to(10))  # increment 8
    assert b.legal.min_to == 18
    b.act(4, to(30))  # increment 20
    assert b.legal.min_to == 50
    b.acts((1, fold()), (2, fold()), (3, call()))
    assert (b.legal.raise_kind, b.legal.min_to) == (BET, 2)  # postflop: min bet = big blind


def test_short_all_in_does_not_reopen_betting_for_who_already_acted() -> None:
    b = Both({1: 500, 2: 500, 3: 15, 4: 500, 5: 500}, button=5, blinds=(1, 2))
    b.acts((3, call()), (4, call()), (5, call()), (1, call()), (2, check()))
    # Flop: seat 1 bets 10, seat 2 calls, seat 3 all-in to 13 (a raise of 3 < 10).
    b.acts((1, bet(10)), (2, call()), (3, to(13)))
    assert b.legal.seat == 4 and (b.legal.min_to, b.legal.max_to) == (23, 498)  # not acted yet
    b.act(4, call())
    assert b.legal.seat == 5 and b.legal.raise_kind == RAISE
    b.act(5, call())
    assert b.legal.seat == 1 and b.legal.raise_kind is None and b.legal.call_amount == 3
    b.act(1, call())
    assert b.legal.seat == 2 and b.legal.raise_kind is None


def test_short_all_ins_adding_up_to_a_full_raise_reopen_betting() -> None:
    b = Both({1: 500, 2: 500, 3: 17, 4: 24, 5: 500}, button=5)
    b.acts((3, call()), (4, call()), (5, call()), (1, call()), (2, check()))
    b.acts((1, bet(10)), (2, call()), (3, to(15)), (4, to(22)))  # +5, +7: together > 10
    b.act(5, call())
    assert b.legal.seat == 1 and (b.legal.raise_kind, b.legal.min_to) == (RAISE, 32)


def test_limit_sizes_and_cap_counting_the_big_blind() -> None:
    b = Both({1: 500, 2: 500, 3: 500}, button=3, variant=FL, blinds=(1, 2), cap=4)
    assert (b.legal.min_to, b.legal.max_to) == (4, 4)
    b.acts((3, to(4)), (1, to(6)), (2, to(8)))  # blind + 3 raises = 4 bets
    assert b.legal.raise_kind is None and b.legal.call_amount == 4
    b.acts((3, call()), (1, call()))
    flop = b.legal
    assert (flop.raise_kind, flop.min_to) == (BET, 2)  # flop: small bet
    b.acts((1, bet(2)), (2, call()), (3, call()))
    assert b.legal.min_to == 4  # turn: big bet
    b.sim.apply(SimAction(BET))  # Limit: amount 0 means the fixed size
    b.hand.act(1, bet(4))
    b.check()


def test_limit_uncapped() -> None:
    b = Both({1: 100, 2: 100}, button=1, variant=FL, cap=None)
    for raise_to in range(4, 40, 2):
        b.act(b.legal.seat, to(raise_to))
    assert b.legal.raise_kind == RAISE


def test_limit_short_all_in_raise_counts_toward_cap_and_does_not_reopen() -> None:
    b = Both({1: 100, 2: 100, 3: 7, 4: 100}, button=4, variant=FL, cap=3)
    b.acts((3, call()), (4, call()), (1, call()), (2, check()))
    b.acts((1, bet(2)), (2, to(4)), (3, to(5)))  # seat 3 all-in for 1 more than 4
    assert b.legal.seat == 4 and b.legal.raise_kind is None  # bet, raise, short raise: capped
    uncapped = Both({1: 100, 2: 100, 3: 7, 4: 100}, button=4, variant=FL, cap=None)
    uncapped.acts((3, call()), (4, call()), (1, call()), (2, check()))
    uncapped.acts((1, bet(2)), (2, to(4)), (3, to(5)))
    assert uncapped.legal.min_to == 7  # a full small bet on top of the all-in
    uncapped.acts((4, call()), (1, call()))  # seat 1 had not acted since seat 2's raise
    assert uncapped.legal.seat == 2 and uncapped.legal.raise_kind is None  # seat 2 had


def test_stack_below_the_big_blind_posts_all_in_and_the_small_blind_sets_the_call() -> None:
    b = Both({1: 100, 2: 4, 3: 100}, button=3, blinds=(5, 10))
    assert b.hand.bets == {1: 5, 2: 4, 3: 0} and b.hand.stacks[2] == 0
    assert (b.legal.seat, b.legal.call_amount, b.legal.min_to) == (3, 5, 15)
    b.acts((3, call()), (1, check()))
    assert b.sim.street == 1


def test_big_blind_all_in_below_small_blind_heads_up_needs_no_action() -> None:
    b = Both({1: 100, 2: 3}, button=1, blinds=(5, 10), holes={1: ("3h", "4d"), 2: ("Ah", "Ad")})
    assert b.sim.is_terminal()
    assert b.sim.final_stacks() == {1: 97, 2: 6}  # the small blind's extra 2 came back


def test_everyone_else_all_in_leaves_only_call_or_fold() -> None:
    b = Both({1: 100, 2: 50, 3: 30}, button=3, holes={1: ("2h", "3h")})
    b.acts((3, to(30)), (1, call()), (2, to(50)))
    assert b.legal.seat == 1 and b.legal.raise_kind is None and b.legal.call_amount == 20
    b.act(1, call())
    assert b.sim.is_terminal() and b.sim.board == b.sim.runout


def test_antes_are_trimmed_like_bets() -> None:
    b = Both({1: 100, 2: 5}, button=1, ante=10, holes={1: ("3h", "4d"), 2: ("Ah", "Ad")})
    assert b.sim.is_terminal()  # seat 2 is all-in by the ante; seat 1 antes only 5
    assert b.sim.final_stacks() == {1: 95, 2: 10}


def test_heads_up_equal_blinds_let_the_big_blind_act_first() -> None:
    # pokerkit's opener is left of the highest blind, ties to the later seat.
    b = Both({1: 100, 2: 100}, button=1, blinds=(2, 2))
    assert b.legal.seat == 2 and b.legal.can_check


def test_uncalled_bet_returned() -> None:
    b = Both({1: 100, 2: 100, 3: 40}, button=3)
    b.acts((3, to(40)), (1, to(100)), (2, fold()))  # seat 3 is all-in: nobody left to act
    assert b.sim.is_terminal()
    assert sum(b.sim.final_stacks().values()) == 240
    assert b.sim.final_stacks()[1] >= 60  # 60 of seat 1's 100 were never called


def test_split_pot_odd_chip_to_first_winner_left_of_button() -> None:
    b = Both({1: 100, 2: 100, 3: 100}, button=3, board=ROYAL)
    b.acts((3, call()), (1, fold()), (2, check()))
    for _ in range(3):
        b.acts((2, check()), (3, check()))
    assert b.sim.final_stacks() == {1: 99, 2: 101, 3: 100}  # pot 5: 3 to seat 2, 2 to 3


def test_three_way_split_gives_all_odd_chips_to_the_first_winner() -> None:
    b = Both({1: 100, 2: 100, 3: 100, 4: 100}, button=4, ante=1, board=ROYAL)
    b.acts((3, call()), (4, call()), (1, fold()), (2, check()))
    for _ in range(3):
        b.acts((2, check()), (3, check()), (4, check()))
    # Pot 4 antes + 1 + 3 x 2 = 11: 3 each, and both odd chips to seat 2.
    assert b.sim.final_stacks() == {1: 98, 2: 102, 3: 100, 4: 100}


def test_side_pots_per_all_in_level() -> None:
    holes = {1: ("Ah", "Ad"), 2: ("Kh", "Kd"), 3: ("Qh", "Qd"), 4: ("2s", "3d")}
    board = ("4c", "7d", "9h", "Jc", "8s")
    b = Both({1: 10, 2: 30, 3: 60, 4: 100}, button=4, holes=holes, board=board)
    b.acts((3, to(60)), (4, call()), (1, call()), (2, call()))
    assert b.sim.is_terminal()
    # Main pot 4 x 10 to seat 1, side pots 3 x 20 to seat 2 and 2 x 30 to seat 3.
    assert b.sim.final_stacks() == {1: 40, 2: 60, 3: 60, 4: 40}


def test_hand_that_cannot_win_is_killed_so_side_pots_merge() -> None:
    # Seats 4 and 5 tie; seat 2 (all-in for 3) loses. Pots 13 and 11 become one
    # pot of 24 once seat 2's hand is killed: 12 each, not 13 and 11.
    holes = {1: ("7c", "8c"), 2: ("5s", "6s"), 3: ("9h", "9d"), 4: ("Tc", "3d"), 5: ("Td", "4c")}
    stacks = {1: 100, 2: 3, 3: 100, 4: 100, 5: 100}
    b = Both(stacks, button=5, holes=holes, board=("Ah", "Kd", "Qc", "Js", "2h"))
    b.acts((3, to(4)), (4, to(8)), (5, call()), (1, fold()), (2, call()), (3, fold()))
    for _ in range(3):
        b.acts((4, check()), (5, check()))
    assert b.sim.final_stacks() == {1: 99, 2: 0, 3: 96, 4: 104, 5: 104}


def test_illegal_actions_raise_and_change_nothing() -> None:
    b = Both({1: 100, 2: 100, 3: 100}, button=3)
    before = b.sim.clone()
    for action in (
        SimAction(CHECK),
        SimAction(BET, 10),
        SimAction(RAISE, 3),
        SimAction(RAISE, 101),
        SimAction(9),
    ):
        with pytest.raises(IllegalActionError):
            b.sim.apply(action)
    assert b.sim.legal_actions() == before.legal_actions()
    b.acts((3, call()), (1, call()))
    with pytest.raises(IllegalActionError):
        b.sim.apply(SimAction(FOLD))  # nothing to call
    with pytest.raises(IllegalActionError):
        b.sim.apply(SimAction(CALL))
    b.acts((2, check()))
    with pytest.raises(IllegalActionError):
        b.sim.apply(SimAction(RAISE, 4))  # nobody bet: it is a bet
    limit = Both({1: 100, 2: 100}, button=1, variant=FL)
    with pytest.raises(IllegalActionError):
        limit.sim.apply(SimAction(RAISE, 5))
    while not limit.sim.is_terminal():
        limit.act(limit.legal.seat, fold() if limit.legal.can_fold else check())
    with pytest.raises(HandOverError):
        limit.sim.apply(SimAction(CHECK))


def test_clone_is_independent() -> None:
    b = Both({1: 100, 2: 100, 3: 100}, button=3)
    copy = b.sim.clone()
    b.act(3, to(10))
    assert copy.actor == 3 and copy.to_call() == 2 and copy.pot == 3
    copy.apply(SimAction(FOLD))
    assert b.sim.actor == 1 and b.sim.pot == 13


def test_random_playouts_from_clones_are_zero_sum() -> None:
    cfg = TableConfig(variant=NL, seats=9, small_blind=5, big_blind=10, ante=1)
    rng = random.Random(3)
    root = SimState.new_hand(cfg, {s: rng.randint(1, 3000) for s in range(1, 10)}, 4, rng=rng)
    for _ in range(200):
        state = root.clone()
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal is not None
            kind = rng.choice(legal.kinds)
            state.step(kind, rng.randint(legal.min_to, legal.max_to) if kind >= BET else 0)
        assert sum(state.payoffs()) == 0 and min(state.final_stacks().values()) >= 0
    assert not root.is_terminal()


def test_resample_hidden_keeps_what_the_viewer_sees() -> None:
    b = Both({1: 100, 2: 100, 3: 100}, button=3)
    b.acts((3, call()), (1, call()), (2, check()))
    sim = b.sim
    viewer = sim.index_of(2)
    mine, board = sim.holes[viewer], sim.board
    sim.resample_hidden(random.Random(5), viewer)
    assert sim.holes[viewer] == mine and sim.board == board
    cards = [c for h in sim.holes for c in h] + list(sim.runout)
    assert len(set(cards)) == len(cards) == 11


def test_set_cards_changes_only_hidden_cards() -> None:
    b = Both({1: 100, 2: 100}, button=1)
    b.acts((1, call()), (2, check()))
    runout = list(b.sim.runout)
    used = {*runout, *(c for h in b.sim.holes for c in h)}
    turn, river = [c for c in range(52) if c not in used][:2]
    b.sim.set_cards(runout=[turn, river])
    assert list(b.sim.runout) == [*runout[:3], turn, river]
    with pytest.raises(ValueError, match="visible"):
        b.sim.set_cards(runout=[0, 1, 2, 3, 4])
    with pytest.raises(ValueError, match="distinct"):
        b.sim.set_cards(runout=[turn, runout[0]])
    assert list(b.sim.runout) == [*runout[:3], turn, river]


def test_new_hand_deals_distinct_cards_and_respects_given_ones() -> None:
    cfg = TableConfig(variant=NL, seats=10, small_blind=1, big_blind=2)
    stacks = dict.fromkeys(range(1, 11), 100)
    s = SimState.new_hand(cfg, stacks, 1, {4: ("Ah", "Kh")}, ("2c", "3c"), seed=9)
    assert s.holes[s.index_of(4)] == tuple(to_indices(("Ah", "Kh")))
    assert s.runout[:2] == tuple(to_indices(("2c", "3c")))
    cards = [c for h in s.holes for c in h] + list(s.runout)
    assert len(set(cards)) == 25
    with pytest.raises(ValueError, match="twice"):
        SimState.new_hand(cfg, stacks, 1, {4: ("Ah", "Kh")}, ("Ah",))
    with pytest.raises(ValueError, match="chips"):
        SimState.new_hand(cfg, {1: 0, 2: 5}, 1)


def test_conversions_to_and_from_holdem() -> None:
    assert SimAction.from_action(Action.raise_to(60)) == SimAction(RAISE, 60)
    assert SimAction(CALL).to_action() == Action.call()
    assert SimAction(BET, 8).to_action() == Action.bet(8)
    b = Both({1: 100, 2: 100, 3: 100}, button=3)
    legal = b.legal.to_legal_actions()
    assert legal.kinds == (ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE)
    assert b.legal.kinds == (FOLD, CALL, RAISE)
