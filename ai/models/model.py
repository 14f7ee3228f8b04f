"""The one opponent model: what every bot, the search and the advice ask about a player.

`OpponentModel.predict(obs)` gives, for the player to act at `obs`, the
probability of fold / check-call / bet-raise from the public context, and in
No-Limit a distribution over bet-size buckets. The numbers come from the
learned networks of a `ModelSet` (a population network, and per-player copies
fine-tuned on that player's hands, blended by how much data the player has);
a player's statistics (`StatsBook`, the frequency tables) are both an input of
the networks and the fallback when no network has been trained yet.

Conditioned on a holding's strength, the same prediction re-weights a player's
range (`ai.models.ranges`): reads, ranges and rollouts all come from here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

from ai.game.observation import Observation
from ai.models.features import N_SIZES, features
from ai.models.inference import NumpyNet
from ai.models.stats import PlayerStats, StatsBook, cost_bucket
from ai.models.weights import NetWeights

F64 = npt.NDArray[np.float64]
F32 = npt.NDArray[np.float32]
# A player's own network counts fully once it was tuned on this many decisions.
BLEND_DECISIONS = 600
# Bet sizes when no network says otherwise: mostly half pot to pot.
PRIOR_SIZES: F64 = np.array([0.1, 0.3, 0.2, 0.3, 0.05, 0.05])
DEFAULT_MODEL = "generic.npz"


@dataclass(frozen=True)
class PlayerNet:
    net: NumpyNet
    decisions: int  # how many of the player's decisions it was tuned on


@dataclass(frozen=True)
class ModelSet:
    """One version of the learned models, as every worker loads it."""

    version: str
    generic: NumpyNet | None
    players: Mapping[str, PlayerNet] = field(default_factory=dict)
    metrics: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def frequency_only(cls) -> ModelSet:
        return cls("frequency-tables", None)


def packaged_model() -> ModelSet:
    """The population network shipped with the code (trained on recorded bot matches),
    or the frequency tables alone when it is missing."""
    source = resources.files("ai.models").joinpath(DEFAULT_MODEL)
    if not source.is_file():
        return ModelSet.frequency_only()
    weights = NetWeights.from_bytes(source.read_bytes())
    return ModelSet("packaged", NumpyNet(weights))


_SHARED: list[ModelSet] = []


def shared_models() -> ModelSet:
    """The models this process's bots use: the packaged ones until `use_models` is called."""
    if not _SHARED:
        _SHARED.append(packaged_model())
    return _SHARED[0]


def use_models(models: ModelSet) -> None:
    """Switch this process's bots to `models` (a worker loading a new version)."""
    _SHARED[:] = [models]


class ActionProbs:
    """P(fold), P(check/call), P(bet/raise), and bet-size bucket shares given a bet/raise."""

    __slots__ = ("actions", "sizes")

    def __init__(self, actions: F64, sizes: F64) -> None:
        self.actions = actions
        self.sizes = sizes

    @property
    def fold(self) -> float:
        return float(self.actions[0])

    @property
    def call(self) -> float:
        return float(self.actions[1])

    @property
    def raise_(self) -> float:
        return float(self.actions[2])


class OpponentModel:
    """A ModelSet (shared, immutable) and the statistics one observer keeps of the players."""

    def __init__(self, models: ModelSet | None = None, book: StatsBook | None = None) -> None:
        self._models = models  # None: follow the process's shared models (`use_models`)
        self.book = book if book is not None else StatsBook()

    @property
    def models(self) -> ModelSet:
        return self._models if self._models is not None else shared_models()

    @property
    def learned(self) -> bool:
        return self.models.generic is not None

    def stats(self, player: str) -> PlayerStats:
        return self.book.peek(player)

    def networks(self, player: str, x: F32) -> tuple[F64, F64]:
        """(actions, sizes) for feature rows of `player`: the population network, blended
        with the player's own copy by how many of their decisions it was tuned on."""
        generic = self.models.generic
        assert generic is not None
        actions, sizes = generic.both(x)
        a = actions.astype(np.float64)
        s = sizes.astype(np.float64)
        own = self.models.players.get(player)
        if own is not None:
            weight = min(1.0, own.decisions / BLEND_DECISIONS)
            a2, s2 = own.net.both(x)
            a = (1 - weight) * a + weight * a2
            s = (1 - weight) * s + weight * s2
        return a, s

    def predict(self, obs: Observation) -> ActionProbs:
        """The prediction for the player to act at `obs`."""
        return self.predict_for(obs, obs.index)

    def predict_for(self, obs: Observation, index: int) -> ActionProbs:
        """The prediction for player `index` at `obs`: exact for the player to act; for
        another player, as if they were to act now (their statistics, this spot's public
        context and the actor's legal options)."""
        player = obs.player_id(index)
        stats = self.book.peek(player)
        if self.models.generic is None:
            cost = cost_bucket(obs.legal.call_amount, obs.bet_unit, obs.pot, obs.limit)
            shares = np.asarray(stats.frequencies(obs.street, cost), dtype=np.float64)
            return ActionProbs(_legal_only(shares, obs), PRIOR_SIZES)
        actions, sizes = self.networks(player, features(_as_seen_by(obs, index), stats))
        return ActionProbs(_legal_only(actions, obs), sizes)


def _as_seen_by(obs: Observation, index: int) -> Observation:
    """`obs` with `index` as the player the features describe (their line, position and
    chips); the legal options stay the actor's, which the callers override or mask."""
    return obs if index == obs.index else dataclasses.replace(obs, index=index)


def _legal_only(shares: F64, obs: Observation) -> F64:
    """No fold when checking is free, no raise when none is allowed; renormalised."""
    out = shares.copy()
    legal = obs.legal
    if not legal.can_fold:
        out[1] += out[0]
        out[0] = 0.0
    if legal.raise_kind is None:
        out[1] += out[2]
        out[2] = 0.0
    total = out.sum()
    return out / total if total > 0 else np.array([0.0, 1.0, 0.0])


__all__ = [
    "N_SIZES",
    "ActionProbs",
    "ModelSet",
    "OpponentModel",
    "PlayerNet",
    "packaged_model",
    "shared_models",
    "use_models",
]
