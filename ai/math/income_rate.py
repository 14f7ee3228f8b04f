"""Income Rate of the 169 starting-hand classes (DOMAIN.md §2), and the shipped table.

IR = our average result in big blinds per hand when every player puts in one big blind
and checks it down to the showdown against `n` opponents who always call: we win
``n + 1`` blinds alone, share them on a tie, lose our blind otherwise. Each trial deals
one of the class's holdings (cycling through them), the opponents' cards and a board.

Regenerate the shipped table (a few minutes on two cores):

    python -m ai.math.income_rate --trials 400000 --seed 2024 --out ai/data/income_rate.json
"""

from __future__ import annotations

import argparse
import datetime as dt
import functools
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ai.math._jit import jit
from ai.math.combos import CLASS_NAMES, COMBO_CARDS, N_CLASSES, class_combos
from ai.math.evaluator import CARD_BITS, CARD_PACK, OFFSET_7, value_of
from ai.math.fastrng import task_seed
from ai.math.tables import build_tables

OPPONENTS: tuple[int, ...] = (1, 3, 6)
DATA_FILE = "income_rate.json"


@jit
def _income_kernel(
    holdings: NDArray[np.int64],
    opponents: int,
    trials: int,
    seed: int,
    pack: NDArray[np.int64],
    cbits: NDArray[np.int64],
    plain: NDArray[np.int32],
    flush: NDArray[np.int32],
    offset7: int,
) -> tuple[float, float]:
    """Sum and sum of squares of our result (big blinds) over `trials` deals."""
    np.random.seed(seed)
    n_hold = holdings.shape[0]
    decks = np.empty((n_hold, 50), dtype=np.int64)
    for h in range(n_hold):
        k = 0
        for c in range(52):
            if c != holdings[h, 0] and c != holdings[h, 1]:
                decks[h, k] = c
                k += 1
    dealt = 5 + 2 * opponents
    total = 0.0
    total_sq = 0.0
    for t in range(trials):
        h = t % n_hold
        deck = decks[h]
        # Partial Fisher-Yates: the first `dealt` slots become a uniform random draw;
        # the rest of the array stays a permutation, so no reset is needed.
        for j in range(dealt):
            k = j + np.random.randint(0, 50 - j)
            deck[j], deck[k] = deck[k], deck[j]
        bp = 0
        bb = 0
        for j in range(5):
            bp += pack[deck[j]]
            bb |= cbits[deck[j]]
        a = holdings[h, 0]
        b = holdings[h, 1]
        ours = value_of(bp + pack[a] + pack[b], bb | cbits[a] | cbits[b], offset7, plain, flush)
        best_other = 0
        tied = 0
        for o in range(opponents):
            x = deck[5 + 2 * o]
            y = deck[6 + 2 * o]
            theirs = value_of(
                bp + pack[x] + pack[y], bb | cbits[x] | cbits[y], offset7, plain, flush
            )
            if theirs > best_other:
                best_other = theirs
            if theirs == ours:
                tied += 1
        # Alone: win the n opponents' blinds; tied: share the pot; behind: lose ours.
        result = -1.0 if best_other > ours else (opponents + 1.0) / (tied + 1.0) - 1.0
        total += result
        total_sq += result * result
    return total, total_sq


def class_holdings(cls: int) -> NDArray[np.int64]:
    """(k, 2) card indices of the holdings of one class."""
    holdings: NDArray[np.int64] = COMBO_CARDS[class_combos(cls)]
    return np.ascontiguousarray(holdings)


def simulate_class(cls: int, opponents: int, trials: int, seed: int) -> tuple[float, float]:
    """(IR, standard error) of one class against `opponents` always-callers."""
    if trials < 2:
        raise ValueError("need at least two trials")
    t = build_tables()
    total, total_sq = _income_kernel(
        class_holdings(cls),
        opponents,
        trials,
        task_seed(seed, cls, opponents),
        CARD_PACK,
        CARD_BITS,
        t.plain,
        t.flush,
        OFFSET_7,
    )
    mean = total / trials
    var = max(total_sq / trials - mean * mean, 0.0) * trials / (trials - 1)
    return mean, float(np.sqrt(var / trials))


