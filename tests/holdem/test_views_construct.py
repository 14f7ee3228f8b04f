"""The views are built without pydantic's validation (speed): they must equal the
validated models, field for field and type for type, and serialize the same."""

from __future__ import annotations

import random
import warnings

from holdem_testlib import nl, random_action, seated_table

from holdem.table import Table
from holdem.views import TableView, observe


def assert_as_validated(table: Table) -> None:
    for viewer in (None, *table.seats):
        view = observe(table, viewer)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # pydantic warns when a value has another type
            dumped = view.model_dump()
            text = view.model_dump_json()
        validated = TableView.model_validate(dumped)
        assert view == validated  # == compares every field's value and type (tuple != list)
        assert text == validated.model_dump_json()


def test_views_equal_the_validated_models_through_random_hands() -> None:
    rng = random.Random(37)
    for seats, stacks in ((2, {1: 80, 2: 120}), (6, {1: 80, 2: 200, 3: 90, 4: 100, 6: 150})):
        table = seated_table(nl(seats=seats), stacks, seed=seats)
        assert_as_validated(table)  # before the first hand
        for _ in range(6):
            if not table.can_start_hand():
                break
            hand = table.start_hand()
            assert_as_validated(table)
            while not hand.is_over:
                legal = hand.legal_actions()
                assert legal is not None
                table.act(legal.seat, random_action(legal, rng))
                assert_as_validated(table)
