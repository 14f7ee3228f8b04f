"""The spectator view's seats are built once per distinct content and shared (views.py).

Checked against the same views built without the cache, over seeded hands at two
tables played in turn (so the shared cache serves both), and for hidden cards.
"""

from __future__ import annotations

import random

import pytest

from holdem import views
from holdem.actions import Action
from holdem.config import TableConfig, Variant
from holdem.table import Table
from holdem.views import observe


def _table(name: str, seed: int) -> Table:
    config = TableConfig(variant=Variant.NO_LIMIT, seats=6, small_blind=5, big_blind=10)
    table = Table(name, config, seed=seed)
    for number in range(1, 6):
        table.sit(number, f"{name}-p{number}", f"P{number}", 400)
    return table


def _random_action(table: Table, rng: random.Random) -> tuple[int, Action]:
    hand = table.hand
    assert hand is not None
    legal = hand.legal_actions()
    assert legal is not None
    choices = [Action.check() if legal.can_check else Action.call()]
    if legal.can_fold:
        choices.append(Action.fold())
    if legal.raise_kind is not None and legal.min_to is not None and legal.max_to is not None:
        amount = rng.choice([legal.min_to, legal.max_to])
        choices.append(Action(kind=legal.raise_kind, amount=amount))
    return legal.seat, rng.choice(choices)


def test_views_equal_the_uncached_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(37)
    tables = [_table("a", 1), _table("b", 2)]
    uncached = views._seat_view.__wrapped__
    checked = 0
    for round_no in range(40):  # hands per table
        for i, table in enumerate(tables):
            if not table.can_start_hand():  # too many busted: a fresh table, same name
                tables[i] = table = _table(table.table_id, 100 + round_no)
            table.start_hand()
        while any(t.hand is not None and not t.hand.is_over for t in tables):
            for table in tables:
                cached = observe(table, None)
                with monkeypatch.context() as patch:
                    patch.setattr(views, "_seat_view", uncached)
                    reference = observe(table, None)
                assert cached.model_dump_json() == reference.model_dump_json()
                checked += 1
                hand = table.hand
                assert hand is not None
                # A spectator sees hole cards only once shown.
                for seat_view in cached.seats:
                    shown = hand.shown.get(seat_view.seat)
                    assert seat_view.hole_cards == shown
                if not hand.is_over:
                    table.act(*_random_action(table, rng))
    assert checked > 200
