"""A trained network's weights as plain numpy arrays: what is stored, shipped and evaluated.

Training is PyTorch (`ai.models.training`); the search asks the model millions of
times, so inference runs the same small network in numpy (`ai.models.inference`),
without torch in the loop. Weights travel as an .npz blob (MongoDB, files).
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ai.models.features import FEATURES

F32 = npt.NDArray[np.float32]


@dataclass(frozen=True)
class NetWeights:
    """Two hidden ReLU layers; an action head (fold, call, raise) and a bet-size head."""

    w1: F32
    b1: F32
    w2: F32
    b2: F32
    w_action: F32
    b_action: F32
    w_size: F32
    b_size: F32
    features: tuple[str, ...] = FEATURES

    def to_bytes(self) -> bytes:
        buffer = io.BytesIO()
        arrays = {k: getattr(self, k) for k in _ARRAYS}
        np.savez_compressed(buffer, features=np.asarray(self.features), **arrays)
        return buffer.getvalue()

    @classmethod
    def from_bytes(cls, blob: bytes) -> NetWeights:
        with np.load(io.BytesIO(blob), allow_pickle=False) as data:
            features = tuple(str(f) for f in data["features"])
            if features != FEATURES:
                raise ValueError("these weights were trained on other features")
            arrays = {k: np.ascontiguousarray(data[k], dtype=np.float32) for k in _ARRAYS}
        return cls(features=features, **arrays)


_ARRAYS = ("w1", "b1", "w2", "b2", "w_action", "b_action", "w_size", "b_size")
