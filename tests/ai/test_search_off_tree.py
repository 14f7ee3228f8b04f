"""Heads-up No-Limit preflop off the blueprint's tree (#33): where a raise beyond the
blueprint's abstraction leaves the tree, the search decides, not Loki's preflop rules,
which read hand rank and re-raises but never the price (against texasholdem's random
agent they folded for 15 bb into a 385 bb pot after the search's own re-raise)."""

from __future__ import annotations

import pytest
from search_spots import NL2, bot, spot

from ai.game.observation import Observation
from ai.policy.blueprint import NotCovered
from ai.policy.nway.lookup import shipped
from ai.sim.rules import CALL, FOLD, RAISE


def _shoved_after_our_reraise() -> Observation:
    """Big blind with Jc4h: the button raised to 92.5 bb, we re-raised to 185 bb, it
    shoved 200 bb; 15 bb to call into 385 bb."""
    return spot(NL2, {2: "Jc4h"}, [(RAISE, 185), (RAISE, 370), (RAISE, 400)])


def test_the_spot_is_off_the_blueprints_tree() -> None:
    obs = _shoved_after_our_reraise()
    with pytest.raises(NotCovered):
        shipped("nolimit-hu").action_probabilities(obs)


def test_off_the_tree_the_search_decides_and_calls_at_that_price() -> None:
    obs = _shoved_after_our_reraise()
    mcts = bot(iterations=600, search_preflop=False)
    decision = mcts.decide(obs)
    assert mcts.last is not None  # searched
    assert decision.kind == CALL
    fold = next(a for a in mcts.last.actions if a.kind == FOLD)
    assert mcts.last.choice.value_bb > fold.value_bb


def test_off_the_tree_only_where_the_blueprint_does_not_cover() -> None:
    on = spot(NL2, {2: "Jc4h"}, [(RAISE, 6)])
    mcts = bot(iterations=300, search_preflop=False)
    mcts.preflop_play(on)
    assert not mcts.off_the_tree(on)
    off = _shoved_after_our_reraise()
    mcts.preflop_play(off)
    assert mcts.off_the_tree(off)
