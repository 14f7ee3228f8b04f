"""The opponent model as the search asks it (once per decision, batched), and fair play:
the search never reads the simulator's hidden cards."""

from __future__ import annotations

import random

import numpy as np
from search_spots import LIMIT2, LIMIT6, NL2, NL6, bot, spot

from ai.bots.mcts import make_mcts
from ai.models.features import N_FEATURES, N_SIZES
from ai.models.inference import NumpyNet
from ai.models.model import BLEND_DECISIONS, ModelSet, OpponentModel, PlayerNet
from ai.models.ranges import RangeTracker
from ai.models.weights import NetWeights
from ai.search.mcts import Search, SearchConfig
from ai.search.opponents import build_tables
from ai.sim.rules import CALL, CHECK, FLOP
from ai.sim.state import to_indices
from holdem.cards import parse_cards

OBS = spot(NL6, {1: "AhTd"}, [(CALL, 0)] * 5 + [(CHECK, 0)], board="Ts7c2h")


def network(seed: int, hidden: int = 8) -> NumpyNet:
    rng = np.random.default_rng(seed)

    def w(*shape: int) -> np.ndarray:
        return rng.standard_normal(shape).astype(np.float32)

    weights = NetWeights(
        w(N_FEATURES, hidden), w(hidden), w(hidden, hidden), w(hidden),
        w(hidden, 3), w(3), w(hidden, N_SIZES), w(N_SIZES),
    )  # fmt: skip
    return NumpyNet(weights)


def test_frequency_tables_are_the_players_statistics() -> None:
    model = OpponentModel(ModelSet.frequency_only())
    tables = build_tables(OBS, model)
    stats = model.stats(OBS.player_id(2))
    assert np.allclose(tables.shares[2, 1, 1], stats.frequencies(1, 1))
    assert np.allclose(tables.shares[:, :, 0, 0], 0.0)  # never a fold when checking is free


def test_network_tables_are_distributions_and_blend_a_players_own_net() -> None:
    generic = network(1)
    tables = build_tables(OBS, OpponentModel(ModelSet("t", generic)))
    assert tables.shares.shape == (6, 4, 3, 3) and tables.sizes.shape == (6, 4, 3, N_SIZES)
    assert np.allclose(tables.shares.sum(axis=-1), 1.0)
    assert np.allclose(tables.sizes.sum(axis=-1), 1.0, atol=1e-5)
    assert np.allclose(tables.shares[:, :, 0, 0], 0.0)
    own = PlayerNet(network(2), decisions=BLEND_DECISIONS)
    player = OBS.player_id(3)
    blended = build_tables(OBS, OpponentModel(ModelSet("t", generic, {player: own})))
    assert not np.allclose(blended.shares[3], tables.shares[3])
    assert np.allclose(blended.shares[2], tables.shares[2])  # other players unchanged
    generic_only = build_tables(
        OBS, OpponentModel(ModelSet("t", generic, {player: own})), generic_only=True
    )
    assert not np.allclose(generic_only.shares[3], blended.shares[3])


def test_the_search_never_reads_the_simulators_hidden_cards() -> None:
    """Re-dealing everything the decider cannot see changes nothing in the search."""
    model = OpponentModel(ModelSet("t", network(1)))
    results = []
    for deal in range(2):
        obs = spot(NL6, {1: "AhTd"}, [(CALL, 0)] * 5 + [(CHECK, 0)], board="Ts7c2h")
        assert obs.sim is not None
        obs.sim.resample_hidden(random.Random(deal), obs.index)
        ranges = RangeTracker()
        ranges.update(obs, model)
        search = Search(obs, ranges, build_tables(obs, model), seed=3)
        results.append(search.run(iterations=200))
    assert results[0].actions == results[1].actions
    assert results[0].equity == results[1].equity


def test_a_players_seen_play_moves_the_network_tables_towards_it() -> None:
    """A player unlike the population (here one who folds 90% of the time to a flop bet,
    300 times) is read from its own play before it has a network of its own."""
    model = OpponentModel(ModelSet("t", network(1)))
    before = build_tables(OBS, model)
    player = OBS.player_id(4)
    stats = model.book.get(player)
    stats.counts[1, 1] = (270, 20, 10)
    stats.touch()
    after = build_tables(OBS, model)
    assert after.shares[4, 1, 1, 0] > 0.8 > before.shares[4, 1, 1, 0]
    assert np.allclose(after.shares[2], before.shares[2])  # nobody else moves
    assert np.allclose(after.shares.sum(axis=-1), 1.0)
    # The ablation that learns nothing about the players does not see it.
    generic_only = build_tables(OBS, model, generic_only=True)
    assert generic_only.shares[4, 1, 1, 0] < 0.8


