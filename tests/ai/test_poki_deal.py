"""poki's vectorised deal: every card once per deal, even from ranges that collide."""

from __future__ import annotations

import random

import numpy as np

from ai.bots.poki import PokiBot
from ai.game.observation import ActionRecord
from ai.game.observe import observe, step_and_record
from ai.sim.rules import CALL, CHECK
from ai.sim.state import SimState
from holdem.config import TableConfig, Variant


def test_two_opponents_with_the_same_single_holding_still_get_distinct_cards() -> None:
    config = TableConfig(variant=Variant.LIMIT, seats=3, small_blind=1, big_blind=2)
    state = SimState.new_hand(config, {1: 100, 2: 100, 3: 100}, button=3, seed=1)
    history: list[ActionRecord] = []
    for kind in (CALL, CALL, CHECK):
        step_and_record(state, kind, 0, history)
    obs = observe(state, history, "collide")
    bot = PokiBot(1)
    bot.update_model(obs)
    for i in obs.opponents:  # both ranges all but certain of the same holding
        weights = np.full(1326, 1e-12)
        weights[0] = 1.0
        bot.ranges.weights[i] = weights
    holes, runouts = bot.deal(obs, random.Random(1), 200)
    for d in range(200):
        cards = [*holes[d].ravel().tolist(), *runouts[d].tolist()]
        assert len(set(cards)) == len(cards)
