"""Garbage collection for a latency-bound server: no full collection mid-hand.

CPython's full (generation 2) collection stops the event loop while it scans
every tracked object. With 100 tables and 500 sockets that is ~250,000 objects
and ~170 ms on a 2-core machine, every few seconds: the worst pause a player
would see. The server makes next to no reference cycles (a played hand leaves
none; tests/backend/test_gc_policy.py checks), so instead:

- what is alive after start-up (modules, the app) is frozen out of collections;
- automatic full collections are off;
- the youngest generation is collected after 10,000 new objects, not 700: under
  load (`showdown bench server`) the young collections took 9% of the loop at
  700 (25 a second, the longest 27 ms) and 0.9% at 10,000 (one every 4 s of
  about 35 ms): objects that live for a hand were scanned again and again;
- a full collection runs every `GC_FULL_EVERY` seconds from a timer, so the
  rare cycle is still freed.

`GC_FULL_EVERY=0` keeps CPython's defaults.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

log = logging.getLogger(__name__)

# Generation 2 runs only after this many generation-1 collections: in effect never.
_NO_AUTOMATIC_FULL = 1 << 30
YOUNG_THRESHOLD = 10_000


def apply(every: float) -> bool:
    """Freeze the start-up heap, collect young objects less often and turn automatic full
    collections off (if every > 0)."""
    if every <= 0:
        return False
    gc.collect()
    gc.freeze()
    _, middle, _ = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, _NO_AUTOMATIC_FULL)
    return True


async def full_collections(every: float) -> None:
    """Run a full collection every `every` seconds, logging how long it stopped the loop."""
    while True:
        await asyncio.sleep(every)  # the schedule itself: one full collection per period
        started = time.perf_counter()
        freed = gc.collect()
        log.info(
            "full garbage collection",
            extra={"freed": freed, "ms": round((time.perf_counter() - started) * 1000, 1)},
        )
