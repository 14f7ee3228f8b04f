"""The opponent network's training settings, apart from the training (which needs PyTorch).

`showdown train --watch` runs beside every AI worker with database access and fits a
network only once enough hands are stored (`ai.models.online`): its settings are read
without importing PyTorch, which is loaded at the first fit.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TrainConfig:
    hidden: int = 48
    epochs: int = 30
    batch: int = 512
    lr: float = 3e-3
    weight_decay: float = 1e-5
    patience: int = 3
    seed: int = 0
    anchor: float = 0.0  # L2 pull towards the starting weights (fine-tuning)


DEFAULT_CONFIG = TrainConfig()
