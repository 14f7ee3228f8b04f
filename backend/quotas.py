"""Per-client quotas (guest sign-ins, table creations: per client address; hand reviews:
per player): a token bucket per key.

A client may do `burst` at once and regains `per_hour` an hour. A refused
request is answered 429 with Retry-After: the seconds until one more is allowed.
Buckets that are full again are dropped, so memory follows the active clients.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from fastapi import HTTPException, status

PRUNE_EVERY = 1024  # takes between sweeps of the full buckets


@dataclass(slots=True)
class _Bucket:
    tokens: float
    stamp: float


class Quota:
    def __init__(
        self, what: str, burst: int, per_hour: float, whose: str = "from your address"
    ) -> None:
        self.what = what
        self.whose = whose  # the key's words in the refusal
        self.burst = burst
        self.rate = per_hour / 3600.0
        self._buckets: dict[str, _Bucket] = {}
        self._takes = 0

    def retry_after(self, key: str) -> float:
        """Take one for `key`: 0 if allowed, else the seconds until one is."""
        now = time.monotonic()
        self._takes += 1
        if self._takes % PRUNE_EVERY == 0:
            self._prune(now)
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(float(self.burst), now)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.stamp) * self.rate)
        bucket.stamp = now
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            return 0.0
        return (1 - bucket.tokens) / self.rate

    def take(self, key: str) -> None:
        """Take one for `key`, or raise 429 naming the limit and when to try again."""
        wait = self.retry_after(key)
        if wait > 0:
            seconds = max(1, math.ceil(wait))
            raise HTTPException(
                status.HTTP_429_TOO_MANY_REQUESTS,
                f"too many {self.what} {self.whose} (at most {self.burst} at once, "
                f"{self.rate * 3600:g} an hour): try again in {seconds} s",
                headers={"Retry-After": str(seconds)},
            )

    def _prune(self, now: float) -> None:
        full = [
            key
            for key, b in self._buckets.items()
            if b.tokens + (now - b.stamp) * self.rate >= self.burst
        ]
        for key in full:
            del self._buckets[key]
