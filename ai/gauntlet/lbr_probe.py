"""What a Local Best Response may ask of its target: its policy at a hypothetical holding.

LBR keeps the target's range by Bayes' rule and needs, for a holding the target
might have, the probability of each action at a spot, without disturbing the
target that is really playing. A `PolicyProbe` answers that for one hypothetical
holding through one hand:

- `probabilities(obs)`: the target's action probabilities at `obs` (the target's
  observation with the hypothetical hole cards), leaving the probe as it was
  (LBR's "would it fold to this bet?");
- `act(obs, taken)`: the probability of the action the target really took there,
  moving the probe past that decision (the line the hand really took).

Probes are made per holding at the start of each hand from a snapshot of the
target taken between hands (`ProbeMaker`), so a probe never holds anything the
target learnt from its real cards of the current hand. Three kinds:

- `DeterministicProbe`: bots whose answer follows from the observation alone and
  who keep no state (always-fold, calling-station, always-raise): one call, exact.
- `ExactProbe`: bots that know their own probabilities, the seam for the
  blueprint: any bot with `action_probabilities(obs)` returning a mapping from an
  action (a `(kind, to)` pair, or anything with `.kind` and `.to`) to its
  probability. Exact and stateless.
- `SnapshotProbe`: any other bot. A private copy of the snapshot, reseeded from
  LBR's own random stream (so LBR never knows the coin flips the real target will
  make, only its policy), asked `samples` times per spot; the frequencies are an
  unbiased estimate of the probabilities (with one sample, a 0/1 draw).
"""

from __future__ import annotations

import contextlib
import copy
import random
from collections.abc import Callable, Mapping
from typing import Any, Protocol

import numpy as np

from ai.bots.base import Bot
from ai.bots.simple import AlwaysFoldBot, AlwaysRaiseBot, CallingStationBot
from ai.game.observation import Decision, Observation
from ai.sim.rules import BET

# An action as LBR compares them: (kind, street total); the total is 0 unless a bet/raise.
Choice = tuple[int, int]

# Bots that keep no state and answer from the observation alone: one call is exact.
STATELESS: tuple[type[Bot], ...] = (AlwaysFoldBot, CallingStationBot, AlwaysRaiseBot)


def choice_of(decision: Decision) -> Choice:
    return (decision.kind, decision.to if decision.kind >= BET else 0)


class PolicyProbe(Protocol):
    def probabilities(self, obs: Observation) -> dict[Choice, float]: ...

    def act(self, obs: Observation, taken: Choice) -> float: ...


class ProbeMaker(Protocol):
    # The probabilities are exact (not estimated): LBR may then afford every holding.
    exact: bool

    def new(self, seed: int) -> PolicyProbe: ...


def _normalise(answer: Mapping[Any, float]) -> dict[Choice, float]:
    out: dict[Choice, float] = {}
    for action, p in answer.items():
        if isinstance(action, tuple):
            kind, to = int(action[0]), int(action[1])
        else:
            kind, to = int(action.kind), int(getattr(action, "to", 0) or 0)
        key = (kind, to if kind >= BET else 0)
        out[key] = out.get(key, 0.0) + float(p)
    return out


class DeterministicProbe:
    """A stateless bot asked once: its answer has probability 1."""

    exact = True

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    def new(self, seed: int) -> DeterministicProbe:
        return self  # stateless: one probe serves every holding

    def probabilities(self, obs: Observation) -> dict[Choice, float]:
        return {choice_of(self.bot.decide(obs)): 1.0}

    def act(self, obs: Observation, taken: Choice) -> float:
        return self.probabilities(obs).get(taken, 0.0)


class ExactProbe:
    """A bot that knows its probabilities (`action_probabilities(obs)`)."""

    exact = True

    def __init__(self, policy: Callable[[Observation], Mapping[Any, float]]) -> None:
        self.policy = policy

    def new(self, seed: int) -> ExactProbe:
        return self

    def probabilities(self, obs: Observation) -> dict[Choice, float]:
        return _normalise(self.policy(obs))

    def act(self, obs: Observation, taken: Choice) -> float:
        return self.probabilities(obs).get(taken, 0.0)


def reseed(bot: object, seed: int) -> None:
    """Give a copy of a bot a random stream of its own: its `seed` (which per-spot seeded
    bots hash into every decision) and every `random.Random` or numpy Generator it holds,
    nested objects of this project included. A bot may define `reseed(seed)` instead."""
    custom = getattr(bot, "reseed", None)
    if callable(custom):
        custom(seed)
        return
    rng = random.Random(seed)
    seen: set[int] = set()

    def walk(obj: object, depth: int) -> None:
        if id(obj) in seen or depth > 3 or not hasattr(obj, "__dict__"):
            return
        seen.add(id(obj))
        for name, value in vars(obj).items():
            if isinstance(value, random.Random):
                value.seed(rng.getrandbits(63))
            elif isinstance(value, np.random.Generator):
                setattr(obj, name, np.random.default_rng(rng.getrandbits(63)))
            elif name == "seed" and isinstance(value, int) and not isinstance(value, bool):
                # A seed in a frozen config stays: such a bot defines reseed().
                with contextlib.suppress(AttributeError):
                    setattr(obj, name, rng.getrandbits(31))
            elif type(value).__module__.startswith(("ai.", "holdem.")):
                walk(value, depth + 1)

    walk(bot, 0)


class SnapshotProbe:
    """A private, reseeded copy of the target's snapshot, followed through one hand."""

    exact = False

    def __init__(self, bot: Bot, samples: int = 1) -> None:
        if samples < 1:
            raise ValueError("a probe needs at least one sample")
        self.bot = bot
        self.samples = samples

    def probabilities(self, obs: Observation) -> dict[Choice, float]:
        counts: dict[Choice, float] = {}
        for _ in range(self.samples):
            # A copy per sample: asking must not move the probe (a hypothetical spot).
            choice = choice_of(copy.deepcopy(self.bot).decide(obs))
            counts[choice] = counts.get(choice, 0.0) + 1.0 / self.samples
        return counts

    def act(self, obs: Observation, taken: Choice) -> float:
        matched: Bot | None = None
        hits = 0
        for s in range(self.samples):
            # The last sample decides in place; earlier ones on copies.
            bot = self.bot if s == self.samples - 1 else copy.deepcopy(self.bot)
            if choice_of(bot.decide(obs)) == taken:
                hits += 1
                matched = bot
        # Carry on with a copy that took the real action (its state follows the real line);
        # none did: the holding's weight is 0 and its probe no longer matters.
        if matched is not None:
            self.bot = matched
        return hits / self.samples


class SnapshotMaker:
    """Makes each holding's probe from one snapshot of the target (between two hands)."""

    exact = False

    def __init__(self, snapshot: Bot, samples: int = 1) -> None:
        self.snapshot = snapshot
        self.samples = samples

    def new(self, seed: int) -> SnapshotProbe:
        bot = copy.deepcopy(self.snapshot)
        reseed(bot, seed)
        return SnapshotProbe(bot, self.samples)


def probe_maker(snapshot: Bot, samples: int = 1) -> ProbeMaker:
    """The cheapest faithful probe for a snapshot of the target."""
    if type(snapshot) in STATELESS:
        return DeterministicProbe(snapshot)
    policy = getattr(snapshot, "action_probabilities", None)
    if callable(policy):
        return ExactProbe(policy)
    return SnapshotMaker(snapshot, samples)
