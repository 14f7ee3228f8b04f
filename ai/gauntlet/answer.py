"""From an external agent's answer to a legal action of ours.

The adapters offer an agent the options its own package's rules would give it in
our spot, so what it answers is meant in that package's terms. Our rules referee
the hand; where the two disagree the answer is mapped, never refused:

- fold when checking is free (rlcard offers that fold, our rules do not): a check.
  A free check is worth at least a fold, so this can only help the agent;
- check facing a bet (not offered by any adapter): a call, i.e. the passive action;
- call when nothing is to call: a check;
- bet or raise where our rules allow none (a capped Limit street, a short all-in
  that does not reopen the betting): the passive action;
- bet or raise to an amount outside [min_to, max_to] (a No-Limit size below our
  minimum raise, say): clamped into it; in Limit every raise is the fixed one.

Each mapping that changes the agent's intended action is counted
(`ExternalAgent.corrections`), so a report can say how often it happened.
"""

from __future__ import annotations

from abc import abstractmethod
from enum import Enum

from ai.bots.base import Bot
from ai.game.observation import Decision, Observation
from ai.sim.rules import CALL, CHECK, FOLD


class Intent(Enum):
    """What an external agent wants, in the words every package shares."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    RAISE = "raise"  # a bet or a raise, to `to` (street total; ignored in Limit)


def legal_decision(obs: Observation, intent: Intent, to: int = 0) -> tuple[Decision, bool]:
    """The legal Decision for `intent` and whether the intent had to be changed."""
    legal = obs.legal
    if intent is Intent.FOLD:
        if legal.can_check:
            return Decision(CHECK), True
        return Decision(FOLD), False
    if intent is Intent.RAISE and legal.raise_kind is not None:
        if obs.limit:
            return Decision(legal.raise_kind, legal.min_to), False
        clamped = min(max(to, legal.min_to), legal.max_to)
        return Decision(legal.raise_kind, clamped), clamped != to
    passive = CHECK if legal.can_check else CALL
    wanted = {Intent.CHECK: CHECK, Intent.CALL: CALL}.get(intent)
    return Decision(passive), wanted != passive


class ExternalAgent(Bot):
    """A Bot that asks another package's agent; subclasses build its observation."""

    package = ""  # the PyPI distribution the agent comes from

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.corrections = 0  # answers that `legal_decision` had to change
        self.decisions = 0

    def decide(self, obs: Observation) -> Decision:
        intent, to = self.ask(obs)
        decision, changed = legal_decision(obs, intent, to)
        self.decisions += 1
        self.corrections += changed
        return decision

    @abstractmethod
    def ask(self, obs: Observation) -> tuple[Intent, int]:
        """The agent's answer for this seat's view: an intent and, to raise, a street total."""
