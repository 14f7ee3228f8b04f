"""The opponent network's forward pass on CPU: numba kernels for single rows and batches.

The network is small (two hidden layers of a few dozen units), so the cost of a
query is overhead, not arithmetic: one compiled kernel per call does the whole
forward pass, the illegal-action mask and the softmax, skipping zero inputs
(most features are 0/1 flags). `showdown bench ai` measures it beside torch.

>>> import numpy as np
>>> from ai.models.weights import NetWeights
>>> from ai.models.features import N_FEATURES, N_SIZES
>>> z = lambda *s: np.zeros(s, dtype=np.float32)
>>> w = NetWeights(z(N_FEATURES, 4), z(4), z(4, 4), z(4), z(4, 3), z(3), z(4, N_SIZES), z(N_SIZES))
>>> net = NumpyNet(w)
>>> x = z(N_FEATURES); x[RAISE_COLUMN] = 1.0
>>> [round(float(p), 3) for p in net.actions(x)]
[0.333, 0.333, 0.333]
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ai.math._jit import jit
from ai.models.features import MASK, NO_FOLD_COLUMN, RAISE_COLUMN
from ai.models.weights import NetWeights

F32 = npt.NDArray[np.float32]


@jit
def _forward(
    x: F32,
    w1: F32,
    b1: F32,
    w2: F32,
    b2: F32,
    wa: F32,
    ba: F32,
    ws: F32,
    bs: F32,
    no_fold: int,
    can_raise: int,
    mask: float,
    sizes: bool,
    out_a: F32,
    out_s: F32,
) -> None:
    rows, width = x.shape
    hidden = w1.shape[1]
    hidden2 = w2.shape[1]
    n_sizes = ws.shape[1]
    h = np.empty(hidden, dtype=np.float32)
    h2 = np.empty(hidden2, dtype=np.float32)
    for r in range(rows):
        h[:] = b1
        for k in range(width):
            v = x[r, k]
            if v != 0.0:
                for j in range(hidden):
                    h[j] += v * w1[k, j]
        h2[:] = b2
        for k in range(hidden):
            v = h[k]
            if v > 0.0:
                for j in range(hidden2):
                    h2[j] += v * w2[k, j]
        logits = ba.copy()
        for k in range(hidden2):
            v = h2[k]
            if v > 0.0:
                for j in range(3):
                    logits[j] += v * wa[k, j]
        logits[0] += mask * x[r, no_fold]
        logits[2] += mask * (1.0 - x[r, can_raise])
        top = max(logits[0], logits[1], logits[2])
        total = 0.0
        for j in range(3):
            e = np.exp(logits[j] - top)
            out_a[r, j] = e
            total += e
        for j in range(3):
            out_a[r, j] /= total
        if sizes:
            s = bs.copy()
            for k in range(hidden2):
                v = h2[k]
                if v > 0.0:
                    for j in range(n_sizes):
                        s[j] += v * ws[k, j]
            top = s.max()
            total = 0.0
            for j in range(n_sizes):
                e = np.exp(s[j] - top)
                out_s[r, j] = e
                total += e
            for j in range(n_sizes):
                out_s[r, j] /= total


class NumpyNet:
    """The exported weights and the compiled forward pass over rows of features."""

    def __init__(self, weights: NetWeights) -> None:
        self.weights = weights
        self._args = (
            weights.w1,
            weights.b1,
            weights.w2,
            weights.b2,
            weights.w_action,
            weights.b_action,
            weights.w_size,
            weights.b_size,
        )
        self._n_sizes = weights.w_size.shape[1]
        self._no_sizes = np.empty((0, self._n_sizes), dtype=np.float32)

    def _run(self, x: F32, sizes: bool) -> tuple[F32, F32]:
        rows = np.ascontiguousarray(x, dtype=np.float32).reshape(-1, x.shape[-1])
        out_a = np.empty((rows.shape[0], 3), dtype=np.float32)
        out_s = (
            np.empty((rows.shape[0], self._n_sizes), dtype=np.float32) if sizes else self._no_sizes
        )
        _forward(rows, *self._args, NO_FOLD_COLUMN, RAISE_COLUMN, MASK, sizes, out_a, out_s)
        if x.ndim == 1:
            return out_a[0], (out_s[0] if sizes else out_s)
        return out_a, out_s

    def actions(self, x: F32) -> F32:
        """P(fold), P(check/call), P(bet/raise) for one feature row or a batch of rows."""
        return self._run(x, False)[0]

    def both(self, x: F32) -> tuple[F32, F32]:
        """(action probabilities, bet-size bucket probabilities given a bet/raise)."""
        return self._run(x, True)
