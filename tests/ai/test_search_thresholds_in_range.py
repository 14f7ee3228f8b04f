"""Heads-up Limit: the search's simulated opponent cuts its strength thresholds within
the range dealt for it (`SearchConfig.thresholds_in_range`, `ai.search.deals.
range_percentiles`), so the model's share r raises with the top r of the holdings that
reached the node, not the top r of every holding, which a narrowed range mostly clears
(docs/experiments/2026-11-29-thresholds-in-the-dealt-range.md)."""

from __future__ import annotations

import numpy as np
from search_policy import opponent_choice
from search_spots import LIMIT2, bot, spot

from ai.search import kernel as K
from ai.search.deals import range_percentiles
from ai.search.mcts import Search
from ai.sim.rules import BET, CALL, CHECK, RAISE, TURN

BATCHES = 16


def test_the_percentiles_within_the_dealt_range_are_even() -> None:
    """Whatever the strengths' spread, each deal's percentile among the batch's deals:
    the top fifth of the deals lies above 0.8. Our own column and earlier streets stay."""
    rng = np.random.default_rng(3)
    strengths = rng.random((1000, 2, 4))
    strengths[:, 1] = 0.7 + 0.3 * strengths[:, 1] ** 3  # a narrow, lopsided range
    out = range_percentiles(strengths, [1], TURN)
    assert np.array_equal(out[:, 0], strengths[:, 0])
    assert np.array_equal(out[:, 1, :TURN], strengths[:, 1, :TURN])
    for street in (TURN, TURN + 1):
        assert abs(float((out[:, 1, street] > 0.8).mean()) - 0.2) < 0.002
        assert abs(float(out[:, 1, street].mean()) - 0.5) < 0.001


def test_a_narrowed_range_re_raises_with_the_models_share_of_its_holdings() -> None:
    """The opponent bet the flop and raised our turn bet; we re-raise. By the tables it
    re-raises with share r of its holdings. Over every holding's board percentile its
    raising range clears the threshold 1 - r almost whole (about .9 of its holdings
    re-raised); within the range dealt for it, r of them do. The kernel and the
    Python reference draw the same answers."""
    obs = spot(
        LIMIT2,
        {1: "AhQc"},
        [(CALL, 0), (CHECK, 0), (CHECK, 0), (BET, 2), (CALL, 0), (BET, 4), (RAISE, 8)],
        board="Kd8s3c7h",
    )
    assert obs.street == TURN and obs.legal.call_amount == 4
    player = bot()
    player.update_model(obs)
    tables = player.tables(obs)
    them = 1 - obs.index
    config = player.search_config(obs)
    assert config.thresholds_in_range
    r = tables.raise_share[them][TURN][1]
    assert 0.2 < r < 0.5
    table = K.table_array(tables)
    rng = np.random.default_rng(5)
    raised = dealt = 0
    board_percentile_raised = 0.0
    search = Search(obs, player.ranges, tables, config, seed=1)
    for _ in range(BATCHES):
        search._deal()
        for s in search._strengths[:, them, TURN]:
            u = float(rng.random())
            choice = opponent_choice(tables, them, TURN, 1, float(s), u, kappa=1.0)
            assert choice == K.opponent_choice_at(table, them, TURN, 1, float(s), u, 1.0, 1.0)
            raised += choice == 2
            dealt += 1
    assert abs(raised / dealt - r) < 0.05
    # The same deals' board percentiles (the old thresholds): most of the range re-raises.
    plain = Search(obs, player.ranges, tables, player.config.search, seed=1)
    for _ in range(BATCHES):
        plain._deal()
        for s in plain._strengths[:, them, TURN]:
            board_percentile_raised += (
                opponent_choice(tables, them, TURN, 1, float(s), float(rng.random()), kappa=1.0)
                == 2
            )
    assert board_percentile_raised / dealt > r + 0.3
