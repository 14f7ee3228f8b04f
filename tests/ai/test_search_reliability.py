"""Card-blind players (random, maniacs): their shown cards teach the search that their bets
mean nothing, and it then plays and deals them card-blind."""

from __future__ import annotations

import numpy as np
from search_policy import opponent_choice
from search_spots import LIMIT2, bot, spot

from ai.game.observation import ActionRecord
from ai.game.summary import HandSummary
from ai.math.range_strength import COMBO_FIRST, COMBO_SECOND, LEX_INDEX
from ai.models.model import ModelSet, OpponentModel
from ai.models.ranges import RangeTracker
from ai.search.deals import deal_from_ranges
from ai.search.opponents import build_tables
from ai.search.reliability import Reliability
from ai.sim.rules import BET, CALL, CHECK, RAISE
from ai.sim.state import to_indices
from holdem.cards import parse_cards

BOARD = tuple(to_indices(parse_cards("AhKd7c2s9h")))


def summary(shown: str) -> HandSummary:
    """Heads-up: 'b' raises preflop and bets every street, then shows `shown`."""
    history = [ActionRecord(1, 0, RAISE, 4, 1, 3), ActionRecord(0, 0, CALL, 4, 2, 6)]
    for street in (1, 2, 3):
        history += [ActionRecord(0, street, CHECK, 0, 0, 8), ActionRecord(1, street, BET, 2, 0, 8)]
        history.append(ActionRecord(0, street, CALL, 2, 2, 10))
    cards = to_indices(parse_cards(shown))
    return HandSummary("h", ["a", "b"], history, {1: (cards[0], cards[1])}, BOARD)


def test_strong_shows_keep_a_player_believed_weak_shows_do_not() -> None:
    reliability = Reliability()
    for _ in range(10):
        reliability.observe(summary("AsAc"))  # a set of aces: bets with strength
    assert reliability.kappa("b") == 1.0
    assert reliability.kappa("a") == 1.0  # never bet: nothing learned, believed
    blind = Reliability()
    for _ in range(10):
        blind.observe(summary("3c4d"))  # nothing at all, betting every street
    assert blind.kappa("b") < 0.2
    # Judged against how often the player raises: raising 60% of the time, a
    # strength-driven player shows 0.7 on average, not 0.8.
    loose = Reliability()
    for _ in range(40):
        loose.add("c", 0.7)
    assert loose.read("c", raise_share=0.6) > 0.99
    assert loose.read("c") < 0.75


def test_the_reader_never_reads_its_own_shows() -> None:
    # The bot at seat 1 showed its bets: an opponent's read of it counts them, its own not.
    opponent, itself = Reliability(), Reliability()
    opponent.observe(summary("3c4d"), me=0)
    itself.observe(summary("3c4d"), me=1)
    assert opponent.counts == {"b": 4}
    assert itself.counts == {} and itself.kappa("b") == 1.0


def test_kappa_is_the_read() -> None:
    # Reads as the arena's players give them: aggressive about 0.63 six-handed, random
    # about 0.06.
    reliability = Reliability()
    for player, shown in (("aggressive", 0.69), ("random", 0.51)):
        for _ in range(200):
            reliability.add(player, shown)
        assert reliability.kappa(player) == reliability.read(player)
    assert 0.6 < reliability.read("aggressive") < 0.7
    assert reliability.read("random") < 0.1


def test_a_card_blind_player_acts_by_its_shares_whatever_it_holds() -> None:
    obs = spot(LIMIT2, {1: "AhKd"}, [(CALL, 0), (CHECK, 0)], board="Ks7c2h")
    model = OpponentModel(ModelSet.frequency_only())
    draws = np.linspace(0.0005, 0.9995, 1000)
    for kappa, spread in ((1.0, True), (0.0, False)):
        tables = build_tables(obs, model, kappa=[1.0, kappa])
        raised = {
            s: sum(opponent_choice(tables, 1, 1, 1, s, float(u)) == 2 for u in draws) / 1000
            for s in (0.05, 1.0)
        }
        if spread:
            assert raised[0.05] == 0.0 and raised[1.0] == 1.0
        else:
            share = tables.shares[1, 1, 1, 2]
            assert abs(raised[0.05] - share) < 0.01 and abs(raised[1.0] - share) < 0.01


def test_a_card_blind_players_range_is_dealt_flat() -> None:
    obs = spot(LIMIT2, {1: "AhKd"}, [(CALL, 0), (CHECK, 0)], board="Ks7c2h")
    ranges = RangeTracker()
    ranges.update(obs, OpponentModel(ModelSet.frequency_only()))
    narrow = np.full(1326, 1e-7)
    queens = to_indices(parse_cards("QsQd"))
    narrow[LEX_INDEX[queens[0], queens[1]]] = 1.0
    ranges.weights[1] = narrow
    rng = np.random.default_rng(1)
    believed, _ = deal_from_ranges(obs, ranges, rng, 400, kappa=[1.0, 1.0])
    flat, _ = deal_from_ranges(obs, ranges, rng, 400, kappa=[1.0, 0.0])
    distinct = [len({tuple(h) for h in holes[:, 1]}) for holes in (believed, flat)]
    assert distinct[0] < 20 < 300 < distinct[1]
    assert COMBO_FIRST.shape == COMBO_SECOND.shape


def test_no_limit_ranges_count_a_draw_limit_ranges_do_not() -> None:
    from search_spots import NL2

    # Hands the big blind checks preflop, then bets the flop Ah 7h 2c.
    flush_draw = LEX_INDEX[tuple(to_indices(parse_cards("6h5h")))]
    no_draw = LEX_INDEX[tuple(to_indices(parse_cards("6c5d")))]
    for config, bet, counts in ((NL2, 4, True), (LIMIT2, 2, False)):
        obs = spot(config, {2: "AsKd"}, [(CALL, 0), (CHECK, 0), (BET, bet)], "Ah7h2c9s4d")
        searcher = bot(iterations=50)
        searcher.decide(obs)
        weights = searcher.ranges.weights[obs.history[-1].player]
        assert searcher.ranges.potential is counts
        if counts:  # by their rank now, both are six-high
            assert weights[flush_draw] > 5 * weights[no_draw]


def test_the_advisor_believes_a_card_blind_player_for_fewer_hands() -> None:
    """Two shows of middling holdings after bets (a random agent seldom shows more in a
    hundred hands): the advisor's read is already well below believed, the default's
    still near it (docs/experiments/2026-11-28-advisor-calibration-validation.md)."""
    from ai.bots.mcts import MctsBot
    from ai.search.profiles import ADVISOR, DEFAULT

    reads = {}
    for name, config in (("advisor", ADVISOR), ("default", DEFAULT)):
        reader = MctsBot(seed=1, config=config).reliability
        for strength in (0.52, 0.59):
            reader.add("random", strength)
        reads[name] = reader.kappa("random", 0.36)
    assert reads["advisor"] < 0.5 < 0.7 < reads["default"], reads
