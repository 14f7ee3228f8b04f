"""A one-line progress display on stderr: hands played and hands per second."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class ProgressLine:
    """Redraws at most every `interval` seconds on a terminal; elsewhere (a log file)
    writes a plain line every `log_interval` seconds."""

    def __init__(
        self,
        stream: TextIO | None = None,
        interval: float = 0.25,
        force: bool = False,
        log_interval: float = 15.0,
    ) -> None:
        self.stream = stream or sys.stderr
        self.tty = force or self.stream.isatty()
        self.interval = interval if self.tty else log_interval
        self.start = time.perf_counter()
        self._last = self.start  # the first line after one interval: a rate worth reading
        self.done = 0

    def __call__(self, done: int, total: int) -> None:
        self.done = done
        now = time.perf_counter()
        if now - self._last < self.interval and done < total:
            return
        self._last = now
        rate = done / max(now - self.start, 1e-9)
        if self.tty:
            self.stream.write(f"\r  {done:>8}/{total} hands  {rate:8.0f} hands/s")
            if done >= total:
                self.stream.write("\n")
        elif done < total:
            self.stream.write(f"  {done}/{total} hands  {rate:.0f} hands/s\n")
        self.stream.flush()

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.start

    @property
    def rate(self) -> float:
        return self.done / max(self.elapsed, 1e-9)
