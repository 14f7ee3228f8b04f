"""The cost context of a decision: what calling costs, against the pot or the bet unit.

The search's kernel keys the opponents' tables by it, and the blueprint prior
(`ai.search.blueprint_prior`) files the blueprint's shares under the same keys; one
definition below both (the kernel imports the prior's users).

>>> cost_of(0, 10, 2, False), cost_of(5, 10, 2, False), cost_of(6, 10, 2, False)
(0, 1, 2)
>>> cost_of(2, 10, 2, True), cost_of(4, 10, 2, True)
(1, 2)
"""

from __future__ import annotations

from ai.math._jit import jit


@jit
def cost_of(call: int, pot: int, unit: int, limit: bool) -> int:
    """0: nothing to call; 1: a small bet (one unit at Limit, at most half the pot with
    the call in it at No-Limit); 2: more."""
    if call <= 0:
        return 0
    if limit:
        return 1 if call <= unit else 2
    return 1 if 2 * call <= pot else 2
