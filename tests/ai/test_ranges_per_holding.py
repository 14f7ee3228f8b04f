"""Heads-up Limit (#33): an opponent's action narrows its range the way the blueprint
plays each holding at the node reached (its strategy per card bucket), not by strength
thresholds on flat per-street shares (a bet keeps the blueprint's bluffs and slowplays)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from search_spots import LIMIT2, spot

from ai.bots.mcts import MctsBot
from ai.game.observation import Observation
from ai.math.range_strength import COMBO_FIRST, COMBO_SECOND, FloatArray
from ai.policy.blueprint import default_blueprint
from ai.search.profiles import DEFAULT, MctsConfig
from ai.sim.rules import BET, CALL, CHECK, RAISE

# We (the button) raised Q8o, the big blind called, the flop was checked through; on the
# turn the big blind checks (BEFORE) or bets (AFTER).
ACTIONS = [(RAISE, 4), (CALL, 0), (CHECK, 0), (CHECK, 0)]
BOARD = "7d6hAdQs"
BEFORE = spot(LIMIT2, {1: "8cQh"}, [*ACTIONS, (CHECK, 0)], board=BOARD)
AFTER = spot(LIMIT2, {1: "8cQh"}, [*ACTIONS, (BET, 0)], board=BOARD)


def _weights(obs: Observation, config: MctsConfig = DEFAULT) -> FloatArray:
    bot = MctsBot(1, config, iterations=100)
    bot.update_model(obs)
    return bot.ranges.weights[0].copy()


def _live(board: tuple[int, ...]) -> npt.NDArray[np.bool_]:
    dead = np.zeros(52, dtype=bool)
    dead[list(board)] = True
    dead[[int(c) for c in AFTER.hole]] = True
    return ~(dead[COMBO_FIRST] | dead[COMBO_SECOND])


def test_a_turn_bet_narrows_the_range_by_the_blueprints_bet_per_holding() -> None:
    bp = default_blueprint()
    # The big blind's decision on the turn: the same history, its check or bet to come.
    node, exact = bp.node_of(spot(LIMIT2, {1: "8cQh"}, ACTIONS, board=BOARD))
    assert exact
    buckets = np.maximum(bp.abstraction.buckets_of_all(AFTER.board), 0)
    p_check, p_bet = bp.table_at(node)[buckets, 1], bp.table_at(node)[buckets, 2]
    checked, bet = _weights(BEFORE), _weights(AFTER)
    # Both ranges share every earlier factor, so where the floor does not bind each
    # holding's bet / check weight ratio is the ratio of the probabilities it was read by:
    # the blueprint's for its card bucket (moved a little towards the model by the few
    # decisions seen of this player). Read by flat shares through strength thresholds
    # (reads_per_holding off) 54 holdings pass the filter and the log-correlation is 0.62.
    checked, bet = _weights(BEFORE), _weights(AFTER)
    keep = _live(AFTER.board) & (checked > 0.05) & (bet > 0.05) & (p_bet > 0.02) & (p_check > 0.02)
    assert keep.sum() > 200
    read = np.log(bet[keep] / checked[keep])
    blueprint = np.log(p_bet[keep] / p_check[keep])
    assert np.corrcoef(read, blueprint)[0, 1] > 0.99
    # The blueprint's bets are far from a strength threshold: it bets some buckets much
    # more often than stronger ones.
    assert np.ptp(p_bet[keep]) > 0.3


def test_every_holdings_bucket_at_once_is_the_lookups_bucket() -> None:
    abstraction = default_blueprint().abstraction
    rng = np.random.default_rng(7)
    for n in (0, 3, 4, 5):
        board = tuple(int(c) for c in rng.choice(52, n, replace=False))
        buckets = abstraction.buckets_of_all(board)
        for k in rng.choice(len(buckets), 25, replace=False):
            a, b = int(COMBO_FIRST[k]), int(COMBO_SECOND[k])
            expected = -1 if a in board or b in board else abstraction.bucket((a, b), board)
            assert buckets[k] == expected
