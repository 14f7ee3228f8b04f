"""Seeds for numba kernels: one independent, reproducible stream per task.

Kernels call `np.random.seed(task_seed)` first; numba's generator state is per thread,
so a kernel run in any worker thread draws the same numbers for the same seed.

>>> task_seed(1, 2, 3) == task_seed(1, 2, 3) != task_seed(1, 2, 4)
True
"""

from __future__ import annotations

import numpy as np


def task_seed(*parts: int) -> int:
    """A 32-bit seed mixed from a base seed and task coordinates (numba's seed range)."""
    return int(np.random.SeedSequence([int(p) for p in parts]).generate_state(1)[0])
