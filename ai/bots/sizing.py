"""From what a bot wants (fold / passive / aggressive at a size) to a legal Decision.

Every bot goes through these helpers, so a bot can never answer an illegal
action: a fold when checking is free becomes a check, a raise that is not
allowed becomes a call (or check), amounts are clamped to [min_to, max_to], and
Limit always bets the fixed amount.

No-Limit sizes are pot-relative: a raise of fraction f makes it
`to = max_bet + f * (pot after calling)`; ALL_IN is the whole stack.
"""

from __future__ import annotations

import math

from ai.game.observation import Decision, Observation
from ai.sim.rules import CALL, CHECK, FOLD, SimLegal

HALF_POT = 0.5
POT = 1.0
ALL_IN = math.inf
NL_SIZES: tuple[float, ...] = (HALF_POT, POT, ALL_IN)


def passive(legal: SimLegal, reason: str = "", equity: float | None = None) -> Decision:
    """Check if free, else call."""
    return Decision(CHECK if legal.can_check else CALL, reason=reason, equity=equity)


def fold(legal: SimLegal, reason: str = "", equity: float | None = None) -> Decision:
    """Fold facing a bet; check when it is free (folding then is never right)."""
    return Decision(CHECK if legal.can_check else FOLD, reason=reason, equity=equity)


def raise_to_amount(obs: Observation, fraction: float) -> int:
    """The legal street total for a pot-relative raise (Limit: the fixed amount)."""
    legal = obs.legal
    if obs.limit or fraction == ALL_IN:
        return legal.min_to if obs.limit else legal.max_to
    after_call = obs.pot + legal.call_amount
    max_bet = legal.committed + legal.call_amount
    wanted = max_bet + round(fraction * after_call)
    return min(max(wanted, legal.min_to), legal.max_to)


def aggressive(
    obs: Observation, fraction: float = POT, reason: str = "", equity: float | None = None
) -> Decision:
    """Bet/raise by `fraction` of the pot if allowed, else call/check."""
    legal = obs.legal
    if legal.raise_kind is None:
        return passive(legal, reason, equity)
    to = raise_to_amount(obs, fraction)
    return Decision(legal.raise_kind, to, reason=reason, equity=equity)
