"""Timings of the tournament maths, each beside its anchor in the same run:
`python -m ai.tournament.bench` (exact ICM against a brute force over every finishing
order, the Monte Carlo against the exact value, one player's equity by quadrature
against both, and the push/fold solve).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from typing import Any

from ai.tournament.icm import icm, icm_exact, icm_first, icm_monte_carlo
from ai.tournament.pushfold import Payoffs, solve


def brute_force(stacks: list[float], prizes: list[float]) -> list[float]:
    """Malmuth-Harville by enumerating every finishing order: the anchor."""
    out = [0.0] * len(stacks)
    for order in itertools.permutations(range(len(stacks))):
        p, left = 1.0, sum(stacks)
        for who in order:
            p *= stacks[who] / left
            left -= stacks[who]
        for place, who in enumerate(order[: len(prizes)]):
            out[who] += p * prizes[place]
    return out


def best_of(f: Callable[[], Any], reps: int = 3) -> tuple[float, Any]:
    """(fastest wall time of `reps` runs, the last result)."""
    best, result = float("inf"), None
    for _ in range(reps):
        start = time.perf_counter()
        result = f()
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> None:
    icm_exact([1.0, 2.0, 3.0], [1.0])  # compile the kernel outside the timings
    eight = [float(1000 + 371 * i % 2900) for i in range(8)]
    top3 = [50.0, 30.0, 20.0]
    exact_s, _ = best_of(lambda: icm_exact(eight, top3))
    brute_s, _ = best_of(lambda: brute_force(eight, top3), 1)
    print(f"8 players, 3 paid: exact {exact_s:.5f} s; brute force over 8! orders {brute_s:.3f} s")
    for n, paid in ((9, 3), (16, 16), (20, 6), (20, 20)):
        stacks = [float(500 + 250 * i) for i in range(n)]
        prizes = [float(paid - k) for k in range(paid)]
        seconds, _ = best_of(lambda s=stacks, p=prizes: icm_exact(s, p))  # type: ignore[misc]
        print(f"{n} players, {paid} paid: exact {seconds:.4f} s")
    stacks = [float(500 + 250 * i) for i in range(20)]
    prizes = [40.0, 25.0, 15.0, 10.0, 6.0, 4.0]
    exact = icm_exact(stacks, prizes)
    for samples in (20_000, 200_000):
        seconds, estimate = best_of(
            lambda k=samples: icm_monte_carlo(stacks, prizes, samples=k, seed=1),  # type: ignore[misc]
            1,
        )
        error = max(abs(a - b) for a, b in zip(exact, estimate, strict=True))
        print(f"20 players, Monte Carlo {samples}: {seconds:.3f} s, max error {error:.4f} of 100")
    # One player's equity (the near-the-money action values), beside the whole field's.
    seconds, mine = best_of(lambda: icm_first(stacks, prizes))
    print(f"20 players, first player's alone (quadrature): {seconds:.4f} s,"
          f" error {abs(mine - exact[0]):.1e} of 100")  # fmt: skip
    big = [2400.0, 5300.0] + [float(1000 + (37 * i) % 4000) for i in range(26)]
    fifteen = [float(p) for p in range(15, 0, -1)]
    first_s, _ = best_of(lambda: icm_first(big, fifteen))
    sampled_s, _ = best_of(lambda: icm(big, fifteen, samples=20_000))
    print(f"28 players, 15 paid, one player's: quadrature {first_s:.4f} s;"
          f" Monte Carlo 20000 {sampled_s:.3f} s")  # fmt: skip
    field = [float(1000 + (37 * i) % 4000) for i in range(300)]
    pays = [float(p) for p in range(30, 0, -1)]
    seconds, _ = best_of(lambda: icm_monte_carlo(field, pays), 1)
    print(f"300 players, 30 paid, Monte Carlo 200000: {seconds:.2f} s")
    seconds, _ = best_of(lambda: solve(Payoffs.chips(10.0)))
    print(f"push/fold solve, 3000 rounds of fictitious play: {seconds:.3f} s")


if __name__ == "__main__":
    main()
