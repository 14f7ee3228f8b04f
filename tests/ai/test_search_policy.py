"""Our rollout rule (`search_policy.rollout_choice`, compiled as `ai.search.kernel`'s):
heads-up against a card-blind bettor it bets wherever the opponent's folds pay, and
nowhere else: not against one who never folds, not against a believed player, not
with two opponents in the hand, not in No-Limit."""

from __future__ import annotations

import numpy as np
from search_policy import BLUFF_TRUST, our_choice, rollout_choice, trust_of

from ai.search import kernel as K
from ai.search.opponents import OpponentTables
from ai.sim import arrays as A
from ai.sim.rules import CALL, CHECK
from ai.sim.state import SimState
from holdem.config import TableConfig, Variant

RANDOM = (1 / 3, 1 / 3, 1 / 3)  # a random player's answer to a bet: fold, call, raise
NEVER_FOLDS = (0.0, 0.0, 1.0)  # an always-raiser's


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


def tables(n: int, answer: tuple[float, float, float], kappa: float) -> OpponentTables:
    shares = np.tile(np.array(answer), (n, 4, 3, 1))
    return OpponentTables.of(shares, np.full((n, 4, 3, 6), 1 / 6), [kappa] * n)


def both(state: SimState, tabs: OpponentTables, s: float) -> int:
    """The Python rule's choice for the player to act, checked against the compiled one."""
    me = state.queue[0]
    call = state.max_bet - state.bets[me]
    pot = sum(state.contrib) + sum(state.bets)
    python = rollout_choice(state, tabs, me, s, call, pot)
    compiled = K.rollout_choice(
        A.state_array(state), A.rules_array(state.rules), K.table_array(tabs), me, s, call, pot
    )
    assert python == compiled
    return python


# A pot of two big blinds on the flop: a hand with this share at showdown bets one small
# bet into a random player where it pays, above 1/4 (fold_equity_gain > 0), and checks
# below.
def test_heads_up_a_weak_hand_bets_into_a_player_who_folds_whatever_it_holds() -> None:
    assert K.BLUFF_TRUST == BLUFF_TRUST  # the compiled copy's literal
    limit, weak, weaker = True, 0.3, 0.2
    state = flop(2, limit)
    random_player = tables(2, RANDOM, kappa=0.06)
    assert trust_of(state, random_player, state.queue[0]) < BLUFF_TRUST
    assert our_choice(weak, 0, 4, trust=0.06) == 1  # the rule alone checks it
    assert both(state, random_player, weak) == 2
    assert both(state, random_player, weaker) == 1
    # ... but not into one who never folds (only hands above the middle bet there),
    assert both(state, tables(2, NEVER_FOLDS, kappa=0.06), weak) == 1
    # nor into a player whose bets are believed, nor with two opponents in the hand.
    assert both(state, tables(2, RANDOM, kappa=BLUFF_TRUST), weak) == 1
    assert both(flop(3, limit), tables(3, RANDOM, kappa=0.06), weak) == 1
    # No-Limit keeps the rule (its pot-sized bluffs lost against an always-raiser).
    assert both(flop(2, False), random_player, 0.45) == 1
