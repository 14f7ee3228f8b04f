"""Action translation: an off-tree bet size mapped onto the tree's sizes.

The pseudo-harmonic mapping (Ganzfried and Sandholm, 2013): sizes as fractions of the
pot; a bet x between the tree's sizes A < B maps to A with probability
f(x) = (B - x)(1 + A) / ((B - A)(1 + x)), else to B. It is exact at A and B, monotone
between them, and scale invariant; its authors found it far less exploitable than
mapping to the nearest size (between half pot and pot the split falls at 5/7 pot).
The lookup takes the more likely side, so a decision is deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence


def pseudo_harmonic(x: float, a: float, b: float) -> float:
    """Probability of mapping x onto the smaller size a (a <= x <= b)."""
    if b <= a:
        return 1.0
    x = min(max(x, a), b)
    return (b - x) * (1.0 + a) / ((b - a) * (1.0 + x))


def translate(x: float, sizes: Sequence[float]) -> int:
    """The index of the tree size a bet of pot fraction x maps to (sizes ascending)."""
    if not sizes:
        raise ValueError("no sizes to translate onto")
    if x <= sizes[0]:
        return 0
    for i in range(len(sizes) - 1):
        if x <= sizes[i + 1]:
            return i if pseudo_harmonic(x, sizes[i], sizes[i + 1]) >= 0.5 else i + 1
    return len(sizes) - 1
