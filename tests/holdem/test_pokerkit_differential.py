"""Differential test: our Hand against pokerkit's own Texas hold'em, driven directly.

The same seats, stacks, blinds, antes, hole cards, burns, board and actions go to
both; at every step the actor and the legal options with their exact amounts must
agree, and the hands must end with identical stacks.

pokerkit's `FixedLimitTexasHoldem` allows four completions/bets/raises on every
street (so five bets preflop, counting the blind). Our cap counts the big blind as
the opening bet: with `raise_cap=c` preflop allows c - 1 raises, later streets c
bets. So for c <= 4 the expected rule is "pokerkit allows it and the street's
count is below our limit"; that is what is checked, with caps 1 to 4.
"""

from __future__ import annotations

import random
import warnings
from dataclasses import dataclass

import pokerkit as pk
import pytest
from holdem_testlib import event_ledger

from holdem.actions import Action, ActionKind, LegalActions, Street
from holdem.cards import FULL_DECK, ScriptedDeck
from holdem.config import AnteMode, TableConfig, Variant
from holdem.hand import Hand

AUTOMATIONS = (
    pk.Automation.ANTE_POSTING,
    pk.Automation.BET_COLLECTION,
    pk.Automation.BLIND_OR_STRADDLE_POSTING,
    pk.Automation.RUNOUT_COUNT_SELECTION,
    pk.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    pk.Automation.HAND_KILLING,
    pk.Automation.CHIPS_PUSHING,
    pk.Automation.CHIPS_PULLING,
)
TABLE_SIZE = 10
HANDS_PER_PROFILE = 100


@dataclass
class Deal:
    config: TableConfig
    order: list[int]  # seats from the first left of the button to the button
    stacks: dict[int, int]
    cards: list[str]  # the whole deck in dealing order


