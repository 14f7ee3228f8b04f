"""The built-in fallback policy: always legal, strong hands raise once a street, hands end."""

from __future__ import annotations

from collections import Counter

import pytest

from backend.fallback_policy import Strength, fallback_action, hand_strength, is_legal
from holdem.actions import ActionKind, Street
from holdem.cards import ScriptedDeck
from holdem.config import TableConfig, Variant
from holdem.table import Table
from holdem.views import observe


def _table(variant: Variant, seats: int, seed: int) -> Table:
    config = TableConfig(
        variant=variant, seats=seats, small_blind=5, big_blind=10, min_buy_in=200, max_buy_in=2000
    )
    table = Table("fallback", config, seed=seed)
    for number in range(1, seats + 1):
        table.sit(number, f"p{number}", f"P{number}", 2000)
    return table


def _play_hand(table: Table, deck: ScriptedDeck | None = None) -> list[tuple[int, Street, str]]:
    """One hand with the fallback policy in every seat; (seat, street, kind) per action."""
    hand = table.start_hand(deck)
    actions: list[tuple[int, Street, str]] = []
    while not hand.is_over:
        assert hand.actor is not None
        legal = hand.legal_actions()
        assert legal is not None
        view = observe(table, hand.actor)
        action = fallback_action(view, legal)
        assert is_legal(legal, action, table.config.variant is Variant.LIMIT)
        assert view.street is not None
        actions.append((hand.actor, view.street, action.kind.value))
        table.act(hand.actor, action)
        assert len(actions) < 200, "a fallback hand that never ends"
    return actions


def test_hand_classes() -> None:
    assert hand_strength(("Ah", "Ad"), ()) is Strength.STRONG
    assert hand_strength(("7h", "8h"), ()) is Strength.MEDIUM
    assert hand_strength(("7h", "2d"), ()) is Strength.WEAK
    assert hand_strength(("7h", "2d"), ("7c", "7s", "Kd")) is Strength.STRONG
    assert hand_strength(("7h", "2d"), ("7c", "9s", "Kd")) is Strength.MEDIUM


def test_two_strong_hands_raise_once_each_not_all_in() -> None:
    # Heads-up No-Limit: the button (seat 1, small blind) holds AA, seat 2 holds KK.
    # Before the fix they min-raised each other until one was all-in (about 200 actions).
    table = _table(Variant.NO_LIMIT, 2, seed=1)
    deck = ScriptedDeck(["Kc", "Ah", "Kd", "As", "2c", "3d", "8h", "9s", "4c", "Jd", "5c", "Qh"])
    actions = _play_hand(table, deck)
    raises = Counter((seat, street) for seat, street, kind in actions if kind in ("bet", "raise"))
    assert raises, "strong hands raise"
    assert max(raises.values()) == 1
    assert all(seat.stack > 0 for seat in table.seats.values())


@pytest.mark.parametrize("variant", [Variant.NO_LIMIT, Variant.LIMIT])
def test_many_hands_stay_legal_and_short(variant: Variant) -> None:
    table = _table(variant, 6, seed=7)
    for _ in range(200):
        actions = _play_hand(table)
        per_street = Counter((seat, street) for seat, street, kind in actions if kind == "raise")
        assert all(count <= 1 for count in per_street.values())
        for seat in table.seats.values():  # keep everyone in chips for the next hand
            if seat.stack < table.config.big_blind:
                table.rebuy(seat.player_id, table.config.max_buy_in)
    assert sum(seat.stack for seat in table.seats.values()) > 0


def test_facing_a_raise_a_raised_strong_hand_calls() -> None:
    table = _table(Variant.NO_LIMIT, 2, seed=3)
    deck = ScriptedDeck(["Kc", "Ah", "Kd", "As"])
    hand = table.start_hand(deck)
    first = hand.actor
    assert first is not None
    legal = hand.legal_actions()
    assert legal is not None
    raise_ = fallback_action(observe(table, first), legal)
    assert raise_.kind is ActionKind.RAISE
    table.act(first, raise_)
    second = hand.actor
    assert second is not None and second != first
    legal = hand.legal_actions()
    assert legal is not None
    reraise = fallback_action(observe(table, second), legal)
    assert reraise.kind is ActionKind.RAISE
    table.act(second, reraise)
    legal = hand.legal_actions()
    assert legal is not None and hand.actor == first
    assert fallback_action(observe(table, first), legal).kind is ActionKind.CALL
