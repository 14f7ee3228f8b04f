"""The cost context of a decision: what calling costs, against the pot or the bet unit.

The search's kernel keys the opponents' tables by it, and the blueprint prior
(`ai.search.blueprint_prior`) files the blueprint's shares under the same keys; one
definition below both (the kernel imports the prior's users).

A fourth context (`RAISED`, `context_of`) splits Limit's "one bet to call" after the
flop: the player already put chips in this street (heads-up: its bet or raise was
raised) against a bet into its check. Every player answers the two differently (loki
re-raises our raise of its turn bet 48% of the time and our bet into its check 8%:
docs/experiments/2026-11-29-answers-to-our-raises.md). Preflop stays pooled: the
search starts on the flop in play, and the blinds' chips are not a choice.

>>> cost_of(0, 10, 2, False), cost_of(5, 10, 2, False), cost_of(6, 10, 2, False)
(0, 1, 2)
>>> cost_of(2, 10, 2, True), cost_of(4, 10, 2, True)
(1, 2)
>>> context_of(2, 10, 2, True, 1, 2), context_of(2, 10, 2, True, 1, 0)
(3, 1)
>>> context_of(2, 10, 2, True, 0, 2), context_of(2, 10, 2, False, 1, 2)
(1, 1)
"""

from __future__ import annotations

from ai.math._jit import jit

# The contexts: nothing, one bet, two or more to call, and one bet to call after the
# player's own chips this street (Limit, after the flop).
NONE, ONE_BET, TWO_BETS, RAISED, CONTEXTS = 0, 1, 2, 3, 4


@jit
def cost_of(call: int, pot: int, unit: int, limit: bool) -> int:
    """0: nothing to call; 1: a small bet (one unit at Limit, at most half the pot with
    the call in it at No-Limit); 2: more."""
    if call <= 0:
        return 0
    if limit:
        return 1 if call <= unit else 2
    return 1 if 2 * call <= pot else 2


@jit
def context_of(call: int, pot: int, unit: int, limit: bool, street: int, committed: int) -> int:
    """`cost_of`, but 3 (`RAISED`) for one bet to call at Limit after the flop when the
    player has `committed` chips in this street already."""
    cost = cost_of(call, pot, unit, limit)
    if cost == 1 and limit and street > 0 and committed > 0:
        return 3
    return cost
