"""The Independent Chip Model: stacks -> each player's expected share of the prizes.

Malmuth-Harville: a player finishes first with probability stack / total; given the
winner, the others finish second in the same proportion among themselves, and so on.
`icm_exact` sums that over every ordering of the paid places with a dynamic program
over the set of players placed so far (2^n states, pruned to the sets no larger than
the places paid), exact up to EXACT_LIMIT players. `icm_monte_carlo` samples finishing
orders instead: ordering the players by independent exponential times of rate = stack
draws exactly the Harville order (the first to "fire" wins), so its mean converges to
the exact value at any field size. `icm` picks one of the two.

Stacks are those of the players still in; `prizes[k]` is paid for place k + 1 among
them (the places of the players already out are settled and not listed).

>>> [round(e, 4) for e in icm_exact([5000, 3000, 2000], [50, 30, 20])]
[38.3929, 32.75, 28.8571]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from ai.math._jit import jit

EXACT_LIMIT = 20
FloatArray = NDArray[np.float64]


class IcmError(ValueError):
    """Stacks or prizes that describe no tournament."""


def _check(stacks: Sequence[float], prizes: Sequence[float]) -> tuple[FloatArray, FloatArray]:
    s = np.asarray(stacks, dtype=np.float64)
    p = np.asarray(prizes, dtype=np.float64)
    if s.ndim != 1 or len(s) == 0:
        raise IcmError("need the stacks of one player at least")
    if np.any(s < 0) or not np.all(np.isfinite(s)) or s.sum() <= 0:
        raise IcmError("stacks must be finite, non-negative and not all zero")
    if p.ndim != 1 or np.any(p < 0) or not np.all(np.isfinite(p)):
        raise IcmError("prizes must be finite and non-negative")
    paid = min(len(p), len(s))
    return s, np.concatenate([p[:paid], np.zeros(len(s) - paid)])


@jit
def _harville(stacks: FloatArray, prizes: FloatArray, paid: int) -> FloatArray:
    n = stacks.shape[0]
    total = stacks.sum()
    reach = np.zeros(1 << n)  # probability that exactly this set holds the top places
    placed_chips = np.zeros(1 << n)
    size = np.zeros(1 << n, dtype=np.int64)
    reach[0] = 1.0
    equity = np.zeros(n)
    for mask in range(1 << n):  # supersets come later: a forward pass is enough
        p = reach[mask]
        if p == 0.0 or size[mask] >= paid:
            continue
        left = total - placed_chips[mask]
        if left <= 0.0:
            continue
        prize = prizes[size[mask]]
        for i in range(n):
            bit = 1 << i
            if mask & bit or stacks[i] == 0.0:
                continue
            q = p * stacks[i] / left
            equity[i] += q * prize
            nxt = mask | bit
            if reach[nxt] == 0.0:
                placed_chips[nxt] = placed_chips[mask] + stacks[i]
                size[nxt] = size[mask] + 1
            reach[nxt] += q
    return equity


def icm_exact(stacks: Sequence[float], prizes: Sequence[float]) -> list[float]:
    """Each player's prize equity, exact (Malmuth-Harville); at most EXACT_LIMIT players.

    Players with no chips share the places below everyone with chips (in no order the
    model can tell): they are paid the mean of those prizes.
    """
    s, p = _check(stacks, prizes)
    n = len(s)
    if n > EXACT_LIMIT:
        raise IcmError(f"exact ICM takes at most {EXACT_LIMIT} players, not {n}")
    alive = s > 0
    k = int(alive.sum())
    paid = int(np.count_nonzero(p[:k])) and k  # nothing paid among the alive: skip
    equity = np.zeros(n)
    if paid:
        last = int(np.max(np.nonzero(p[:k])[0])) + 1
        equity[alive] = _harville(s[alive], p[:k].copy(), last)
    if k < n:
        equity[~alive] = p[k:].mean()
    return [float(e) for e in equity]


def icm_monte_carlo(
    stacks: Sequence[float], prizes: Sequence[float], samples: int = 200_000, seed: int = 0
) -> list[float]:
    """Each player's prize equity, estimated from `samples` Harville finishing orders
    (standard error about max(prize) / (2 sqrt(samples)) per player)."""
    s, p = _check(stacks, prizes)
    n = len(s)
    alive = np.flatnonzero(s > 0)
    k = len(alive)
    paid = min(k, int(np.max(np.nonzero(p)[0])) + 1) if np.any(p[:k] > 0) else 0
    equity = np.zeros(n)
    if paid:
        rng = np.random.default_rng(seed)
        rates = s[alive]
        chunk = max(1, min(samples, 4_000_000 // max(k, 1)))
        sums = np.zeros(k)
        done = 0
        while done < samples:
            m = min(chunk, samples - done)
            times = rng.exponential(size=(m, k)) / rates
            if paid < k:  # only the paid places need ordering
                top = np.argpartition(times, paid - 1, axis=1)[:, :paid]
                order = np.argsort(np.take_along_axis(times, top, axis=1), axis=1)
                top = np.take_along_axis(top, order, axis=1)
            else:
                top = np.argsort(times, axis=1)
            for place in range(paid):
                sums += p[place] * np.bincount(top[:, place], minlength=k)
            done += m
        equity[alive] = sums / samples
    if k < n:
        equity[s == 0] = p[k:].mean()
    return [float(e) for e in equity]


# Gauss-Legendre nodes on (0, 1) for `icm_first`'s integral.
_Y, _W = np.polynomial.legendre.leggauss(200)
_Y, _W = (_Y + 1) / 2, _W / 2


def icm_first(stacks: Sequence[float], prizes: Sequence[float]) -> float:
    """The first player's prize equity alone (a decision values only ours), at any
    field size in about a millisecond.

    In the exponential-times picture (module docstring) our place is 1 + the players
    whose time comes before ours, and given our time each does so independently. So
    the place's law is a Poisson-binomial one for each value of our time, and the
    expected prize an integral over it: with y the chance we have fired by then, rival
    r has fired with chance 1 - (1 - y)^(r / ours); 200 Gauss-Legendre nodes in y agree
    with `icm_exact` to within 1e-5 of the prize pool (tests)."""
    s, p = _check(stacks, prizes)
    alive = int(np.count_nonzero(s > 0))
    if s[0] <= 0:  # out: shares the places below the players still in, as `icm` does
        return float(p[alive:].mean())
    nonzero = np.nonzero(p[:alive])[0]
    if not len(nonzero):
        return 0.0
    paid = int(nonzero[-1]) + 1
    rest = np.log1p(-_Y)  # log(1 - y)
    dist = np.zeros((paid, len(_Y)))  # dist[j]: j rivals before us (beyond paid: nothing)
    dist[0] = 1.0
    for r in s[1:][s[1:] > 0]:
        later = np.exp(rest * (r / s[0]))
        dist[1:] = dist[1:] * later + dist[:-1] * (1 - later)
        dist[0] *= later
    return float(_W @ (p[:paid] @ dist))


def icm(
    stacks: Sequence[float], prizes: Sequence[float], seed: int = 0, samples: int = 200_000
) -> list[float]:
    """Exact up to 14 players, or EXACT_LIMIT with at most 8 paid (milliseconds: the
    dynamic program visits only the sets of placed players that are paid), Monte Carlo
    beyond (`samples` finishing orders). The same seed
    for several calls draws the same exponential times: their differences (one outcome
    against another) are far less noisy than each value."""
    paid = int(np.count_nonzero(np.asarray(prizes, dtype=np.float64)[: len(stacks)]))
    if len(stacks) <= 14 or (len(stacks) <= EXACT_LIMIT and paid <= 8):
        return icm_exact(stacks, prizes)
    return icm_monte_carlo(stacks, prizes, samples=samples, seed=seed)


__all__ = ["EXACT_LIMIT", "IcmError", "icm", "icm_exact", "icm_monte_carlo"]
