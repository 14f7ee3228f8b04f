"""Speed and agreement figures for the evaluator and the flop strength enumeration.

    python -m ai.math.bench [--hands N] [--calls N]

Every function returns plain numbers so `showdown bench` (or a test) can report them.

Measured with `python -m ai.math.bench` on the 2-core dev machine while other jobs ran
(figures vary about 2x with load): our single-hand `evaluate` on strings 1.4 M/s,
pkrbot on ready-made card objects 6.1 M/s, batched numba 84 M/s; 1,000,000 random
hands, 0 order disagreements with pkrbot; flop HS + two-card PPot/NPot 2.8 ms per call.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence

import numpy as np
import pkrbot
from numpy.typing import NDArray

from ai.math.evaluator import evaluate, evaluate_batch, pkrbot_value
from ai.math.potential import analyse
from holdem.cards import FULL_DECK


def random_hands(count: int, cards: int = 7, seed: int = 1) -> NDArray[np.int64]:
    """(count, cards) distinct card indices per row, reproducible."""
    rng = np.random.default_rng(seed)
    hands: NDArray[np.int64] = np.argsort(rng.random((count, 52)), axis=1)[:, :cards]
    return hands.astype(np.int64)


def _best_time(fn: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def evaluation_rates(hands: int = 200_000, seed: int = 1) -> dict[str, float]:
    """7-card evaluations per second: ours single and batched, pkrbot with ready cards."""
    rows = random_hands(hands, 7, seed)
    as_text = [[FULL_DECK[c] for c in row] for row in rows.tolist()]
    as_pkrbot = [[pkrbot.Card(c) for c in row] for row in as_text]
    evaluate_batch(rows[:10])  # compile or load the kernel outside the timing
    evaluate(as_text[0])
    single = _best_time(lambda: [evaluate(h) for h in as_text], repeat=1)
    raw = _best_time(lambda: [pkrbot.evaluate(h) for h in as_pkrbot], repeat=1)
    batched = _best_time(lambda: evaluate_batch(rows))
    return {
        "single_evals_per_s": hands / single,
        "pkrbot_evals_per_s": hands / raw,
        "batched_evals_per_s": hands / batched,
    }


def agreement_with_pkrbot(hands: int = 1_000_000, seed: int = 7) -> dict[str, float]:
    """Compare batched strengths with pkrbot on random 7-card hands.

    The orders agree on every pair of hands exactly when, sorted by pkrbot's value,
    consecutive hands compare the same way (<, =) under both evaluators.
    """
    rows = random_hands(hands, 7, seed)
    ours = evaluate_batch(rows)
    theirs = np.array([pkrbot_value([FULL_DECK[c] for c in row]) for row in rows.tolist()])
    order = np.argsort(theirs, kind="stable")
    same = np.sign(np.diff(theirs[order])) == np.sign(np.diff(ours[order]))
    return {"hands": float(hands), "disagreements": float(np.count_nonzero(~same))}


def flop_potential_ms(calls: int = 50, seed: int = 3) -> float:
    """Milliseconds per flop HS + two-card PPot/NPot call against a random weighted range."""
    rng = np.random.default_rng(seed)
    spots = [rng.permutation(52)[:5].tolist() for _ in range(calls)]
    tables = [rng.random(1326) for _ in range(calls)]
    analyse(spots[0][:2], spots[0][2:], tables[0])  # compile or load outside the timing
    start = time.perf_counter()
    for spot, table in zip(spots, tables, strict=True):
        analyse(spot[:2], spot[2:], table, lookahead=2)
    return (time.perf_counter() - start) * 1000 / calls


def run_all(
    hands: int = 200_000, check_hands: int = 1_000_000, calls: int = 50
) -> dict[str, float]:
    figures = evaluation_rates(hands)
    check = agreement_with_pkrbot(check_hands)
    figures["agreement_hands"] = check["hands"]
    figures["agreement_disagreements"] = check["disagreements"]
    figures["flop_hs_ppot2_ms"] = flop_potential_ms(calls)
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ai.math.bench", description=__doc__)
    parser.add_argument("--hands", type=int, default=200_000, help="hands per speed test")
    parser.add_argument("--check-hands", type=int, default=1_000_000, help="agreement check")
    parser.add_argument("--calls", type=int, default=50, help="flop potential calls")
    args = parser.parse_args(argv)
    figures = run_all(args.hands, args.check_hands, args.calls)
    print(json.dumps({k: round(v, 3) for k, v in figures.items()}, indent=1))
    return 0 if figures["agreement_disagreements"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
