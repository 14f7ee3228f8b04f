"""Splitting a match's deals over processes (forked: the parent's imports and numba code
are reused, so a process costs milliseconds, not an interpreter start)."""

from __future__ import annotations

import multiprocessing
import time
from multiprocessing.sharedctypes import Synchronized
from typing import Any

import numpy as np
import numpy.typing as npt

from ai.arena.exact import ExactProbe
from ai.arena.match import BotMaker, Match, MatchConfig, Progress
from ai.bots import make_bot

_REPORT_EVERY = 50  # hands between updates of the shared progress counter
_counter: Synchronized[int] | None = None  # set in each pool process (inherited, not pickled)


def _set_counter(counter: Synchronized[int]) -> None:
    global _counter
    _counter = counter


Docs = list[dict[str, Any]]


Exact = tuple[list[list[float]], list[dict[str, float]]]


def _chunk(
    config: MatchConfig, first: int, end: int, make: BotMaker, probe: ExactProbe | None
) -> tuple[npt.NDArray[np.float64], Docs, Docs, Exact]:
    counter = _counter
    assert counter is not None
    pending = 0

    def tick(done: int, total: int) -> None:
        nonlocal pending
        pending += 1
        if pending >= _REPORT_EVERY or done == total:
            with counter.get_lock():
                counter.value += pending
            pending = 0

    match = Match(config, make, probe)
    net = match.play_deals(first, end, tick)
    return net, match.records, match.decisions, (match.exact, match.exact_rows)


def play_in_processes(
    config: MatchConfig,
    deals: int,
    rotations: int,
    jobs: int,
    progress: Progress | None,
    make: BotMaker = make_bot,
    probe: ExactProbe | None = None,
) -> tuple[npt.NDArray[np.float64], Docs, Docs, Exact]:
    """Net big blinds per hand and bot, the records, the searched decisions and the
    probe's rows (`Match.exact`, `Match.exact_rows`, in chips)."""
    context = multiprocessing.get_context("fork")
    counter: Synchronized[int] = context.Value("i", 0)
    bounds = [deals * k // jobs for k in range(jobs + 1)]
    total = deals * rotations
    with context.Pool(jobs, initializer=_set_counter, initargs=(counter,)) as pool:
        pending = [
            pool.apply_async(_chunk, (config, bounds[k], bounds[k + 1], make, probe))
            for k in range(jobs)
        ]
        while not all(p.ready() for p in pending):
            if progress is not None:
                progress(min(counter.value, total - 1), total)
            time.sleep(0.1)
        parts = [p.get() for p in pending]
    if progress is not None:
        progress(total, total)
    net = np.concatenate([p[0] for p in parts])
    exact = ([r for p in parts for r in p[3][0]], [r for p in parts for r in p[3][1]])
    return net, [doc for p in parts for doc in p[1]], [row for p in parts for row in p[2]], exact
