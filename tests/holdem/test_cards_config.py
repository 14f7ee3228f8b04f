"""Cards, decks and table settings."""

from __future__ import annotations

from decimal import Decimal

import pytest
from holdem_testlib import deck
from pydantic import ValidationError

from holdem.actions import Action
from holdem.cards import FULL_DECK, CardError, Deck, ScriptedDeck, card_index, parse_cards
from holdem.config import AnteMode, TableConfig, Variant
from holdem.hand import Hand, seats_in_pokerkit_order


def test_parse_cards_accepts_loose_spelling_and_rejects_mistakes() -> None:
    assert parse_cards("ah,KH 2c") == ("Ah", "Kh", "2c")
    assert parse_cards("") == ()
    with pytest.raises(CardError, match="'1h' is not a card"):
        parse_cards("1h")
    with pytest.raises(CardError, match="appears twice"):
        parse_cards("AhAh")
    with pytest.raises(CardError, match="cannot read"):
        parse_cards("Ahk")


def test_card_index_is_rank_major() -> None:
    assert [card_index(c) for c in ("2c", "2d", "3c", "As")] == [0, 1, 4, 51]
    assert sorted(FULL_DECK, key=card_index) == list(FULL_DECK)
    assert len(set(FULL_DECK)) == 52


def test_seeded_decks_repeat_and_differ_by_seed() -> None:
    assert Deck(seed=3).draw(52) == Deck(seed=3).draw(52)
    assert Deck(seed=3).draw(52) != Deck(seed=4).draw(52)
    assert sorted(Deck(seed=3).draw(52)) == sorted(FULL_DECK)
    live = Deck()  # the cryptographic shuffle
    assert len(live) == 52
    with pytest.raises(CardError, match="the deck is empty"):
        Deck(seed=1).draw(53)


def test_scripted_deck_deals_its_cards_first_then_the_rest() -> None:
    scripted = ScriptedDeck(["As", "Kd", "2c"], seed=5)
    assert scripted.draw(3) == ("As", "Kd", "2c")
    rest = scripted.draw(49)
    assert set(rest) == set(FULL_DECK) - {"As", "Kd", "2c"}


def test_hole_cards_go_round_the_table_one_at_a_time_from_left_of_the_button() -> None:
    cards = ScriptedDeck(["Ac", "Kc", "Qc", "Ad", "Kd", "Qd", "2s", "3h", "4h", "5h"])
    hand = Hand(TableConfig(variant=Variant.NO_LIMIT, seats=9, small_blind=1, big_blind=2),
                {2: 100, 5: 100, 8: 100}, 5, cards)  # fmt: skip
    assert hand.seats == (8, 2, 5)
    assert hand.hole_cards == {8: ("Ac", "Ad"), 2: ("Kc", "Kd"), 5: ("Qc", "Qd")}
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None
        hand.act(legal.seat, Action.check() if legal.can_check else Action.call())
    assert hand.board[:3] == ["3h", "4h", "5h"]  # 2s was burnt


def test_the_testlib_deck_matches_the_hands_dealing_order() -> None:
    cards = deck([8, 2, 5], {8: "AcAd", 2: "KcKd", 5: "QcQd"}, "3h4h5h6s7s", burns="2s2d2h")
    assert cards.draw(13) == (
        "Ac", "Kc", "Qc", "Ad", "Kd", "Qd", "2s", "3h", "4h", "5h", "2d", "6s", "2h",
    )  # fmt: skip
    assert cards.draw(1) == ("7s",)


def test_seats_in_pokerkit_order_wraps_round_the_table() -> None:
    assert seats_in_pokerkit_order([1, 4, 7], button=4, table_size=9) == (7, 1, 4)
    assert seats_in_pokerkit_order([1, 4, 7], button=7, table_size=9) == (1, 4, 7)
    assert seats_in_pokerkit_order([10, 1], button=10, table_size=10) == (1, 10)
    with pytest.raises(ValueError, match="the button must be on a seat"):
        seats_in_pokerkit_order([1, 4], button=2, table_size=9)


def test_a_hand_needs_two_players_with_chips() -> None:
    cfg = TableConfig(variant=Variant.NO_LIMIT, seats=6, small_blind=1, big_blind=2)
    with pytest.raises(ValueError, match="at least two players"):
        Hand(cfg, {1: 100}, 1, Deck(seed=0))
    with pytest.raises(ValueError, match="needs chips"):
        Hand(cfg, {1: 100, 2: 0}, 1, Deck(seed=0))


def test_config_defaults() -> None:
    nl = TableConfig(variant=Variant.NO_LIMIT, seats=6, small_blind=50, big_blind=100)
    assert (nl.min_buy_in, nl.max_buy_in, nl.raise_cap, nl.ante) == (4000, 10000, 4, 0)
    assert nl.ante_mode is AnteMode.EVERY_SEAT and not nl.big_blind_ante
    assert not nl.is_limit
    limit = TableConfig(variant=Variant.LIMIT, seats=10, small_blind=1, big_blind=2)
    assert (limit.small_bet, limit.big_bet, limit.min_buy_in, limit.max_buy_in) == (2, 4, 80, 200)
    custom = TableConfig(
        variant=Variant.LIMIT, seats=2, small_blind=5, big_blind=10, small_bet=10, big_bet=30,
        raise_cap=None, chip_unit=Decimal("0.01"),
    )  # fmt: skip
    assert (custom.small_bet, custom.big_bet, custom.raise_cap) == (10, 30, None)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"seats": 1}, "greater than or equal to 2"),
        ({"seats": 11}, "less than or equal to 10"),
        ({"small_blind": 3, "big_blind": 2}, "the small blind cannot exceed the big blind"),
        ({"small_blind": 0}, "greater than or equal to 1"),
        ({"min_buy_in": 1}, "the minimum buy-in must cover at least the big blind"),
        ({"min_buy_in": 300, "max_buy_in": 200}, "cannot exceed the maximum buy-in"),
        ({"raise_cap": 0}, "greater than or equal to 1"),
        ({"variant": "limit", "small_bet": 4, "big_bet": 2}, "the big bet cannot be smaller"),
        ({"unknown": 1}, "Extra inputs are not permitted"),
        ({"ante_mode": "big_blind"}, "a big-blind ante needs an ante amount above 0"),
        ({"ante_mode": "button", "ante": 2}, "'every_seat' or 'big_blind'"),
    ],
)
def test_config_validation(fields: dict[str, object], message: str) -> None:
    base: dict[str, object] = {"variant": "no-limit", "seats": 6, "small_blind": 1, "big_blind": 2}
    with pytest.raises(ValidationError, match=message):
        TableConfig(**{**base, **fields})


def test_config_is_frozen() -> None:
    cfg = TableConfig(variant=Variant.NO_LIMIT, seats=6, small_blind=1, big_blind=2)
    with pytest.raises(ValidationError):
        cfg.seats = 9  # type: ignore[misc]
