"""How a player with nothing seen answers our No-Limit bets beyond the pot: as the
heads-up blueprint answers them (`ai.search.overbet_prior`), not folding nearly always.

Heads-up No-Limit, we are index 0 with 200 chips: preflop to 6 and called (pot 12); a
flop all-in is 194 into 12, about 16 pots."""

from __future__ import annotations

import numpy as np
from search_spots import NL2, spot

from ai.game.observation import Observation
from ai.models.model import ModelSet, OpponentModel
from ai.models.ranges import RangeTracker
from ai.policy.nway.lookup import shipped
from ai.search import kernel
from ai.search.blueprint_prior import nway_prior, prior_for
from ai.search.mcts import Search, SearchConfig
from ai.search.opponents import OpponentTables, build_tables
from ai.search.overbet_prior import GAME, blueprint_exponents, blueprint_overbets, prior_exponents
from ai.search.versus import OVERBET_SIZES, PRIOR_EXPONENT
from ai.sim.rules import CALL, RAISE

FLOP = 1
SHOVE, POT = 194, 206  # our all-in to call, and the pot with it in


def _tables(hole: str) -> tuple[OpponentTables, Observation]:
    """The default's tables for a player with nothing seen, as `MctsBot` builds them."""
    obs = spot(NL2, {1: hole}, [(RAISE, 6), (CALL, 0)], board="Ks7c2h", stacks=200)
    prior = prior_for(obs)
    assert prior is not None
    model = OpponentModel(ModelSet.frequency_only())
    tables = build_tables(
        obs, model, prior=prior[0], evidence_k=200.0, prior_sizes=prior[1],
        overbet_prior=prior_exponents(obs),
    )  # fmt: skip
    return tables, obs


def test_with_nothing_seen_an_all_in_is_met_as_often_as_the_blueprint_meets_one() -> None:
    """The blueprint continues facing bets of six pots or more about 14% of the time on
    the flop; pot odds' exponent 1 on top of its share (already its answer to the all-ins
    it meets) made a 16-pot all-in met 2% of the time."""
    tables, _ = _tables("5h4d")
    over = blueprint_overbets(shipped(GAME))[1, FLOP]
    blueprint_meets = over[-1, 1] / over[-1].sum()  # the bin of six pots and more
    met = tables.continue_share[1][FLOP][2] * kernel.continue_scale(
        SHOVE, POT, False, tables.overbet[1]
    )
    assert blueprint_meets > 0.1
    assert met >= blueprint_meets, (met, blueprint_meets)
    assert all(e < PRIOR_EXPONENT for e in blueprint_exponents())


def test_the_blueprints_exponent_is_its_own_answers_best_fit() -> None:
    """Each tree player's exponent explains its answers by size better than pot odds' 1."""
    shares, _ = nway_prior(GAME)
    over = blueprint_overbets(shipped(GAME))

    def log_like(p: int, e: float) -> float:
        total = 0.0
        for street in range(4):
            cont = shares[p, street, 2, 1] + shares[p, street, 2, 2]
            for size, ratio in enumerate(OVERBET_SIZES):
                folded, continued = over[p, street, size]
                q = np.clip(cont * (2 / (1 + ratio)) ** e, 0.01, 0.99)
                total += continued * np.log(q) + folded * np.log(1 - q)
        return float(total)

    for p, e in enumerate(blueprint_exponents()):
        assert log_like(p, float(e)) > log_like(p, PRIOR_EXPONENT)


def test_an_all_ins_value_counts_the_blueprints_calls_both_ways() -> None:
    """Air's all-in into 6 big blinds loses what the blueprint's calls cost it (-10.6 bb
    with the old prior, which let it steal the pot nearly always); top pair's is paid
    by them (+10.9 bb before). Seeded, 2,000 iterations."""
    values = {}
    for hole in ("5h4d", "AsKc"):
        tables, obs = _tables(hole)
        ranges = RangeTracker()
        ranges.update(obs, OpponentModel(ModelSet.frequency_only()))
        result = Search(obs, ranges, tables, SearchConfig(), seed=2).run(iterations=2000)
        values[hole] = max(result.actions, key=lambda a: a.to).value_bb
    assert values["5h4d"] < -20.0, values
    assert values["AsKc"] > 18.0, values
