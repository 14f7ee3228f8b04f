"""The one interface every bot implements."""

from __future__ import annotations

from abc import ABC, abstractmethod

from ai.bots.settings import PLAIN, BotSettings
from ai.game.observation import Decision, Observation
from ai.game.summary import HandSummary


class Bot(ABC):
    """A named style. `decide` must return a legal action for `obs.legal` and be deterministic
    given the bot's seed and the sequence of observations it was shown."""

    style: str = "bot"

    def __init__(self, seed: int = 0, settings: BotSettings = PLAIN) -> None:
        self.seed = seed
        # time.monotonic() by which a decision is due; search bots stop thinking then.
        self.deadline: float | None = None
        # Fill Decision.reason (advice); off in matches, where nobody reads it.
        self.explain = settings.explain

    @abstractmethod
    def decide(self, obs: Observation) -> Decision: ...

    def hand_over(self, summary: HandSummary, me: int) -> None:  # noqa: B027 - optional hook
        """Called at the end of every hand at the bot's table (the arena, and the live
        worker: `ai.worker.decider.Decider.hand_ended`), `me` being the bot's own index
        in it; default: ignore."""
