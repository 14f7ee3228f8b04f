"""How good a probability triple is: accuracy, log-loss, Brier score, confusion, calibration.

>>> import numpy as np
>>> s = score(np.array([[0.8, 0.1, 0.1], [0.2, 0.2, 0.6]]), np.array([0, 1]))
>>> s.accuracy, round(s.log_loss, 3)
(0.5, 0.916)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
import numpy.typing as npt

F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]
ACTIONS = ("fold", "call", "raise")
EPS = 1e-6


@dataclass(frozen=True)
class Score:
    examples: int
    accuracy: float
    log_loss: float
    brier: float
    raise_recall: float  # share of actual bets/raises predicted as such
    confusion: list[list[int]]  # [actual][predicted]

    def brief(self) -> dict[str, float]:
        return {"accuracy": round(self.accuracy, 4), "log_loss": round(self.log_loss, 4)}

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def score(probs: F64, actions: I64) -> Score:
    n = len(actions)
    if n == 0:
        return Score(0, float("nan"), float("nan"), float("nan"), float("nan"), [[0] * 3] * 3)
    p = np.clip(probs, EPS, 1.0)
    p = p / p.sum(axis=1, keepdims=True)
    predicted = p.argmax(axis=1)
    onehot = np.eye(3)[actions]
    confusion = np.zeros((3, 3), dtype=np.int64)
    np.add.at(confusion, (actions, predicted), 1)
    raises = confusion[2].sum()
    return Score(
        examples=n,
        accuracy=float((predicted == actions).mean()),
        log_loss=float(-np.log(p[np.arange(n), actions]).mean()),
        brier=float(((p - onehot) ** 2).sum(axis=1).mean()),
        raise_recall=float(confusion[2, 2] / raises) if raises else float("nan"),
        confusion=confusion.tolist(),
    )


def calibration(probs: F64, actions: I64, bins: int = 10) -> list[list[tuple[float, float, int]]]:
    """Per action: (mean predicted probability, observed frequency, examples) per bin."""
    out = []
    for a in range(3):
        p = probs[:, a]
        hit = (actions == a).astype(np.float64)
        which = np.minimum((p * bins).astype(np.int64), bins - 1)
        rows = []
        for b in range(bins):
            mask = which == b
            count = int(mask.sum())
            if count:
                rows.append((float(p[mask].mean()), float(hit[mask].mean()), count))
        out.append(rows)
    return out
