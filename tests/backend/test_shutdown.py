"""A stop (SIGTERM) of a real `showdown serve` with many busy tables.

What a stop must keep: every chip, every hand a player saw finish, the hand in
progress voided as a restart voids it, and every filed hand counted in the
statistics (at the stop, or kept and counted after the next start). And it must
not wait for what does not need it: the bots' thinking delays are cancelled.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from serve_testlib import FAST, ServeProcess, Watcher, bot_table, check_stored, stopped_database

from backend.db.embedded import free_port
from backend.db.player_stats import BACKLOG

pytestmark = pytest.mark.slow

TABLES = 6
QUOTAS = {"SHOWDOWN_TABLE_CREATE_BURST": "20", "SHOWDOWN_SIGNIN_BURST": "20"}


def in_hand(seen: Any) -> bool:
    return seen.last_view is not None and seen.last_view["hand_in_progress"]


async def uncounted(db: Any) -> set[str]:
    """Filed hands neither counted nor kept for counting."""
    filed = {doc["_id"] async for doc in db.hands.find({}, projection={"_id": 1})}
    counted = {doc["hand_id"] async for doc in db.player_hand_stats.find({})}
    kept = {hand async for doc in db[BACKLOG].find({}) for hand in doc["hands"]}
    return filed - counted - kept


@pytest.fixture
async def room(tmp_path: Path) -> AsyncIterator[dict[str, Any]]:
    state: dict[str, Any] = {"running": [], "watchers": []}
    yield state
    for watcher in state["watchers"]:
        await watcher.stop()
    for process in state["running"]:
        await process.stop()


async def busy_room(
    room: dict[str, Any], data: Path, log: Path, port: int, **env: str
) -> tuple[ServeProcess, list[tuple[str, Watcher]]]:
    serve = await ServeProcess(data, port, log, **env, **QUOTAS).start()
    room["running"].append(serve)
    tables = []
    for _ in range(TABLES):
        table_id, token = await bot_table(serve)
        watcher = Watcher(serve, table_id, token).start()
        room["watchers"].append(watcher)
        tables.append((table_id, watcher))
    return serve, tables


async def test_a_busy_room_stopped_keeps_every_chip_hand_and_statistic(
    room: dict[str, Any], tmp_path: Path
) -> None:
    port = free_port()
    serve, tables = await busy_room(room, tmp_path / "data", tmp_path / "serve.log", port, **FAST)
    for _, watcher in tables:
        await watcher.wait_hands(2)
    await serve.stop()  # SIGTERM while every table deals
    async with stopped_database(serve) as client:
        for table_id, watcher in tables:
            await check_stored(client, table_id, watcher.seen)
        db = client.showdown
        assert await uncounted(db) == set()
        filed = {doc["_id"] async for doc in db.hands.find({}, projection={"_id": 1})}

    again = await ServeProcess(tmp_path / "data", port, tmp_path / "serve.log", **FAST).start()
    room["running"].append(again)
    async with again.mongo() as client:
        db = client.showdown
        async with asyncio.timeout(120):
            while await db[BACKLOG].count_documents({}):  # noqa: ASYNC110
                await asyncio.sleep(0.2)  # another process counts them: no event to wait on
        counted = {doc["hand_id"] async for doc in db.player_hand_stats.find({})}
    assert filed <= counted
    for _, watcher in tables:
        await watcher.wait_hands(1)  # play went on after the restart
        await watcher.stop()
    await again.stop()
    async with stopped_database(again) as client:
        for table_id, watcher in tables:
            await check_stored(client, table_id, watcher.seen)


async def test_a_stop_mid_hand_cancels_the_bots_delays_and_the_restart_voids_the_hands(
    room: dict[str, Any], tmp_path: Path
) -> None:
    """Bots that would act in 5 to 15 minutes: the stop does not wait for them (the
    process exits within ServeProcess.stop's bound), and each hand in progress is voided
    by the next start, every chip back."""
    slow = {**FAST, "BOT_DELAY_MS": "600000", "SHOWDOWN_ACTION_TIMEOUT": "600"}
    port = free_port()
    serve, tables = await busy_room(room, tmp_path / "data", tmp_path / "serve.log", port, **slow)
    for _, watcher in tables:
        await watcher.wait(in_hand)  # dealt: the first bot is thinking
    await serve.stop()
    again = await ServeProcess(tmp_path / "data", port, tmp_path / "serve.log", **slow).start()
    room["running"].append(again)
    await again.stop()
    async with stopped_database(again) as client:
        for table_id, watcher in tables:
            await watcher.stop()
            checked = await check_stored(client, table_id, watcher.seen)
            assert checked.voided == 1 and checked.hands == 0


async def test_a_stop_with_sockets_still_signing_in_logs_no_traceback(
    room: dict[str, Any], tmp_path: Path
) -> None:
    """At SIGTERM uvicorn closes every socket (1012): one still to send its `auth` was
    then refused on a closing socket, and the refusal's failed send logged a traceback
    per socket. A clean stop says nothing of the kind, and exits 0."""
    import websockets

    log = tmp_path / "serve.log"
    serve = await ServeProcess(tmp_path / "data", free_port(), log, **FAST, **QUOTAS).start()
    room["running"].append(serve)
    table_id, token = await bot_table(serve)
    watcher = Watcher(serve, table_id, token).start()  # a signed-in socket beside them
    room["watchers"].append(watcher)
    signing_in = [await websockets.connect(serve.ws(f"/ws/tables/{table_id}")) for _ in range(3)]
    await watcher.wait(in_hand)
    await serve.stop()
    for ws in signing_in:
        await ws.close()
    assert serve.process is not None and serve.process.returncode == 0
    text = log.read_text(encoding="utf-8")
    assert "Traceback" not in text and '"level": "error"' not in text, text[-6000:]
