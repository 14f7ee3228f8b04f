"""The search on the three-handed Limit blueprint (#33): at a Limit table of three, each
unknown opponent's policy in the search is the `limit-3max` blueprint's, and our own
later decisions in the simulations are its too."""

from __future__ import annotations

import numpy as np
from search_spots import bot, spot

from ai.models.model import ModelSet, OpponentModel
from ai.policy.nway.lookup import shipped
from ai.search.blueprint_prior import nway_prior, prior_for
from ai.search.opponents import build_tables
from ai.search.profiles import DEFAULT
from ai.search.rollout_blueprint import for_observation
from ai.sim.rules import CALL, CHECK
from holdem.config import TableConfig, Variant

LIMIT3 = TableConfig(variant=Variant.LIMIT, seats=3, small_blind=1, big_blind=2)


def flop_spot() -> object:
    # Everyone limps preflop (the button, the small blind, the big blind checks); the
    # flop's first to act (the small blind, index 0) is to decide.
    return spot(LIMIT3, {1: "QhJh"}, [(CALL, 0), (CALL, 0), (CHECK, 0)], board="Th9c2d")


def test_three_handed_limit_stands_on_its_blueprint() -> None:
    obs = flop_spot()
    assert obs.limit and obs.n == 3 and obs.street == 1
    shares = nway_prior("limit-3max")[0]
    assert shares.shape == (3, 4, 3, 3)
    assert np.allclose(shares.sum(axis=-1), 1.0)
    found = prior_for(obs)
    assert found is not None and found[1] is None
    assert np.array_equal(found[0], shares)
    # With nothing seen of them, the opponents in the search play the blueprint's shares.
    model = OpponentModel(ModelSet.frequency_only())
    tables = build_tables(obs, model, prior=found[0], evidence_k=DEFAULT.evidence_k)
    for i in obs.opponents:
        assert np.allclose(tables.shares[i], shares[i])
    # Our own later decisions: the same blueprint, from this decision's node on its tree.
    played = for_observation(obs)
    assert played is not None
    assert played[0].name == "limit-3max"
    assert played[1] == shipped("limit-3max").walk(obs).node


def test_the_bot_searches_a_three_handed_limit_spot_legally() -> None:
    obs = flop_spot()
    decision = bot(iterations=200).decide(obs)
    assert decision.kind in obs.legal.kinds
