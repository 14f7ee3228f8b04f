"""Random numbers for numba kernels: per-task seeds, and a tiny xorshift64 generator.

Kernels that use numba's generator call `np.random.seed(task_seed)` first; numba's
generator state is per thread, so a kernel run in any worker thread draws the same
numbers for the same seed.

Kernels called thousands of times per decision (the bots' samplers) carry their own
xorshift64 state in an int64 instead: reproducible from a seed, and nothing to reseed
per call.

>>> task_seed(1, 2, 3) == task_seed(1, 2, 3) != task_seed(1, 2, 4)
True
>>> seed_state(7) == seed_state(7) != seed_state(8)
True
>>> 0 <= below(next_state(seed_state(7)), 52) < 52
True
"""

from __future__ import annotations

import numpy as np

from ai.math._jit import jit

_LOW57 = (1 << 57) - 1
_LOW53 = (1 << 53) - 1


def task_seed(*parts: int) -> int:
    """A 32-bit seed mixed from a base seed and task coordinates (numba's seed range)."""
    return int(np.random.SeedSequence([int(p) for p in parts]).generate_state(1)[0])


@jit
def next_state(x: int) -> int:
    """xorshift64 step; right shifts are made logical on the signed int."""
    x ^= x << 13
    x ^= (x >> 7) & _LOW57
    x ^= x << 17
    return x


@jit
def below(x: int, n: int) -> int:
    """A number in [0, n) from the state's high 53 bits (multiply-shift, no division)."""
    return (((x >> 11) & _LOW53) * n) >> 53


@jit
def seed_state(seed: int) -> int:
    """The first state of the stream for `seed`."""
    x = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) | 1
    for _ in range(4):
        x = next_state(x)
    return x
