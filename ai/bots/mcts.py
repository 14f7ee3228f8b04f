"""MCTS: the flagship style, information-set Monte Carlo tree search over the opponent
models (`ai.search`), with Loki's model upkeep (statistics and each opponent's range).

Each decision asks the opponent model once for every opponent's tables, then
searches: `iterations` in matches (deterministic for the bot's seed), or until
`deadline` when the worker gives one (the budget shrinks under load, it is never
missed). Options select the arena's ablations: the generic model only, frequency
tables only, random rollouts, PUCT instead of UCT.
"""

from __future__ import annotations

import time
import zlib
from dataclasses import replace

from ai.bots.loki import LokiBot
from ai.bots.observation import Decision, Observation
from ai.models.model import ModelSet, OpponentModel
from ai.search.explain import reason
from ai.search.mcts import RANDOM, Search, SearchConfig, SearchResult
from ai.search.opponents import build_tables
from ai.sim.rules import PREFLOP

DEFAULT_ITERATIONS = 600
# Below this much time left the search stops (the answer still has to travel).
SAFETY = 0.005


class MctsBot(LokiBot):
    style = "mcts"

    def __init__(
        self,
        seed: int = 0,
        iterations: int = DEFAULT_ITERATIONS,
        config: SearchConfig | None = None,
        generic_only: bool = False,
        models: ModelSet | None = None,
    ) -> None:
        super().__init__(seed)
        if models is not None:
            self.model = OpponentModel(models, self.model.book)
        self.iterations = iterations
        self.config = config or SearchConfig()
        self.generic_only = generic_only
        self.clock = time.monotonic
        # Preflop by Loki's expert rules in matches (the thesis' "expert knowledge
        # preflop"); advice searches preflop too.
        self.search_preflop = False
        self.last: SearchResult | None = None

    def decide(self, obs: Observation) -> Decision:
        self.update_model(obs)
        if (obs.street == PREFLOP and not self.search_preflop) or obs.sim is None:
            return (
                self.preflop(obs) if obs.street == PREFLOP else self.postflop(obs, self.read(obs))
            )
        tables = build_tables(obs, self.model, self.generic_only)
        spot = repr((self.seed, obs.hand_key, len(obs.history), obs.hole)).encode()
        search = Search(obs, self.ranges, tables, self.config, seed=zlib.crc32(spot))
        if self.deadline is None:
            result = search.run(iterations=self.iterations)
        else:
            result = search.run(iterations=None, deadline=self.deadline - SAFETY, clock=self.clock)
        self.last = result
        choice = result.choice
        text = reason(result, obs) if self.explain else ""
        return Decision(
            choice.kind,
            choice.to,
            reason=text,
            values=result.values,
            equity=result.equity,
        )


def make_mcts(seed: int, variant: str = "") -> MctsBot:
    """The style and its ablations: "generic" (population model, nothing per player),
    "frequency" (frequency tables only), "random" (random rollouts), "puct"."""
    if variant == "frequency":
        return MctsBot(seed, models=ModelSet.frequency_only())
    if variant == "generic":
        return MctsBot(seed, generic_only=True)
    if variant == "random":
        return MctsBot(seed, config=replace(SearchConfig(), rollout=RANDOM))
    if variant == "puct":
        return MctsBot(seed, config=replace(SearchConfig(), puct=True))
    return MctsBot(seed)
