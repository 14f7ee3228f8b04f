"""A typed wrapper around numba's njit so mypy --strict keeps the decorated signatures.

Numba's disk cache is keyed on each kernel's own source file: after editing a kernel
that others inline (`ai.math.evaluator.value_of`), delete ai/math/__pycache__/*.nb[ic]
during development. Installs and fresh checkouts always compile afresh.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba

F = TypeVar("F", bound=Callable[..., Any])


def jit(fn: F) -> F:
    """Compile in nopython mode, cache the machine code on disk, release the GIL.

    `cache=True` keeps the compile cost (seconds) out of every process after the first.
    """
    return cast(F, numba.njit(cache=True, nogil=True)(fn))