@dataclass(frozen=True)
class IncomeRates:
    """IR (and its standard error) per class (rows, CLASS_NAMES order) and opponent count."""

    opponents: tuple[int, ...]
    ir: NDArray[np.float64]  # (169, len(opponents))
    stderr: NDArray[np.float64]
    meta: dict[str, Any]

    def column(self, opponents: int) -> int:
        if opponents not in self.opponents:
            raise ValueError(f"no income rates against {opponents} opponents: {self.opponents}")
        return self.opponents.index(opponents)

    def ranking(self, opponents: int = 3) -> NDArray[np.int64]:
        """Class indices from best to worst by IR against `opponents` callers."""
        order: NDArray[np.int64] = np.argsort(-self.ir[:, self.column(opponents)], kind="stable")
        return order

    def rate(self, name: str, opponents: int = 3) -> float:
        return float(self.ir[CLASS_NAMES.index(name), self.column(opponents)])

    def to_json(self) -> dict[str, Any]:
        by_opp = {
            str(n): {
                name: {
                    "ir": round(float(self.ir[c, i]), 5),
                    "stderr": round(float(self.stderr[c, i]), 5),
                }
                for c, name in enumerate(CLASS_NAMES)
            }
            for i, n in enumerate(self.opponents)
        }
        return {**self.meta, "opponents": list(self.opponents), "income_rate": by_opp}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> IncomeRates:
        opponents = tuple(int(n) for n in data["opponents"])
        ir = np.zeros((N_CLASSES, len(opponents)))
        se = np.zeros_like(ir)
        for i, n in enumerate(opponents):
            column = data["income_rate"][str(n)]
            for c, name in enumerate(CLASS_NAMES):
                ir[c, i] = column[name]["ir"]
                se[c, i] = column[name]["stderr"]
        meta = {k: v for k, v in data.items() if k not in ("opponents", "income_rate")}
        return cls(opponents, ir, se, meta)


def compute_income_rates(
    trials: int,
    seed: int,
    opponents: Sequence[int] = OPPONENTS,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> IncomeRates:
    """Simulate every class against each opponent count, in threads (the kernel drops the GIL).

    Results depend only on (trials, seed, opponents), not on the number of workers.
    """
    build_tables()  # once, before the threads race to build it
    tasks = [(c, n) for n in opponents for c in range(N_CLASSES)]
    ir = np.zeros((N_CLASSES, len(opponents)))
    se = np.zeros_like(ir)
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=workers or os.cpu_count() or 1) as pool:
        results = pool.map(lambda task: simulate_class(task[0], task[1], trials, seed), tasks)
        for done, ((c, n), (mean, err)) in enumerate(zip(tasks, results, strict=True), 1):
            i = list(opponents).index(n)
            ir[c, i], se[c, i] = mean, err
            if progress:
                progress(done, len(tasks))
    meta = {
        "definition": "big blinds won per hand; everyone puts in 1 bb and checks to showdown",
        "seed": seed,
        "trials_per_class": trials,
        "total_deals": trials * N_CLASSES * len(opponents),
        "elapsed_seconds": round(time.perf_counter() - start, 1),
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    return IncomeRates(tuple(opponents), ir, se, meta)


@functools.cache
def load_income_rates() -> IncomeRates:
    """The table shipped in ai/data/income_rate.json."""
    text = resources.files("ai.data").joinpath(DATA_FILE).read_text(encoding="utf-8")
    return IncomeRates.from_json(json.loads(text))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m ai.math.income_rate", description="Compute the Income Rate table."
    )
    parser.add_argument("--trials", type=int, default=400_000, help="deals per class and count")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--out", type=Path, default=None, help="JSON file (default: stdout)")
    parser.add_argument("--workers", type=int, default=None, help="threads (default: all cores)")
    args = parser.parse_args(argv)
    if args.trials < 2 or args.seed < 0:
        parser.error("--trials must be >= 2 and --seed >= 0")

    def report(done: int, total: int) -> None:
        if done % 13 == 0 or done == total:
            print(f"income rate: {done}/{total} class x opponent runs", file=sys.stderr, flush=True)

    rates = compute_income_rates(args.trials, args.seed, workers=args.workers, progress=report)
    command = f"python -m ai.math.income_rate --trials {args.trials} --seed {args.seed}"
    if args.out:
        command += f" --out {args.out}"
    rates.meta["command"] = command
    text = json.dumps(rates.to_json(), indent=1) + "\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8")
        top = ", ".join(CLASS_NAMES[c] for c in rates.ranking(rates.opponents[0])[:5])
        print(f"wrote {args.out}; best against {rates.opponents[0]}: {top}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
