"""The all-in equity of one hand (holdem.showdown_equity.pot_shares), ranked in bulk,
next to its anchor: the same boards ranked one hand at a time by `rank_hand`, as
pot_shares did before #36. Every filed all-in hand runs it, in the server's thread.

Each spot is timed both ways in the same run (the median of repeated calls, within
`--seconds` a spot), and both answers are checked equal.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from functools import partial

from holdem.cards import FULL_DECK
from holdem.showdown_equity import pot_shares, rank_hand, runouts

Pots = list[tuple[int, list[int]]]
Spot = tuple[list[tuple[str, ...]], tuple[str, ...], Pots]

SPOTS: dict[str, Spot] = {
    "heads-up preflop": ([("Ah", "Ad"), ("Kc", "Kd")], (), [(400, [0, 1])]),
    "heads-up flop": ([("Ah", "Ad"), ("Kc", "Kd")], ("Ks", "7h", "2c"), [(400, [0, 1])]),
    "heads-up turn": ([("Ah", "Ad"), ("Kc", "Kd")], ("Ks", "7h", "2c", "3d"), [(400, [0, 1])]),
    "3-way preflop, side pot": (
        [("Ah", "Ad"), ("Kc", "Kd"), ("7s", "8s")],
        (),
        [(300, [0, 1, 2]), (200, [1, 2])],
    ),
    "4-way flop, 3 pots": (
        [("Ah", "Ad"), ("Kc", "Kd"), ("7s", "8s"), ("2c", "2d")],
        ("Ks", "7h", "3c"),
        [(400, [0, 1, 2, 3]), (300, [1, 2, 3]), (100, [2, 3])],
    ),
    "6-way preflop, side pot": (
        [("Ah", "Ad"), ("Kc", "Kd"), ("7s", "8s"), ("2c", "2d"), ("Qh", "Jh"), ("9c", "Tc")],
        (),
        [(600, [0, 1, 2, 3, 4, 5]), (300, [1, 2, 3])],
    ),
}


def one_at_a_time(
    holes: Sequence[tuple[str, ...]], board: tuple[str, ...], pots: Pots, seed: int
) -> list[float]:
    """pot_shares as it was: each hand of each board ranked by itself."""
    boards = runouts(set(board).union(*holes), board, seed)
    shares = [0.0] * len(holes)
    for row in boards:
        full = tuple(FULL_DECK[c] for c in row)
        scores = [rank_hand(hole + full) for hole in holes]
        for amount, eligible in pots:
            best = max(scores[i] for i in eligible)
            winners = [i for i in eligible if scores[i] == best]
            for i in winners:
                shares[i] += amount / len(winners)
    return [s / len(boards) for s in shares]


def median_ms(call: Callable[[], list[float]], seconds: float) -> float:
    times: list[float] = []
    ends = time.perf_counter() + seconds
    while not times or (time.perf_counter() < ends and len(times) < 200):
        began = time.perf_counter()
        call()
        times.append(1000 * (time.perf_counter() - began))
    return statistics.median(times)


def run(args: argparse.Namespace) -> int:
    seconds = min(float(args.seconds), 2.0)
    print(f"allin: one all-in hand's equity (pot_shares), median ms, ~{seconds:g} s a spot each")
    pot_shares(*SPOTS["heads-up turn"])  # the rank tables are built once, on first use
    olds: list[float] = []
    news: list[float] = []
    for name, (holes, board, pots) in SPOTS.items():
        old = one_at_a_time(holes, board, pots, args.seed)
        if pot_shares(holes, board, pots, args.seed) != old:
            print(f"  {name}: the answers differ")
            return 1
        olds.append(median_ms(partial(one_at_a_time, holes, board, pots, args.seed), seconds))
        news.append(median_ms(partial(pot_shares, holes, board, pots, args.seed), seconds))
        print(
            f"  {name:26s} one at a time {olds[-1]:7.1f} ms   in bulk {news[-1]:6.2f} ms"
            f"   x{olds[-1] / news[-1]:5.1f}",
            flush=True,
        )
    print(f"  all spots: {sum(olds):.1f} ms -> {sum(news):.1f} ms (x{sum(olds) / sum(news):.1f})")
    return 0
