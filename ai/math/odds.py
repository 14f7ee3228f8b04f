"""Closed-form poker odds: effective strength, pot odds, showdown odds (DOMAIN.md §2).

>>> effective_strength(0.5, 0.2, 0.1)
0.55
>>> optimistic_strength(0.5, 0.2)
0.6
>>> pot_odds(to_call=10, pot=30)
0.25
>>> showdown_odds(to_call=10, pot=30, future_bets=20, opponents=1)  # 30 of a final 80
0.375
"""

from __future__ import annotations


def effective_strength(hs: float, ppot: float, npot: float) -> float:
    """EHS = HS * (1 - NPot) + (1 - HS) * PPot."""
    return hs * (1.0 - npot) + (1.0 - hs) * ppot


def optimistic_strength(hs: float, ppot: float) -> float:
    """EHS' = HS + (1 - HS) * PPot: assumes we never lose once ahead (used for betting)."""
    return hs + (1.0 - hs) * ppot


def multiway_strength(hs: float, opponents: int) -> float:
    """HS_n ~ HS^n: chance of beating n opponents whose hands are independent."""
    if opponents < 1:
        raise ValueError("need at least one opponent")
    return float(hs**opponents)


def pot_odds(to_call: float, pot: float) -> float:
    """Share of the final pot we pay to call: to_call / (to_call + pot).

    `pot` is everything already in the middle, including the bet we face.
    """
    if to_call < 0 or pot < 0:
        raise ValueError("amounts must be non-negative")
    if to_call == 0:
        return 0.0
    return to_call / (to_call + pot)


def showdown_odds(to_call: float, pot: float, future_bets: float, opponents: int = 1) -> float:
    """The win probability that breaks even when calling all the way to the showdown.

    We pay `to_call` now and `future_bets` on later streets; each of `opponents` puts in
    `future_bets` too. Compare with EHS for medium hands (Loki's "showdown odds" rule);
    with no future bets this is the pot odds.
    """
    if min(to_call, pot, future_bets) < 0 or opponents < 1:
        raise ValueError("amounts must be non-negative and opponents >= 1")
    cost = to_call + future_bets
    final_pot = pot + to_call + future_bets * (1 + opponents)
    return cost / final_pot if final_pot > 0 else 0.0
