"""Compile the search's kernels (or load them from numba's disk cache) once per process,
at bot or worker start, so that no decision pays for it inside its time budget."""

from __future__ import annotations

_warm = False


def warm() -> None:
    """A few iterations of a small search, once per process."""
    global _warm
    if _warm:
        return
    from ai.game.observation import ActionRecord
    from ai.game.observe import observe
    from ai.models.model import ModelSet, OpponentModel
    from ai.models.ranges import RangeTracker
    from ai.search.mcts import Search, SearchConfig
    from ai.search.opponents import build_tables
    from ai.sim.state import SimState
    from holdem.config import TableConfig, Variant

    config = TableConfig(variant=Variant.NO_LIMIT, seats=3, small_blind=1, big_blind=2)
    state = SimState.new_hand(config, {1: 100, 2: 100, 3: 100}, button=3, seed=1)
    history: list[ActionRecord] = []
    obs = observe(state, history, "warm-up")
    model = OpponentModel(ModelSet.frequency_only())
    ranges = RangeTracker()
    ranges.update(obs, model)
    tables = build_tables(obs, model)
    Search(obs, ranges, tables, SearchConfig(batch=8), seed=1).run(iterations=16)
    _warm = True
