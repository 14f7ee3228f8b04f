"""Our rollout rule (`search_policy.rollout_choice`, compiled as `ai.search.kernel`'s):
poki's rule at the trust of the opponents still in, the same in both."""

from __future__ import annotations

import numpy as np
from search_policy import our_choice, rollout_choice

from ai.search import kernel as K
from ai.search.opponents import OpponentTables
from ai.sim import arrays as A
from ai.sim.rules import CALL, CHECK
from ai.sim.state import SimState
from holdem.config import TableConfig, Variant

RANDOM = (1 / 3, 1 / 3, 1 / 3)  # a random player's answer to a bet: fold, call, raise


def flop(players: int, limit: bool) -> SimState:
    """Everyone calls and checks to the flop; the first player to act there is to act."""
    variant = Variant.LIMIT if limit else Variant.NO_LIMIT
    config = TableConfig(variant=variant, seats=players, small_blind=1, big_blind=2)
    state = SimState.new_hand(config, {s: 200 for s in range(1, players + 1)}, 1, seed=7)
    while state.street == 0:
        legal = state.legal_actions()
        assert legal is not None
        state.step(CALL if legal.can_call else CHECK)
    return state


def tables(n: int, kappa: float) -> OpponentTables:
    shares = np.tile(np.array(RANDOM), (n, 4, 3, 1))
    return OpponentTables.of(shares, np.full((n, 4, 3, 6), 1 / 6), [kappa] * n)


def test_the_rollout_rule_is_our_choice_at_the_opponents_trust_in_both_copies() -> None:
    for players, limit in ((2, True), (3, True), (2, False)):
        state = flop(players, limit)
        me = state.queue[0]
        call = state.max_bet - state.bets[me]
        pot = sum(state.contrib) + sum(state.bets)
        for kappa in (0.06, 1.0):
            tabs = tables(players, kappa)
            for s in (0.2, 0.3, 0.6, 0.9):
                python = rollout_choice(state, tabs, me, s, call, pot)
                compiled = K.rollout_choice(A.state_array(state), A.rules_array(state.rules),
                                            K.table_array(tabs), me, s, call, pot)  # fmt: skip
                assert python == compiled
                if kappa == 1.0 or players > 2 or not limit or s >= 0.5:
                    assert python == our_choice(s, call, pot, kappa)


def test_heads_up_limit_a_weak_hand_bets_into_a_card_blind_player_who_folds_a_third() -> None:
    """The rule checked a weak hand even against a random player, so the search valued
    a turn call as if the river were given up: against rlcard's random agent mcts folded
    hands whose call (and a river bet) was worth +0.2 to +4 bb."""
    state = flop(2, True)
    me = state.queue[0]
    st, rules = A.state_array(state), A.rules_array(state.rules)
    for s in (0.1, 0.3):
        assert rollout_choice(state, tables(2, 0.06), me, s, 0, 8) == 2
        assert K.rollout_choice(st, rules, K.table_array(tables(2, 0.06)), me, s, 0, 8) == 2
        # A player whose bets follow its cards folds the hands we beat: no bluff.
        assert rollout_choice(state, tables(2, 1.0), me, s, 0, 8) == 1
        assert K.rollout_choice(st, rules, K.table_array(tables(2, 1.0)), me, s, 0, 8) == 1
