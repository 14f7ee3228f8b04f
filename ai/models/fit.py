"""Fitting a new model version: the population network, per-player copies, acceptance.

The newest tenth of the hands is held out (the model is used on future hands,
so it is judged on the latest ones). The population network is trained on the
rest and accepted only if its held-out log-loss is no worse than the current
version's on the same decisions. A player with at least MIN_PLAYER_HANDS hands
gets a copy fine-tuned on their decisions, kept only if it beats the
population network on their held-out decisions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ai.models.dataset import Dataset, build_dataset
from ai.models.inference import NumpyNet
from ai.models.metrics import score
from ai.models.model import ModelSet
from ai.models.public import PublicHand
from ai.models.stats import StatsBook
from ai.models.training import DEFAULT_CONFIG, TrainConfig, train
from ai.models.weights import NetWeights

MIN_PLAYER_HANDS = 200
MAX_PLAYER_MODELS = 200
TOLERANCE = 1e-3  # log-loss a new version may lose to noise and still be "no worse"
# Chosen by comparing three settings on 200 hands of each style (docs/models.md).
FINE_TUNE = TrainConfig(epochs=15, lr=3e-4, anchor=1e-2, patience=3)


@dataclass
class FitResult:
    accepted: bool
    generic: NetWeights
    players: dict[str, tuple[NetWeights, int]]
    metrics: dict[str, object]
    book: StatsBook
    data: Dataset = field(repr=False)


def holdout_rows(data: Dataset, share: float = 0.1) -> tuple[np.ndarray, np.ndarray]:
    """(fit rows, held-out rows): the held-out rows are the decisions of the newest hands."""
    cut = int(np.quantile(data.hand, 1.0 - share)) if len(data) else 0
    return np.flatnonzero(data.hand < cut), np.flatnonzero(data.hand >= cut)


def fit_version(
    hands: Sequence[PublicHand],
    current: ModelSet | None,
    config: TrainConfig = DEFAULT_CONFIG,
    log: Callable[[str], None] = lambda _: None,
) -> FitResult:
    data, book = build_dataset(hands)
    fit, held = holdout_rows(data)
    if len(fit) == 0 or len(held) == 0:
        raise ValueError("too few hands to train and hold some out")
    log(f"{len(data)} decisions from {len(hands)} hands; {len(held)} held out")
    generic = train(data.take(fit), config)
    net = NumpyNet(generic)
    held_x, held_a = data.x[held], data.action[held]
    new = score(net.actions(held_x).astype(np.float64), held_a)
    metrics: dict[str, object] = {
        "examples": len(data),
        "held_out": len(held),
        "accuracy": new.accuracy,
        "log_loss": new.log_loss,
    }
    accepted = True
    if current is not None and current.generic is not None:
        old = score(current.generic.actions(held_x).astype(np.float64), held_a)
        metrics["previous_log_loss"] = old.log_loss
        accepted = new.log_loss <= old.log_loss + TOLERANCE
    log(f"held-out log-loss {new.log_loss:.4f}" + (" (accepted)" if accepted else " (rejected)"))
    players = fit_players(data, book, fit, held, generic, log) if accepted else {}
    metrics["player_models"] = len(players)
    return FitResult(accepted, generic, players, metrics, book, data)


def fit_players(
    data: Dataset,
    book: StatsBook,
    fit: np.ndarray,
    held: np.ndarray,
    generic: NetWeights,
    log: Callable[[str], None],
) -> dict[str, tuple[NetWeights, int]]:
    """Fine-tuned copies for the players with enough hands, kept where they help."""
    net = NumpyNet(generic)
    eligible = [p for p in data.players if book.peek(p).hands >= MIN_PLAYER_HANDS]
    eligible.sort(key=lambda p: -book.peek(p).hands)
    out: dict[str, tuple[NetWeights, int]] = {}
    in_fit = np.zeros(len(data), dtype=bool)
    in_fit[fit] = True
    for player in eligible[:MAX_PLAYER_MODELS]:
        mine = data.player == data.players.index(player)
        own_fit, own_held = np.flatnonzero(mine & in_fit), np.flatnonzero(mine & ~in_fit)
        if len(own_fit) < 50 or len(own_held) < 20:
            continue
        tuned = train(data.take(own_fit), FINE_TUNE, start=generic)
        x, a = data.x[own_held], data.action[own_held]
        before = score(net.actions(x).astype(np.float64), a).log_loss
        after = score(NumpyNet(tuned).actions(x).astype(np.float64), a).log_loss
        if after < before:
            out[player] = (tuned, len(own_fit))
            log(f"player {player}: log-loss {before:.3f} -> {after:.3f}")
    return out


@dataclass(frozen=True)
class Adaptation:
    player: str
    type: str
    tuned_on: int  # decisions of the player's 200 hands
    evaluated_on: int  # the player's next decisions
    generic_log_loss: float
    player_log_loss: float


def adaptation(
    data: Dataset,
    hands: int = MIN_PLAYER_HANDS,
    next_decisions: int = 1000,
    config: TrainConfig = DEFAULT_CONFIG,
) -> list[Adaptation]:
    """Per player: the population network trained on the first half of the hands, then a
    copy tuned on the player's next `hands` hands; both scored on their next decisions."""
    half = int(np.median(data.hand))
    generic = train(data.take(np.flatnonzero(data.hand < half)), config)
    net = NumpyNet(generic)
    out = []
    for code, player in enumerate(data.players):
        rows = np.flatnonzero((data.player == code) & (data.hand >= half))
        own_hands = np.unique(data.hand[rows])
        if len(own_hands) <= hands:
            continue
        cut = own_hands[hands]
        tune = rows[data.hand[rows] < cut]
        test = rows[data.hand[rows] >= cut][:next_decisions]
        if len(test) == 0:
            continue
        tuned = train(data.take(tune), FINE_TUNE, start=generic)
        x, a = data.x[test], data.action[test]
        out.append(
            Adaptation(
                player,
                data.types[code],
                len(tune),
                len(test),
                score(net.actions(x).astype(np.float64), a).log_loss,
                score(NumpyNet(tuned).actions(x).astype(np.float64), a).log_loss,
            )
        )
    return out