def test_a_players_seen_play_is_read_with_as_many_players_in_the_hand_as_now() -> None:
    """A player who bets every flop checked to it heads-up and checks it with four or
    more in the hand is simulated betting heads-up and checking six-handed."""
    heads_up = spot(NL2, {1: "AhTd"}, [(CALL, 0), (CHECK, 0)], board="Ts7c2h")
    player = heads_up.player_id(1)
    for frequency_only in (True, False):
        models = ModelSet.frequency_only() if frequency_only else ModelSet("t", network(1))
        model = OpponentModel(models)
        stats = model.book.get(player)
        stats.counts[1, 0] = (0, 300, 300)
        stats.crowd_counts[1, 0, 0] = (0, 0, 300)
        stats.crowd_counts[1, 0, 2] = (0, 300, 0)
        stats.touch()
        assert heads_up.player_id(0) != player and heads_up.index == 0
        assert build_tables(heads_up, model).shares[1, 1, 0, 2] > 0.9
        assert model.book.peek(OBS.player_id(4)).decisions == 0
        model.book.players[OBS.player_id(4)] = stats
        assert build_tables(OBS, model).shares[4, 1, 0, 2] < 0.1


def test_the_bots_ranges_read_own_play_in_two_player_limit_pots_only() -> None:
    """Own play sharpens Limit ranges in two-player pots; in No-Limit a context mixes
    every bet size and in bigger pots a player's frequencies mix its answers to everyone,
    so the ranges keep the network's reading there, and the generic ablation everywhere."""
    limit = spot(LIMIT2, {1: "AhTd"}, [(CALL, 0), (CHECK, 0)], board="Ts7c2h")
    no_limit = spot(NL2, {1: "AhTd"}, [(CALL, 0), (CHECK, 0)], board="Ts7c2h")
    made = bot()
    made.update_model(limit)
    assert made.ranges.own_play
    made.update_model(no_limit)
    assert not made.ranges.own_play
    six_seats = bot()  # a new hand, seen by a new bot: every spot's hand key is "spot"
    six_seats.update_model(spot(LIMIT6, {2: "7c2d"}, [(CALL, 0)] * 5))
    assert six_seats.ranges.own_play and six_seats.ranges.own_play_in_hand == 2
    assert six_seats.versus is not None  # counted over the decisions made with us in
    assert six_seats.ranges.own_stats == six_seats.versus.with_us
    assert made.ranges.own_stats is None  # heads-up: the model's statistics
    generic = make_mcts(1, "generic")
    generic.update_model(limit)
    assert not generic.ranges.own_play


def test_with_ranges_that_count_draws_the_simulated_opponents_play_their_draws() -> None:
    """The deals' strengths are what the simulated opponents act by: with `potential`
    ranges a flush draw on Ks 7h 2h plays as the stronger holding the ranges weighed it
    as, not by its high card now."""
    obs = spot(NL2, {2: "AsKd"}, [(CALL, 0), (CHECK, 0)], board="Ks7h2h")
    model = OpponentModel(ModelSet.frequency_only())
    ranges = RangeTracker(potential=True)
    ranges.update(obs, model)
    board_ranks = {card // 4 for card in to_indices(parse_cards("Ks7h2h"))}
    opponent = 1 - obs.index
    flops = []
    for play in (True, False):
        config = SearchConfig(batch=4096)
        ranges.potential = play  # the weights stay as read: only the strengths differ
        search = Search(obs, ranges, build_tables(obs, model), config)
        search.run(iterations=256)
        # The deals the iterations were played on (the same for both: one seed).
        holes = search._holes[:, opponent].tolist()
        draws = [
            d
            for d, (a, b) in enumerate(holes)
            if a % 4 == b % 4 == 2 and not {a // 4, b // 4} & board_ranks  # two hearts, no pair
        ]
        assert len(draws) >= 50
        flops.append(search._strengths[draws, opponent, FLOP])
    with_draws, now = flops
    assert float(with_draws.mean()) > float(now.mean()) + 0.1
