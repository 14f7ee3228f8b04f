"""All-in preflop equity of every starting-hand class against every other (169 x 169).

`equity_matrix()[i, j]` is the share of the pot class i takes against class j, all in
before the flop (ties split), averaged over the pairs of holdings that share no card.
The push/fold solver (`ai.tournament.pushfold`) reads it.

Shipped in ai/data/hu_equity169.npz as uint16 (equity * 65535, 57 KB); rebuild with
`python -m ai.tournament.equity_table [samples]` (seeded; samples per class pair, each
pair's compatible holdings dealt in turn and the board at random; about 4 min at the
default 100000 on one core). Stratifying over the holdings keeps the suits' share exact.
"""

from __future__ import annotations

import sys
import time
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ai.math._jit import jit
from ai.math.evaluator import CARD_BITS, CARD_PACK, OFFSET_7, value_of
from ai.math.fastrng import below, next_state, seed_state
from ai.math.tables import build_tables
from ai.tournament.hands import HOLDING_CLASS, HOLDINGS, N_CLASSES

DATA_FILE = "hu_equity169.npz"
DEFAULT_SAMPLES = 100_000
SEED = 35
SCALE = 65535


@jit
def _pair_equity(
    first: NDArray[np.int64],
    second: NDArray[np.int64],
    samples: int,
    seed: int,
    pack: NDArray[np.int64],
    cbits: NDArray[np.int64],
    plain: NDArray[np.int32],
    flush: NDArray[np.int32],
) -> float:
    """Equity of holdings `first` (k x 2) against `second` (m x 2), board at random."""
    pairs_a = np.empty(first.shape[0] * second.shape[0], dtype=np.int64)
    pairs_b = np.empty_like(pairs_a)
    n_pairs = 0
    for a in range(first.shape[0]):
        for b in range(second.shape[0]):
            x0, x1, y0, y1 = first[a, 0], first[a, 1], second[b, 0], second[b, 1]
            if x0 != y0 and x0 != y1 and x1 != y0 and x1 != y1:
                pairs_a[n_pairs] = a
                pairs_b[n_pairs] = b
                n_pairs += 1
    deck = np.empty(52, dtype=np.int64)
    x = seed_state(seed)
    total = 0.0
    for s in range(samples):
        a = pairs_a[s % n_pairs]
        b = pairs_b[s % n_pairs]
        h0, h1, v0, v1 = first[a, 0], first[a, 1], second[b, 0], second[b, 1]
        n_deck = 0
        for c in range(52):
            if c != h0 and c != h1 and c != v0 and c != v1:
                deck[n_deck] = c
                n_deck += 1
        board_pack = 0
        board_bits = 0
        for i in range(5):  # partial Fisher-Yates: the first five cards are the board
            x = next_state(x)
            j = i + below(x, n_deck - i)
            deck[i], deck[j] = deck[j], deck[i]
            board_pack += pack[deck[i]]
            board_bits |= cbits[deck[i]]
        mine = value_of(
            board_pack + pack[h0] + pack[h1], board_bits | cbits[h0] | cbits[h1], OFFSET_7,
            plain, flush,
        )  # fmt: skip
        theirs = value_of(
            board_pack + pack[v0] + pack[v1], board_bits | cbits[v0] | cbits[v1], OFFSET_7,
            plain, flush,
        )  # fmt: skip
        if mine > theirs:
            total += 1.0
        elif mine == theirs:
            total += 0.5
    return total / samples


def build(samples: int, seed: int = SEED) -> NDArray[np.float64]:
    """Simulate the upper triangle; the rest by symmetry (a class against itself: 1/2)."""
    tables = build_tables()
    members = [HOLDINGS[k == HOLDING_CLASS] for k in range(N_CLASSES)]
    out = np.full((N_CLASSES, N_CLASSES), 0.5)
    for i in range(N_CLASSES):
        for j in range(i + 1, N_CLASSES):
            e = _pair_equity(
                members[i], members[j], samples, seed * 100_000 + i * N_CLASSES + j,
                CARD_PACK, CARD_BITS, tables.plain, tables.flush,
            )  # fmt: skip
            out[i, j], out[j, i] = e, 1.0 - e
    return out


def encode(matrix: NDArray[np.float64]) -> NDArray[np.uint16]:
    return np.rint(matrix * SCALE).astype(np.uint16)


@cache
def equity_matrix() -> NDArray[np.float64]:
    """The shipped table (read once per process)."""
    with resources.files("ai.data").joinpath(DATA_FILE).open("rb") as f:
        data = np.load(f)
        out: NDArray[np.float64] = data["equity"].astype(np.float64) / SCALE
    return out


def main(argv: list[str]) -> int:
    samples = int(argv[0]) if argv else DEFAULT_SAMPLES
    started = time.perf_counter()
    matrix = build(samples)
    path = Path(__file__).parent.parent / "data" / DATA_FILE
    np.savez_compressed(path, equity=encode(matrix), samples=np.array(samples))
    print(f"wrote {path}: {samples} samples per class pair, {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
