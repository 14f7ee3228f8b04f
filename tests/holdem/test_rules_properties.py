"""Properties over random legal play: 2-10 seats, Limit and No-Limit, deep and short stacks.

Chips are conserved at every step, no stack goes negative, every pot is awarded,
every offered action is accepted (and nothing else is), the public events add up to
the final stacks, and no view ever holds another seat's hidden cards.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from holdem_testlib import (
    HOLDEM_SETTINGS,
    assert_no_leaks,
    event_ledger,
    offered_actions,
    random_action,
    unoffered_actions,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from holdem.actions import Action, ActionKind, EventKind
from holdem.cards import Deck
from holdem.config import TableConfig, Variant
from holdem.errors import HandOverError
from holdem.hand import Hand
from holdem.table import Table


@dataclass(frozen=True)
class Setup:
    config: TableConfig
    stacks: dict[int, int]
    button: int
    deck_seed: int


@st.composite
def configs(draw: st.DrawFn, min_seats: int = 2) -> TableConfig:
    variant = draw(st.sampled_from(list(Variant)))
    seats = draw(st.integers(min_seats, 10))
    small_blind = draw(st.sampled_from([1, 1, 2, 5, 25]))
    big_blind = draw(st.sampled_from([small_blind, 2 * small_blind, 2 * small_blind, 3]))
    big_blind = max(big_blind, small_blind)
    ante = draw(st.sampled_from([0, 0, 0, 1, big_blind // 2, big_blind]))
    extra: dict[str, object] = {"min_buy_in": big_blind, "max_buy_in": 200 * big_blind}
    if variant is Variant.LIMIT:
        extra["raise_cap"] = draw(st.sampled_from([4, 4, None, 1, 3, 5]))
    return TableConfig(
        variant=variant,
        seats=seats,
        small_blind=small_blind,
        big_blind=big_blind,
        ante=ante,
        **extra,
    )


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    config = draw(configs())
    count = draw(st.integers(2, config.seats))
    seats = draw(st.permutations(range(1, config.seats + 1)))[:count]
    bb = config.big_blind
    profile = draw(st.sampled_from(["deep", "short", "mixed"]))
    deep = st.integers(50 * bb, 300 * bb)
    short = st.integers(1, 4 * bb)  # including stacks smaller than the big blind
    stack = {"deep": deep, "short": short, "mixed": st.one_of(deep, short)}[profile]
    stacks = {seat: draw(stack) for seat in seats}
    return Setup(config, stacks, draw(st.sampled_from(seats)), draw(st.integers(0, 2**32)))


def _snapshot(hand: Hand) -> tuple[object, ...]:
    return (
        hand.stacks,
        hand.bets,
        len(hand.events),
        tuple(hand.board),
        hand.actor,
        hand.legal_actions(),
    )


@given(setup=setups(), rng=st.randoms(use_true_random=False))
@settings(HOLDEM_SETTINGS, max_examples=250)
def test_random_hands_conserve_chips_and_accept_exactly_the_offered_actions(
    setup: Setup, rng: random.Random
) -> None:
    hand = Hand(setup.config, setup.stacks, setup.button, Deck(seed=setup.deck_seed))
    total = sum(setup.stacks.values())
    steps = 0
    while True:
        assert sum(hand.stacks.values()) + hand.total_pot == total
        assert min(hand.stacks.values()) >= 0
        legal = hand.legal_actions()
        if hand.is_over:
            assert legal is None
            break
        assert legal is not None
        actor = hand.actor
        assert actor == legal.seat
        assert hand.in_hand(actor)
        assert not hand.is_all_in(actor)
        assert legal.stack == hand.stacks[actor] > 0
        assert legal.committed == hand.bets[actor]
        assert legal.call_amount <= legal.stack
        if legal.raise_kind is not None:
            assert legal.min_to is not None
            assert legal.max_to is not None
            assert legal.committed < legal.min_to <= legal.max_to <= legal.committed + legal.stack
            if setup.config.is_limit:
                assert legal.min_to == legal.max_to
            else:
                assert legal.max_to == legal.committed + legal.stack
            if (
                legal.raise_kind is ActionKind.BET
                and legal.min_to < setup.config.big_blind
                and not setup.config.is_limit
            ):
                assert legal.min_to == legal.max_to  # below the big blind only all-in
        before = _snapshot(hand)
        for action in offered_actions(legal):
            assert hand.can(actor, action), f"{action} offered by {legal} but refused"
        for action in unoffered_actions(legal):
            assert not hand.can(actor, action), f"{action} not offered by {legal} but accepted"
        for other in hand.seats:
            if other != actor:
                assert not hand.can(other, Action.fold())
        assert _snapshot(hand) == before
        hand.act(actor, random_action(legal, rng))
        steps += 1
        assert steps < 500
    # Every pot awarded: the chips are all back in stacks.
    assert sum(hand.stacks.values()) == total
    assert hand.total_pot == 0
    assert hand.result is not None
    assert hand.result.final_stacks == hand.stacks
    assert sum(hand.result.net.values()) == 0
    assert event_ledger(hand) == hand.stacks
    wins = sum(e.amount or 0 for e in hand.events if e.kind is EventKind.WIN)
    assert wins == sum(hand.result.winnings.values()) > 0
    folds = sum(e.kind is EventKind.FOLD for e in hand.events)
    if len(hand.seats) - folds > 1:  # a showdown: the board was dealt out
        assert len(hand.board) == 5
        assert any(e.kind is EventKind.SHOW for e in hand.events)
    with pytest.raises(HandOverError):
        hand.act(hand.seats[0], Action.check())


@st.composite
def table_plans(draw: st.DrawFn) -> tuple[TableConfig, dict[int, int], int]:
    config = draw(configs())
    count = draw(st.integers(2, config.seats))
    seats = draw(st.permutations(range(1, config.seats + 1)))[:count]
    low, high = config.min_buy_in, config.max_buy_in
    buy_in = st.one_of(st.integers(low, low + 3 * config.big_blind), st.integers(low, high))
    return config, {seat: draw(buy_in) for seat in seats}, draw(st.integers(0, 2**32))


def _between_hands(table: Table, rng: random.Random, bought: list[int]) -> None:
    """Random seat business between hands: rebuys, sitting out and back, leaving, joining."""
    cfg = table.config
    for seat in list(table.seats.values()):
        roll = rng.random()
        if seat.stack < cfg.big_blind and roll < 0.7:
            amount = rng.randint(cfg.min_buy_in, cfg.max_buy_in) - seat.stack
            table.rebuy(seat.player_id, amount)
            bought.append(amount)
            table.sit_back(seat.player_id)
        elif seat.sitting_out and roll < 0.5 and seat.stack >= cfg.big_blind:
            table.sit_back(seat.player_id)
        elif not seat.sitting_out and roll < 0.08:
            table.sit_out(seat.player_id)
        elif roll < 0.12:
            table.stand(seat.player_id)
        elif 0 < seat.stack < cfg.max_buy_in and roll < 0.2:
            amount = rng.randint(1, cfg.max_buy_in - seat.stack)
            table.rebuy(seat.player_id, amount)
            bought.append(amount)
    empty = table.empty_seats()
    if empty and rng.random() < 0.3:
        amount = rng.randint(cfg.min_buy_in, cfg.max_buy_in)
        number = rng.choice(empty)
        table.sit(number, f"new{table.hand_no}-{number}", "Newcomer", amount)
        bought.append(amount)


@given(plan=table_plans(), rng=st.randoms(use_true_random=False))
@settings(HOLDEM_SETTINGS, max_examples=100)
def test_table_sessions_keep_every_chip_and_every_secret(
    plan: tuple[TableConfig, dict[int, int], int], rng: random.Random
) -> None:
    config, buy_ins, seed = plan
    table = Table("prop", config, seed=seed)
    for number, amount in buy_ins.items():
        table.sit(number, f"p{number}", f"Player {number}", amount)
    bought = list(buy_ins.values())

    def chips_balance() -> int:
        return table.chips_in_play() + sum(c.amount for c in table.cashouts)

    for _ in range(4):
        if not table.can_start_hand():
            _between_hands(table, rng, bought)
            if not table.can_start_hand():
                break
        hand = table.start_hand()
        if not hand.is_over:  # (a hand may end on the antes and blinds alone)
            assert all(table.seats[s].stack == 0 for s in hand.seats)
        assert_no_leaks(table)
        while not hand.is_over:
            assert chips_balance() == sum(bought)
            legal = hand.legal_actions()
            assert legal is not None
            if rng.random() < 0.03:  # someone stands up or sits out mid-hand
                seat = table.seats[rng.choice(hand.seats)]
                if rng.random() < 0.5:
                    table.stand(seat.player_id)
                elif not seat.sitting_out and not seat.wants_to_sit_out:
                    table.sit_out(seat.player_id)
                continue
            table.act(legal.seat, random_action(legal, rng))
            assert_no_leaks(table)
        assert chips_balance() == sum(bought)
        assert all(s.stack >= 0 for s in table.seats.values())
        for seat in table.seats.values():
            assert seat.sitting_out or seat.stack >= config.big_blind  # short seats sit out
        _between_hands(table, rng, bought)
        assert chips_balance() == sum(bought)
