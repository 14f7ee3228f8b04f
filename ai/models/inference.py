"""The opponent network's forward pass in numpy: single queries and batches.

>>> import numpy as np
>>> from ai.models.features import MASK, NO_FOLD_COLUMN, RAISE_COLUMN
from ai.models.weights import NetWeights
>>> from ai.models.features import N_FEATURES, N_SIZES
>>> z = lambda *s: np.zeros(s, dtype=np.float32)
>>> w = NetWeights(z(N_FEATURES, 4), z(4), z(4, 4), z(4), z(4, 3), z(3), z(4, N_SIZES), z(N_SIZES))
>>> net = NumpyNet(w)
>>> [round(float(p), 3) for p in net.actions(z(N_FEATURES))]
[0.333, 0.333, 0.333]
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ai.models.features import MASK, NO_FOLD_COLUMN, RAISE_COLUMN
from ai.models.weights import NetWeights

F32 = npt.NDArray[np.float32]


def softmax(z: F32) -> F32:
    z = z - z.max(axis=-1, keepdims=True).astype(np.float32)
    np.exp(z, out=z)
    z /= z.sum(axis=-1, keepdims=True)
    return z


def _mask(logits: F32, x: F32) -> None:
    """Illegal actions (fold when checking is free, a raise when none is allowed) get 0."""
    logits[..., 0] += MASK * x[..., NO_FOLD_COLUMN]
    logits[..., 2] += MASK * (1.0 - x[..., RAISE_COLUMN])


class NumpyNet:
    """Holds the weights transposed and contiguous for `x @ W` on rows of features."""

    def __init__(self, weights: NetWeights) -> None:
        self.weights = weights
        self._w1 = weights.w1
        self._b1 = weights.b1
        self._w2 = weights.w2
        self._b2 = weights.b2
        self._wa = weights.w_action
        self._ba = weights.b_action
        self._ws = weights.w_size
        self._bs = weights.b_size

    def _hidden(self, x: F32) -> F32:
        h: F32 = x @ self._w1
        h += self._b1
        np.maximum(h, 0.0, out=h)
        h2: F32 = h @ self._w2
        h2 += self._b2
        np.maximum(h2, 0.0, out=h2)
        return h2

    def actions(self, x: F32) -> F32:
        """P(fold), P(check/call), P(bet/raise) for one feature row or a batch of rows."""
        logits = self._hidden(x) @ self._wa
        logits += self._ba
        _mask(logits, x)
        return softmax(logits)

    def both(self, x: F32) -> tuple[F32, F32]:
        """(action probabilities, bet-size bucket probabilities given a bet/raise)."""
        h = self._hidden(x)
        a = h @ self._wa
        a += self._ba
        _mask(a, x)
        s = h @ self._ws
        s += self._bs
        return softmax(a), softmax(s)
