"""Training the opponent network with PyTorch (CPU), and exporting it to numpy weights.

The loss is the log-loss of the action taken plus, on No-Limit bets and raises,
the log-loss of the size bucket. Early stopping on a held-out tenth of the hands.
Fine-tuning a player's copy starts from the population weights and is pulled
back towards them (an L2 penalty on the difference), so a few hundred hands
adjust the model without forgetting what the population taught it.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import torch
from torch import nn

from ai.models.dataset import NO_SIZE, Dataset
from ai.models.features import MASK, N_FEATURES, N_SIZES, NO_FOLD_COLUMN, RAISE_COLUMN
from ai.models.train_config import DEFAULT_CONFIG as DEFAULT_CONFIG  # named here as before
from ai.models.train_config import TrainConfig as TrainConfig
from ai.models.weights import NetWeights

Progress = Callable[[int, int, float], None]  # (epoch, epochs, validation loss)


class OpponentNet(nn.Module):
    def __init__(self, hidden: int) -> None:
        super().__init__()
        self.l1 = nn.Linear(N_FEATURES, hidden)
        self.l2 = nn.Linear(hidden, hidden)
        self.action = nn.Linear(hidden, 3)
        self.size = nn.Linear(hidden, N_SIZES)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = torch.relu(self.l2(torch.relu(self.l1(x))))
        logits = self.action(h)
        mask = torch.stack(
            (x[:, NO_FOLD_COLUMN], torch.zeros_like(x[:, 0]), 1.0 - x[:, RAISE_COLUMN]), dim=1
        )
        out: tuple[torch.Tensor, torch.Tensor] = (logits + MASK * mask, self.size(h))
        return out

    def export(self) -> NetWeights:
        def arr(t: torch.Tensor) -> np.ndarray:
            return np.ascontiguousarray(t.detach().numpy().astype(np.float32))

        return NetWeights(
            arr(self.l1.weight.T),
            arr(self.l1.bias),
            arr(self.l2.weight.T),
            arr(self.l2.bias),
            arr(self.action.weight.T),
            arr(self.action.bias),
            arr(self.size.weight.T),
            arr(self.size.bias),
        )

    @classmethod
    def of(cls, weights: NetWeights) -> OpponentNet:
        net = cls(weights.w1.shape[1])
        with torch.no_grad():
            for layer, w, b in (
                (net.l1, weights.w1, weights.b1),
                (net.l2, weights.w2, weights.b2),
                (net.action, weights.w_action, weights.b_action),
                (net.size, weights.w_size, weights.b_size),
            ):
                layer.weight.copy_(torch.from_numpy(w.T.copy()))
                layer.bias.copy_(torch.from_numpy(b.copy()))
        return net


def _split(data: Dataset, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows of ~90% and ~10% of the hands (a hand's decisions stay together)."""
    hands = np.unique(data.hand)
    rng = np.random.default_rng(seed)
    held = rng.random(len(hands)) < 0.1
    if held.all() or not held.any():
        held = np.zeros(len(hands), dtype=bool)
        held[: max(1, len(hands) // 10)] = True
    held_rows = np.isin(data.hand, hands[held])
    return np.flatnonzero(~held_rows), np.flatnonzero(held_rows)


def _loss(net: OpponentNet, x: torch.Tensor, a: torch.Tensor, s: torch.Tensor) -> torch.Tensor:
    logits_a, logits_s = net(x)
    loss = nn.functional.cross_entropy(logits_a, a, reduction="sum")
    sized = s != NO_SIZE
    if bool(sized.any()):
        loss = loss + nn.functional.cross_entropy(logits_s[sized], s[sized], reduction="sum")
    return loss / max(len(a), 1)


def train(
    data: Dataset,
    config: TrainConfig = DEFAULT_CONFIG,
    start: NetWeights | None = None,
    progress: Progress | None = None,
) -> NetWeights:
    """Train on `data` (from `start`'s weights when given) and return the best epoch's weights."""
    if len(data) == 0:
        raise ValueError("no examples to train on")
    torch.manual_seed(config.seed)
    net = OpponentNet.of(start) if start is not None else OpponentNet(config.hidden)
    anchor = [p.detach().clone() for p in net.parameters()] if config.anchor > 0 else []
    fit_rows, held_rows = _split(data, config.seed)
    x = torch.from_numpy(data.x)
    a = torch.from_numpy(data.action)
    s = torch.from_numpy(data.size)
    optimiser = torch.optim.Adam(net.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    rng = np.random.default_rng(config.seed)
    best = float("inf")
    best_weights = net.export()
    stale = 0
    held = torch.from_numpy(held_rows)
    for epoch in range(config.epochs):
        net.train()
        order = rng.permutation(fit_rows)
        for begin in range(0, len(order), config.batch):
            rows = torch.from_numpy(order[begin : begin + config.batch])
            loss = _loss(net, x[rows], a[rows], s[rows])
            if anchor:
                pull = sum(
                    ((p - q) ** 2).sum() for p, q in zip(net.parameters(), anchor, strict=True)
                )
                loss = loss + config.anchor * pull
            optimiser.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            optimiser.step()
        net.eval()
        with torch.no_grad():
            held_loss = float(_loss(net, x[held], a[held], s[held]))
        if progress is not None:
            progress(epoch + 1, config.epochs, held_loss)
        if held_loss < best - 1e-4:
            best, best_weights, stale = held_loss, net.export(), 0
        else:
            stale += 1
            if stale >= config.patience:
                break
    return best_weights
