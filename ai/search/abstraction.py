"""Our action abstraction, and opponents' bet sizes as tree keys.

No-Limit: fold, check/call, the minimum raise, half pot, pot, two pots, all-in
(amounts deduplicated and always within the legal range). Limit: fold,
check/call, bet/raise. An opponent's bet is keyed by its size bucket (the
opponent model's buckets, `ai.models.features.SIZE_LABELS`): a size off those
buckets is translated to the nearest one on a log scale.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from ai.models.features import ALL_IN_BUCKET, SIZE_FRACTIONS
from ai.sim.rules import BET, CALL, CHECK, FOLD, SimLegal

# Pot fractions of the pot after calling: half pot, pot, two pots.
OUR_FRACTIONS: tuple[float, ...] = (0.5, 1.0, 2.0)
_LOG_FRACTIONS = tuple(math.log(f) for f in SIZE_FRACTIONS)


class TreeAction(NamedTuple):
    kind: int
    to: int  # street total of a bet/raise, 0 otherwise
    label: str  # "fold", "check", "call", "raise", "bet 12" (advice's labels)


def raise_to(pot: int, legal: SimLegal, fraction: float) -> int:
    """The street total of a raise of `fraction` of the pot after calling, made legal.

    >>> legal = SimLegal(0, 1, True, False, 2, True, 4, 4, 200, 0, 200, (0, 2, 4))
    >>> raise_to(3, legal, 1.0), raise_to(3, legal, 100.0)
    (7, 200)
    """
    call = legal.call_amount
    wanted = legal.committed + call + round(fraction * (pot + call))
    return min(max(wanted, legal.min_to), legal.max_to)


def our_actions(pot: int, legal: SimLegal, limit: bool) -> list[TreeAction]:
    """Our abstract actions at a spot: passive first, then raises by size (tie order).

    >>> legal = SimLegal(0, 1, True, False, 2, True, 4, 4, 200, 0, 200, (0, 2, 4))
    >>> [a.label for a in our_actions(3, legal, False)]
    ['fold', 'call', 'raise 4', 'raise 7', 'raise 12', 'raise 200']
    """
    out: list[TreeAction] = []
    if legal.can_fold:
        out.append(TreeAction(FOLD, 0, "fold"))
    out.append(TreeAction(CHECK, 0, "check") if legal.can_check else TreeAction(CALL, 0, "call"))
    kind = legal.raise_kind
    if kind is not None:
        word = "bet" if kind == BET else "raise"
        if limit:
            out.append(TreeAction(kind, legal.min_to, word))
        else:
            amounts = {legal.min_to, legal.max_to}
            amounts.update(raise_to(pot, legal, f) for f in OUR_FRACTIONS)
            out.extend(TreeAction(kind, to, f"{word} {to}") for to in sorted(amounts))
    return out


def size_bucket(pot: int, legal: SimLegal, to: int) -> int:
    """The size bucket of a bet/raise to `to`: all-in, else the nearest fraction (log scale).

    >>> legal = SimLegal(0, 1, True, False, 2, True, 4, 4, 200, 0, 200, (0, 2, 4))
    >>> size_bucket(3, legal, 7), size_bucket(3, legal, 5), size_bucket(3, legal, 200)
    (3, 1, 5)
    """
    if to >= legal.committed + legal.stack:
        return ALL_IN_BUCKET
    call = legal.call_amount
    extra = to - legal.committed - call
    fraction = max(extra, 1) / max(pot + call, 1)
    lf = math.log(fraction)
    return min(range(len(_LOG_FRACTIONS)), key=lambda b: abs(_LOG_FRACTIONS[b] - lf))


def bucket_amount(pot: int, legal: SimLegal, bucket: int) -> int:
    """A legal street total for a size bucket."""
    if bucket >= ALL_IN_BUCKET:
        return legal.max_to
    return raise_to(pot, legal, SIZE_FRACTIONS[bucket])
