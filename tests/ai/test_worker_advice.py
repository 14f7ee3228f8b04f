"""The advice's reads on opponents: the note under each read is worded for its count."""

from __future__ import annotations

from test_worker_decider import seated_table

from ai.bots.from_view import observation_from_view
from ai.bots.simple import CallingStationBot
from ai.models.model import OpponentModel
from ai.models.stats import StatsBook
from ai.worker.advice import opponent_reads
from holdem.config import Variant
from holdem.views import observe


def test_the_read_says_1_hand_seen_and_2_hands_seen() -> None:
    table = seated_table(Variant.NO_LIMIT, 4, seed=3)
    table.start_hand()
    hand = table.hand
    assert hand is not None and hand.actor is not None
    obs = observation_from_view(observe(table, hand.actor))
    book = StatsBook()
    seen = {}
    for count, index in enumerate(obs.opponents):
        seen[obs.seats[index]] = count  # 0, 1 and 2 hands: the singular and both plurals
        book.get(obs.player_id(index)).hands = count
    reads = opponent_reads(obs, CallingStationBot(), OpponentModel(book=book))
    notes = {read.seat: read.note for read in reads}
    assert set(notes) == set(seen)
    for seat, count in seen.items():
        want = "1 hand seen" if count == 1 else f"{count} hands seen"
        assert notes[seat].endswith(want), notes[seat]
        assert "1 hands" not in notes[seat]