def random_deal(rng: random.Random, variant: Variant, profile: str) -> Deal:
    count = rng.randint(2, 10)
    seats = rng.sample(range(1, TABLE_SIZE + 1), count)
    button = rng.choice(seats)
    # Written out here rather than taken from holdem.hand: clockwise after the button.
    order = sorted(seats, key=lambda s: (s - button - 1) % TABLE_SIZE)
    small_blind = rng.choice([1, 1, 2, 5])
    big_blind = rng.choice([small_blind, 2 * small_blind, 2 * small_blind, 2 * small_blind + 1])
    ante = rng.choice([0, 0, 0, 1, big_blind])
    extra: dict[str, object] = {"min_buy_in": big_blind, "max_buy_in": 500 * big_blind}
    if profile == "bb-ante":  # tournament style: the big blind antes for everyone
        ante = rng.choice([big_blind, big_blind, 1, 3 * big_blind // 2 or 1])
        extra["ante_mode"] = AnteMode.BIG_BLIND
        profile = rng.choice(["deep", "short"])
    if variant is Variant.LIMIT:
        extra["raise_cap"] = rng.choice([1, 2, 3, 4, 4])
    config = TableConfig(
        variant=variant,
        seats=TABLE_SIZE,
        small_blind=small_blind,
        big_blind=big_blind,
        ante=ante,
        **extra,
    )
    if profile == "deep":
        stacks = {s: rng.randint(40 * big_blind, 300 * big_blind) for s in seats}
    else:  # short, including stacks below the big blind and the ante
        stacks = {
            s: rng.choice([rng.randint(1, 3 * big_blind), rng.randint(1, 40 * big_blind)])
            for s in seats
        }
    cards = list(FULL_DECK)
    rng.shuffle(cards)
    return Deal(config, order, stacks, cards)


def pokerkit_state(deal: Deal) -> pk.State:
    cfg = deal.config
    stacks = tuple(deal.stacks[s] for s in deal.order)
    blinds = (cfg.small_blind, cfg.big_blind)
    # pokerkit's documented big-blind ante: {1: ante}, never trimmed.
    bb_ante = cfg.ante_mode is AnteMode.BIG_BLIND
    trim, antes = (False, {1: cfg.ante}) if bb_ante else (True, cfg.ante)
    if cfg.is_limit:
        state = pk.FixedLimitTexasHoldem.create_state(
            AUTOMATIONS, trim, antes, blinds, cfg.small_bet, cfg.big_bet, stacks,
            len(stacks), mode=pk.Mode.CASH_GAME,
        )  # fmt: skip
    else:
        state = pk.NoLimitTexasHoldem.create_state(
            AUTOMATIONS, trim, antes, blinds, cfg.big_blind, stacks, len(stacks),
            mode=pk.Mode.CASH_GAME,
        )  # fmt: skip
    count = len(deal.order)
    for i in range(count):
        state.deal_hole(deal.cards[i] + deal.cards[i + count])
    return state


class PokerkitDealer:
    """Deals pokerkit's board from the same deck position our Hand reached."""

    def __init__(self, deal: Deal) -> None:
        self.cards = iter(deal.cards[2 * len(deal.order) :])

    def advance(self, state: pk.State) -> None:
        while state.status:
            if state.can_burn_card():
                state.burn_card(next(self.cards))
            elif state.can_deal_board():
                street = state.street
                assert street is not None
                state.deal_board(
                    "".join(next(self.cards) for _ in range(street.board_dealing_count))
                )
            else:
                return


def expected_options(state: pk.State, cfg: TableConfig) -> dict[str, object]:
    """The options pokerkit gives the actor, with our cap applied on top (Limit)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # pokerkit only warns about a pointless fold
        can_fold = state.can_fold()
    can_raise = state.can_complete_bet_or_raise_to()
    if cfg.is_limit and cfg.raise_cap is not None:
        preflop = state.street_index == 0
        limit = cfg.raise_cap - 1 if preflop else cfg.raise_cap
        can_raise = can_raise and state.completion_betting_or_raising_count < limit
    index = state.actor_index
    assert index is not None
    return {
        "can_fold": can_fold,
        "call_amount": state.checking_or_calling_amount,
        "can_raise": can_raise,
        "min_to": state.min_completion_betting_or_raising_to_amount if can_raise else None,
        "max_to": state.max_completion_betting_or_raising_to_amount if can_raise else None,
        "stack": state.stacks[index],
        "committed": state.bets[index],
    }


def our_options(legal: LegalActions) -> dict[str, object]:
    return {
        "can_fold": legal.can_fold,
        "call_amount": legal.call_amount,
        "can_raise": legal.raise_kind is not None,
        "min_to": legal.min_to,
        "max_to": legal.max_to,
        "stack": legal.stack,
        "committed": legal.committed,
    }


def choose(legal: LegalActions, rng: random.Random) -> Action:
    kind = rng.choice(legal.kinds)
    if kind in (ActionKind.BET, ActionKind.RAISE):
        assert legal.min_to is not None
        assert legal.max_to is not None
        amount = rng.choice([legal.min_to, legal.max_to, rng.randint(legal.min_to, legal.max_to)])
        return Action(kind=kind, amount=amount)
    return Action(kind=kind)


def apply_to_pokerkit(state: pk.State, action: Action) -> None:
    if action.kind is ActionKind.FOLD:
        state.fold()
    elif action.kind in (ActionKind.CHECK, ActionKind.CALL):
        state.check_or_call()
    else:
        state.complete_bet_or_raise_to(action.amount)


def play_both(deal: Deal, rng: random.Random) -> tuple[Hand, pk.State]:
    button = deal.order[-1]
    hand = Hand(deal.config, deal.stacks, button, ScriptedDeck(deal.cards))
    state = pokerkit_state(deal)
    dealer = PokerkitDealer(deal)
    dealer.advance(state)
    index_of = {seat: i for i, seat in enumerate(deal.order)}
    assert hand.seats == tuple(deal.order)
    for _ in range(1000):
        assert hand.stacks == {s: state.stacks[i] for s, i in index_of.items()}
        assert hand.total_pot == state.total_pot_amount
        assert hand.board == [f"{c.rank}{c.suit}" for c in state.get_board_cards(0)]
        if hand.is_over or not state.status:
            break
        assert state.street_index is not None
        assert (
            hand.street
            is (Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER)[state.street_index]
        )
        legal = hand.legal_actions()
        assert legal is not None
        assert state.actor_index is not None
        assert index_of[legal.seat] == state.actor_index
        assert our_options(legal) == expected_options(state, deal.config)
        action = choose(legal, rng)
        hand.act(legal.seat, action)
        apply_to_pokerkit(state, action)
        dealer.advance(state)
    assert hand.is_over
    assert not state.status
    return hand, state


@pytest.mark.parametrize("profile", ["deep", "short", "bb-ante"])
@pytest.mark.parametrize("variant", list(Variant))
def test_random_hands_match_pokerkit_step_by_step(variant: Variant, profile: str) -> None:
    for number in range(HANDS_PER_PROFILE):
        seed = f"{variant.value}-{profile}-{number}"
        rng = random.Random(seed)
        deal = random_deal(rng, variant, profile)
        try:
            hand, state = play_both(deal, rng)
            final = {s: state.stacks[i] for i, s in enumerate(deal.order)}
            assert hand.stacks == final
            assert sum(final.values()) == sum(deal.stacks.values())
            assert event_ledger(hand) == final
            shown = {
                deal.order[op.player_index]
                for op in state.operations
                if isinstance(op, pk.HoleCardsShowingOrMucking) and op.hole_cards
            }
            assert set(hand.shown) == shown
        except AssertionError as error:
            raise AssertionError(f"hand {seed!r} ({deal}) differs from pokerkit: {error}") from None


def test_fixed_limit_cap_of_four_sits_one_raise_below_pokerkits_preflop() -> None:
    """The correspondence the differential relies on, pinned on one deal."""
    cards = list(FULL_DECK)
    deal = Deal(
        TableConfig(variant=Variant.LIMIT, seats=TABLE_SIZE, small_blind=1, big_blind=2),
        [1, 2, 3, 4],
        dict.fromkeys((1, 2, 3, 4), 100),
        cards,
    )
    hand = Hand(deal.config, deal.stacks, 4, ScriptedDeck(cards))
    state = pokerkit_state(deal)
    for seat, to in ((3, 4), (4, 6), (1, 8)):
        hand.act(seat, Action.raise_to(to))
        state.complete_bet_or_raise_to(to)
    legal = hand.legal_actions()
    assert legal is not None
    assert legal.raise_kind is None  # BB + 3 raises: capped
    assert state.can_complete_bet_or_raise_to()  # pokerkit would allow a fourth raise
    assert state.min_completion_betting_or_raising_to_amount == 10
