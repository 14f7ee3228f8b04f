"""The `blueprint` style: plays the self-play baseline policy (docs/blueprint.md).

At a heads-up Limit table it samples its action from the blueprint's probabilities
(`ai.policy.blueprint.Blueprint.action_probabilities`) with its own seeded RNG, so it
is deterministic given its seed and the observations. Bets and raises are Limit's
fixed size (`legal.min_to`, which is also the whole stack when it is short).

No-Limit heads-up and Limit and No-Limit tables of three to six play the n-player
blueprints (`ai.policy.nway.lookup.blueprint_for`: each (kind, street total) with its
probability, No-Limit bets translated onto the tree's sizes). Tables no blueprint
covers (seven or more) and hands that
leave the tree fall back to the `rational` style (`ai.bots.simple.EquityBot`: call when the win
probability pays for the call, raise when it is clearly strong), and the reason of each
such decision says so.
"""

from __future__ import annotations

import random

from ai.bots.base import Bot
from ai.bots.settings import PLAIN, BotSettings
from ai.bots.simple import EquityBot
from ai.game.observation import KIND_NAMES, Decision, Observation
from ai.policy.blueprint import Blueprint, NotCovered, default_blueprint
from ai.policy.nway.lookup import blueprint_for, describe, sample_action
from ai.sim.rules import BET, RAISE


class BlueprintBot(Bot):
    style = "blueprint"

    def __init__(
        self, seed: int = 0, blueprint: Blueprint | None = None, settings: BotSettings = PLAIN
    ) -> None:
        super().__init__(seed, settings)
        self.rng = random.Random(seed)
        self._blueprint = blueprint
        self._fallback: EquityBot | None = None

    @property
    def blueprint(self) -> Blueprint:
        if self._blueprint is None:
            self._blueprint = default_blueprint()
        return self._blueprint

    def action_probabilities(self, obs: Observation) -> dict[tuple[int, int], float]:
        """What `decide` plays here, as (kind, street total) -> probability, without
        touching the bot's state: exact where the blueprint covers the table (so LBR,
        `ai.gauntlet.lbr_probe.ExactProbe`, reads the policy instead of sampling it),
        else the fallback's one answer."""
        if not (obs.limit and obs.n == 2):
            try:
                return {
                    k: p for k, p in blueprint_for(obs).action_probabilities(obs).items() if p > 0
                }
            except NotCovered:
                fallback = EquityBot(self.seed).decide(obs)
                return {(fallback.kind, fallback.to): 1.0}
        try:
            probs = self.blueprint.action_probabilities(obs)
        except NotCovered:
            fallback = EquityBot(self.seed).decide(obs)
            return {(fallback.kind, fallback.to): 1.0}
        to = obs.legal.min_to
        return {(k, to if k in (BET, RAISE) else 0): p for k, p in probs.items() if p > 0}

    def decide(self, obs: Observation) -> Decision:
        if not (obs.limit and obs.n == 2):
            return self._decide_nway(obs)
        try:
            probs = self.blueprint.action_probabilities(obs)
        except NotCovered as why:
            return self._fall_back(obs, str(why))
        kinds = sorted(probs)
        u = self.rng.random()
        kind = kinds[-1]
        acc = 0.0
        for k in kinds:
            acc += probs[k]
            if u < acc:
                kind = k
                break
        to = obs.legal.min_to if kind in (BET, RAISE) else 0
        reason = ""
        if self.explain:
            shown = ", ".join(f"{KIND_NAMES[k]} {100 * probs[k]:.0f}%" for k in kinds)
            reason = f"{KIND_NAMES[kind].capitalize()}: the blueprint plays {shown} here"
        return Decision(kind, to, reason=reason)

    def _decide_nway(self, obs: Observation) -> Decision:
        try:
            lookup = blueprint_for(obs)
            probs = lookup.action_probabilities(obs)
        except NotCovered as why:
            return self._fall_back(obs, str(why))
        kind, to = sample_action(probs, self.rng.random())
        reason = ""
        if self.explain:
            shown = describe(probs)
            reason = (
                f"{KIND_NAMES[kind].capitalize()}: the {lookup.game.name} blueprint "
                f"({lookup.version}) plays {shown} here"
            )
        return Decision(kind, to, reason=reason)

    def _fall_back(self, obs: Observation, why: str) -> Decision:
        if self._fallback is None:
            self._fallback = EquityBot(self.seed, BotSettings(explain=True))
        decision = self._fallback.decide(obs)
        decision.reason = f"{decision.reason} (rational fallback: {why})"
        return decision
