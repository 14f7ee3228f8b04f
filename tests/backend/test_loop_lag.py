"""The event-loop lag gauge behind /api/stats: a stalled loop shows up in it."""

from __future__ import annotations

import time

from backend.realtime.loop_lag import LoopLagMonitor


async def test_a_stall_shows_as_lag() -> None:
    monitor = LoopLagMonitor(interval=0.005, window=60.0)
    monitor.start()
    try:
        for _ in range(3):
            await monitor.next_tick()
        quiet = monitor.summary()
        time.sleep(0.12)  # noqa: ASYNC251 - the stall under test: the loop cannot run
        await monitor.next_tick()
        stalled = monitor.summary()
    finally:
        await monitor.stop()
    assert quiet.ticks >= 3
    assert stalled.max_ms >= 100 > quiet.max_ms
    assert stalled.ticks == quiet.ticks + 1


async def test_an_idle_monitor_reports_zero() -> None:
    summary = LoopLagMonitor().summary()
    assert (summary.ticks, summary.max_ms, summary.seconds) == (0, 0.0, 10.0)
