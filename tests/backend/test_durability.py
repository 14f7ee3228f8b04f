"""Crashes on real processes: the database killed mid-hand and mid-write, the server killed.

After each: every chip is accounted for, every hand a player saw finish is stored as
it was shown, and no hand number is dealt twice (serve_testlib.check_invariants).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from serve_testlib import FAST, ServeProcess, Watcher, bot_table, check_invariants

from backend.db.embedded import free_port

pytestmark = pytest.mark.slow


@pytest.fixture
async def serving(tmp_path: Path) -> AsyncIterator[dict[str, Any]]:
    running: list[ServeProcess] = []
    watchers: list[Watcher] = []
    yield {
        "dir": tmp_path / "data",
        "log": tmp_path / "serve.log",
        "running": running,
        "watchers": watchers,
    }
    for watcher in watchers:
        await watcher.stop()
    for process in running:
        await process.stop()


def in_hand(seen: Any) -> bool:
    return seen.last_view is not None and seen.last_view["hand_in_progress"]


async def test_the_database_killed_mid_hand_and_mid_write_is_restarted_and_loses_nothing(
    serving: dict[str, Any],
) -> None:
    serve = await ServeProcess(serving["dir"], free_port(), serving["log"], **FAST).start()
    serving["running"].append(serve)
    table_id, token = await bot_table(serve)
    watcher = Watcher(serve, table_id, token).start()
    serving["watchers"].append(watcher)
    await watcher.wait_hands(3)

    # 1. Killed mid-hand: serve starts it again and play resumes by itself.
    await watcher.wait(in_hand)
    old = await serve.kill_database()
    await serve.wait_database_restarted(old)
    await watcher.wait_hands(3)

    # 2. Killed while a write batch is in the database: the hand's end is held there
    # (a fail point blocks updates), the table pauses and says so, then the kill.
    async with serve.mongo() as client:
        await client.admin.command(
            "configureFailPoint",
            "failCommand",
            mode={"times": 1},
            data={"failCommands": ["update"], "blockConnection": True, "blockTimeMS": 60000},
        )
    await watcher.wait(lambda s: any(n["paused"] for n in s.notices))
    held_after = max(watcher.seen.finished)
    old = await serve.kill_database()
    await serve.wait_database_restarted(old)
    await watcher.wait(lambda s: not s.notices[-1]["paused"])
    await watcher.wait_hands(3)
    # The hand held during the outage was shown once stored, and play went on.
    assert max(watcher.seen.finished) > held_after + 1

    await watcher.stop()
    await serve.stop()
    checked = await check_invariants(serve, table_id, watcher.seen)
    assert checked.hands >= 9


async def test_the_server_killed_mid_play_comes_back_with_every_chip(
    serving: dict[str, Any],
) -> None:
    port = free_port()
    first = await ServeProcess(serving["dir"], port, serving["log"], **FAST).start()
    serving["running"].append(first)
    table_id, token = await bot_table(first)
    watcher = Watcher(first, table_id, token).start()
    serving["watchers"].append(watcher)
    await watcher.wait_hands(3)
    await watcher.wait(in_hand)
    await first.kill()  # SIGKILL: no chance to write anything more

    second = await ServeProcess(serving["dir"], port, serving["log"], **FAST).start()
    serving["running"].append(second)
    await watcher.wait_hands(3)  # the watcher reconnects; the table deals by itself

    await watcher.stop()
    await second.kill()  # and once more: what is stored must add up at any moment
    # A hand cut short was voided (every chip back), its number not dealt again.
    checked = await check_invariants(second, table_id, watcher.seen)
    assert checked.hands >= 6
