"""Showing cards won uncalled: only the winner, only between that hand and the next, once."""

from __future__ import annotations

import pytest

from holdem.actions import Action, EventKind
from holdem.config import TableConfig, Variant
from holdem.errors import SeatError
from holdem.phh import phh_actions, replay_text, to_phh
from holdem.table import Table
from holdem.views import observe, observe_record


def heads_up(seed: int = 1) -> Table:
    table = Table(
        "t", TableConfig(variant=Variant.NO_LIMIT, seats=2, small_blind=5, big_blind=10), seed=seed
    )
    table.sit(1, "a", "A", 1000)
    table.sit(2, "b", "B", 1000)
    return table


def test_the_uncalled_winner_may_show_once_and_it_is_public_from_then_on() -> None:
    table = heads_up()
    hand = table.start_hand()
    folder = hand.actor
    assert folder is not None
    winner = 1 if folder == 2 else 2
    winner_id = table.seats[winner].player_id
    table.act(folder, Action.fold())
    assert observe(table, None).seats[winner - 1].hole_cards is None  # mucked by default
    with pytest.raises(SeatError, match="won uncalled"):
        table.show_uncalled(table.seats[folder].player_id)
    with pytest.raises(SeatError, match="not dealt"):
        table.show_uncalled("nobody")
    event = table.show_uncalled(winner_id)
    cards = hand.hole_cards[winner]
    assert event.kind is EventKind.SHOW and event.seat == winner and event.cards == cards
    public = observe(table, None)
    assert public.seats[winner - 1].hole_cards == cards
    assert public.events[-1] == event and public.last_result is not None
    assert public.last_result.shown == {winner: cards}
    record = table.last_record
    assert record is not None and record.events[-1] == event
    seen = observe_record(record, table.seats[folder].player_id)
    assert seen.seat(winner).hole_cards == cards
    # PHH has no show after the pot was pushed: the export leaves it out and replays.
    assert not any(" sm " in line for line in phh_actions(record))
    assert sum(replay_text(to_phh(record), check_recorded=True)) == 2000
    with pytest.raises(SeatError, match="shown already"):
        table.show_uncalled(winner_id)
    stacks = {n: s.stack for n, s in table.seats.items()}
    table.start_hand()  # the next hand: too late to show the last one
    with pytest.raises(SeatError, match="no finished hand"):
        table.show_uncalled(winner_id)
    assert sum(stacks.values()) == 2000
