"""The advisor's values are the best continuation we could play, not the blueprint's or
the rollout rule's (#33: "an action's value is the value of the best continuation we
could play after it").

The advisor searches again at each later decision, so its values must count that later
play: valued by the simulated later play instead, they were pessimistic against players
who pay off (calling stations, card-blind players) and optimistic against poki
(docs/experiments/2026-11-28-advisor-searched-continuations.md)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from search_spots import spot

from ai.models.model import ModelSet, OpponentModel
from ai.models.ranges import RangeTracker
from ai.search.mcts import FLOOR, NEVER, Search, SearchConfig
from ai.search.opponents import OpponentTables
from ai.search.profiles import ADVISOR
from ai.sim.rules import CALL, CHECK, FOLD, RAISE
from holdem.config import TableConfig, Variant

NL = TableConfig(variant=Variant.NO_LIMIT, seats=2, small_blind=50, big_blind=100)
# A raise to 325 called, the flop checked through; we hold the royal flush on the turn
# (no river can beat or tie it) with 9,675 behind, and so does the opponent.
ROYAL = spot(
    NL,
    {1: "AsKs"},
    [(RAISE, 325), (CALL, 0), (CHECK, 0), (CHECK, 0)],
    board="QsJsTs2d",
    stacks=10000,
)
# Against a player who calls every bet, the best continuation after any action is to get
# the stacks in by the river: the pot (650) and the opponent's 9,675, in big blinds.
EXACT_BB = (650 + 9675) / 100
# Main's advisor before this change: our later decisions by the blueprint (or the rule).
SIMULATED_LATER_PLAY = replace(ADVISOR.search_for(False), warmup=NEVER, continuation=FLOOR)


def values(config: SearchConfig) -> dict[str, float]:
    obs = ROYAL
    assert obs.legal.can_check and obs.pot == 650 and obs.legal.stack == 9675
    model = OpponentModel(ModelSet.frequency_only())
    ranges = RangeTracker()
    ranges.update(obs, model)
    # A calling station: never folds, never raises, whatever it holds; overbets too.
    shares = np.tile(np.array([0.0, 1.0, 0.0]), (obs.n, 4, 3, 1))
    tables = OpponentTables.of(
        shares, np.full((obs.n, 4, 3, 6), 1 / 6), [1.0] * obs.n, [0.0] * obs.n
    )
    result = Search(obs, ranges, tables, config, seed=4).run(iterations=2000)
    return {a.label: a.value_bb for a in result.actions if a.kind != FOLD}


def test_the_advisors_values_are_the_best_continuation_against_a_calling_station() -> None:
    """Every action with the nuts (check, every bet size, all-in) is worth about the
    whole stack: whatever we do now, the best continuation shoves later and is called.
    The values cannot exceed it (they are chips won), and the advisor's come within 5%."""
    got = values(ADVISOR.search_for(False))
    assert set(got) == {"check", "bet 100", "bet 325", "bet 650", "bet 1300", "bet 9675"}
    for label, value in got.items():
        assert 0.95 * EXACT_BB <= value <= EXACT_BB + 1e-9, (label, value)


def test_valued_by_the_simulated_later_play_the_check_with_the_nuts_is_worth_an_eighth() -> None:
    """What the change is for: with our later decisions by the blueprint (main's advisor
    before it), checking the nuts was valued at about 12 bb of the 103 it is worth, and
    every bet below the all-in at well under half: the values counted the blueprint's
    river, not the shove the advisor plays there."""
    got = values(SIMULATED_LATER_PLAY)
    assert got["check"] < 0.25 * EXACT_BB
    assert max(v for label, v in got.items() if label != "bet 9675") < 0.6 * EXACT_BB
