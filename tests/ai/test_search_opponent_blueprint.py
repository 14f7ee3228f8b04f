"""Heads-up Limit: an opponent the search has no read of plays, in its simulations, the
blueprint's strategy for its card bucket at the node reached (#33), not the strength
thresholds of the tables: the play simulated is the per-holding strategy the ranges read
its actions by (`MctsBot._holding_reading`)."""

from __future__ import annotations

import math

import numpy as np
from search_spots import LIMIT2, bot, spot

from ai.policy.blueprint import default_blueprint
from ai.search import kernel as K
from ai.search.rollout_blueprint import for_observation, holding_buckets
from ai.sim import arrays as A
from ai.sim.rules import CALL, CHECK, FLOP

# The flop: we (the big blind, index 0) act first; the button (index 1) holds a middle
# pair, which the blueprint bets some of the time and checks the rest when checked to.
BOARD = "Kd8s3c"
HOLES = {1: "AhAd", 2: "8h7h"}
DRAWS = 4000


def test_an_unread_opponent_acts_by_the_blueprints_strategy_for_its_bucket() -> None:
    obs = spot(LIMIT2, HOLES, [(CALL, 0), (CHECK, 0)], board=BOARD)
    assert obs.index == 0 and obs.street == FLOP and obs.legal.can_check
    me, them = 0, 1
    tables = bot().tables(obs)  # nothing seen of the opponent: no read
    assert tables.blueprint[them] == 1.0 and tables.blueprint[me] == 0.0
    found = for_observation(obs)
    assert found is not None and obs.sim is not None
    packed, node = found
    # Our check, then the opponent's decision on the blueprint's tree.
    state = obs.sim.clone()
    st = A.state_array(state)
    rules = A.rules_array(state.rules)
    holes, runout = A.cards_arrays(state)
    after = K.bp_follow(*packed.arrays[:2], node, st, rules, me, K.CHECK, 0)
    state.step(CHECK)
    theirs = np.zeros((2, 4), dtype=np.int64)
    theirs[them] = holding_buckets(
        packed.abstraction, holes[them : them + 1], obs.board, runout[None, :], seed=1
    )[0]
    bucket = int(theirs[them, FLOP])
    bet = float(default_blueprint().table_at(after)[bucket, 2])
    assert 0.1 < bet < 0.9  # a mixed strategy: no strength threshold plays it
    strength = np.full((2, 4), 0.5)
    table = K.table_array(tables)
    stream = np.zeros(1, dtype=np.int64)
    K.reseed(stream, 7)
    key = np.zeros(K.MAX_KEY + 8, dtype=np.int64)
    ev = A.evaluator_tables()
    bets = 0
    for _ in range(DRAWS):
        st = A.state_array(state)
        cur = np.array([after], dtype=np.int64)
        K.advance(st, rules, holes, runout, strength, table, me, stream, key, 0, ev,
                  packed.arrays, cur, theirs)  # fmt: skip
        bets += int(key[0] == FLOP * 64 + 16)
    spread = math.sqrt(bet * (1 - bet) / DRAWS)
    assert abs(bets / DRAWS - bet) < 4 * spread
