"""The server's shutdown, step by step: how long each step took, in the log.

A slow shutdown (a deploy waits for it, a supervisor may kill the process
before it ends) is found by these lines, not guessed at.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable

log = logging.getLogger(__name__)


class ShutdownSteps:
    def __init__(self) -> None:
        self._began = time.perf_counter()

    async def __call__(self, name: str, step: Awaitable[None]) -> None:
        began = time.perf_counter()
        try:
            await step
        finally:
            took = time.perf_counter() - began
            log.info("shutdown step done", extra={"step": name, "ms": round(took * 1000)})

    def done(self) -> None:
        took = time.perf_counter() - self._began
        log.info("shutdown done", extra={"ms": round(took * 1000)})
