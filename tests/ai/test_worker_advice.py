"""The advice's reads on opponents: the note under each read is worded for its count, and
a player seen in too few hands gets no statistics: a default is never shown as a read."""

from __future__ import annotations

from test_worker_decider import seated_table

from ai.bots.from_view import observation_from_view
from ai.bots.simple import CallingStationBot
from ai.models.model import OpponentModel
from ai.models.stats import StatsBook
from ai.worker.advice import READ_HANDS, opponent_reads
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
        want = "1 hand" if count == 1 else f"{count} hands"
        assert notes[seat].endswith(f"{want}: no read yet; assuming the population")
        assert "1 hands" not in notes[seat]


def test_a_read_with_little_data_says_so_instead_of_showing_the_prior() -> None:
    """After one hand the prior's VPIP 36%, PFR 12%, AF 0 read as "loose-passive": now
    no label and no statistics until READ_HANDS hands, then the measured ones."""
    table = seated_table(Variant.LIMIT, 2, seed=3)
    table.start_hand()
    hand = table.hand
    assert hand is not None and hand.actor is not None
    obs = observation_from_view(observe(table, hand.actor))
    (opponent,) = obs.opponents
    book = StatsBook()
    stats = book.get(obs.player_id(opponent))
    stats.hands = 1
    (read,) = opponent_reads(obs, CallingStationBot(), OpponentModel(book=book))
    assert read.label == "no read yet" and read.hands == 1
    assert (read.vpip, read.pfr, read.aggression, read.fold_to_bet) == (None, None, None, None)
    assert read.note.endswith("1 hand: no read yet; assuming the population")
    stats.hands, stats.vpip_hands, stats.pfr_hands = READ_HANDS, READ_HANDS, 0
    (read,) = opponent_reads(obs, CallingStationBot(), OpponentModel(book=book))
    assert read.label == stats.label() and read.vpip == round(stats.vpip, 3) > 0.5
    assert read.note.endswith(f"{READ_HANDS} hands seen")
