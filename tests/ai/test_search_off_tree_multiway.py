"""Six-handed No-Limit preflop off the 6-max blueprint's tree (#33): where a re-raise
beyond the blueprint's abstraction leaves the tree, the search decides, not Loki's
preflop rules, which read hand rank and re-raises but never the price. Against five of
texasholdem's random agents they folded, after calling a random raise, to the random
re-raise that followed, 141 bb in on average
(docs/experiments/2026-11-28-six-handed-off-the-tree.md). Heads-up is
`test_search_off_tree.py`."""

from __future__ import annotations

import pytest
from search_spots import NL6, bot, spot

from ai.game.observation import Observation
from ai.policy.blueprint import NotCovered
from ai.policy.nway.lookup import shipped
from ai.sim.rules import CALL, FOLD, RAISE
from holdem.config import TableConfig, Variant


def _reraised_after_our_call() -> Observation:
    """Ace-eight offsuit in the hijack (200 bb stacks): UTG raised to 40 bb, we called,
    the cutoff re-raised to 150 bb, everyone else folded; 110 bb to call into 231.5 bb.
    The 6-max tree reads the raise as its all-in (it has no 3-bet size) and the re-raise
    as a call of it, so the hand left the tree before our decision."""
    return spot(
        NL6,
        {4: "Ah8d"},
        [(RAISE, 80), (CALL, 80), (RAISE, 300), (FOLD, 0), (FOLD, 0), (FOLD, 0), (FOLD, 0)],
    )


def test_the_spot_is_off_the_6max_blueprints_tree() -> None:
    obs = _reraised_after_our_call()
    assert obs.n == 6 and obs.index == 3 and not obs.limit
    with pytest.raises(NotCovered):
        shipped("nolimit-6max").action_probabilities(obs)


def test_off_the_tree_six_handed_the_search_decides_and_continues() -> None:
    """Nothing seen of anyone: the search decides, every action a candidate, and at that
    price it does not fold. Before, Loki's rules folded the hand ("the pot was re-raised,
    top 16% of hands") and nothing was searched."""
    obs = _reraised_after_our_call()
    mcts = bot(iterations=600, search_preflop=False)
    decision = mcts.decide(obs)
    assert mcts.last is not None  # searched
    assert decision.kind != FOLD
    fold = next(a for a in mcts.last.actions if a.kind == FOLD)
    assert mcts.last.choice.value_bb > fold.value_bb


def test_six_handed_off_the_tree_only_where_the_blueprint_does_not_cover() -> None:
    on = spot(NL6, {4: "Ah8d"}, [(RAISE, 80)])  # UTG's raise: on the tree
    mcts = bot(iterations=300, search_preflop=False)
    mcts.preflop_play(on)
    assert not mcts.off_the_tree(on)
    off = _reraised_after_our_call()
    mcts.preflop_play(off)
    assert mcts.off_the_tree(off)


def test_beyond_six_seats_the_rules_still_play_preflop() -> None:
    """No blueprint plays No-Limit preflop at seven or more: Loki's rules, unsearched."""
    nl7 = TableConfig(variant=Variant.NO_LIMIT, seats=7, small_blind=1, big_blind=2)
    obs = spot(nl7, {4: "Ah8d"}, [(RAISE, 80)])
    mcts = bot(iterations=300, search_preflop=False)
    mcts.preflop_play(obs)
    assert not mcts.off_the_tree(obs)
    mcts.decide(obs)
    assert mcts.last is None
