"""`showdown serve` runs its event loop on uvloop where it is installed (Linux here)."""

from __future__ import annotations

import asyncio

from showdown.commands.serve import _run_loop


def test_serve_runs_on_uvloop() -> None:
    async def loop_module() -> int:
        return 1 if type(asyncio.get_running_loop()).__module__.startswith("uvloop") else 0

    assert _run_loop(loop_module()) == 1
