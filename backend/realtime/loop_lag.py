"""How late the event loop runs what is due: the server's own latency gauge.

Every table, socket and database write shares one event loop; when it is busy a
ready callback waits. A ticker asks to wake every `interval` seconds and records
how late it woke. The recent lateness (p50, p99, max over the last `window`
seconds) is served by `/api/stats`, so operators and `showdown bench server` can
tell time lost in the server from time lost on the network or in the client.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque

from pydantic import BaseModel


class LoopLag(BaseModel):
    """Event-loop lateness in milliseconds over the last `seconds`."""

    p50_ms: float
    p99_ms: float
    max_ms: float
    ticks: int
    seconds: float


class LoopLagMonitor:
    def __init__(self, interval: float = 0.01, window: float = 10.0) -> None:
        self.interval = interval
        self.window = window
        self._lags: deque[tuple[float, float]] = deque()  # (when, lateness in ms)
        self._task: asyncio.Task[None] | None = None
        self._ticked = asyncio.Event()

    def start(self) -> None:
        self._task = asyncio.create_task(self._tick(), name="loop-lag")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _tick(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            due = loop.time() + self.interval
            await asyncio.sleep(self.interval)  # the probe: how late does this wake?
            now = loop.time()
            self._lags.append((now, max(0.0, now - due) * 1000))
            while self._lags[0][0] < now - self.window:
                self._lags.popleft()
            self._ticked.set()
            self._ticked.clear()

    async def next_tick(self) -> None:
        """Wait for the next probe to be recorded."""
        await self._ticked.wait()

    def summary(self) -> LoopLag:
        lags = sorted(lag for _, lag in self._lags)
        if not lags:
            return LoopLag(p50_ms=0.0, p99_ms=0.0, max_ms=0.0, ticks=0, seconds=self.window)
        n = len(lags)
        return LoopLag(
            p50_ms=round(lags[n // 2], 2),
            p99_ms=round(lags[min(n - 1, int(0.99 * n))], 2),
            max_ms=round(lags[-1], 2),
            ticks=n,
            seconds=self.window,
        )
