"""`showdown bench tournament`: a sit-and-go of 6 bots and a multi-table tournament of
100+ bots, each run to the end through a real `showdown serve` (embedded database, no AI
worker: the built-in fallback policy plays): wall time, hands, balancing moves, and every
chip accounted for (the winner holds entrants x starting chips; prizes sum to the pool).

Levels go by hands (a time structure would measure the clock, not the server).
Bots answer at once and hands follow without a pause. Optional on `args`: mtt_players (100).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

from showdown.benchmarks.server import start_server

POLL_SECONDS = 0.5  # the bench watches the tournament's page (no event to wait on)


async def _run_one(http: Any, headers: dict[str, str], body: dict[str, object]) -> int:
    began = time.perf_counter()
    response = await http.post("/api/tournaments", json=body, headers=headers)
    response.raise_for_status()
    tid = response.json()["tournament_id"]
    max_tables = len(response.json()["tables"])
    while True:
        detail = (await http.get(f"/api/tournaments/{tid}")).json()
        max_tables = max(max_tables, len(detail["tables"]))
        if detail["status"] == "finished":
            break
        await asyncio.sleep(POLL_SECONDS)
    seconds = time.perf_counter() - began
    entrants = detail["registered"]
    chips = sum(p["chips"] for p in detail["players"])
    bought = entrants * detail["starting_chips"]
    prizes = sum(p["prize"] for p in detail["players"])
    ok = chips == bought and prizes == detail["prize_pool"]
    places = sorted(p["place"] for p in detail["players"])
    print(
        f"{body['name']}: {entrants} bots, {max_tables} tables at most, "
        f"{detail['hands']} hands, {detail['moves']} moves, {seconds:.1f} s wall "
        f"({detail['hands'] / seconds:.1f} hands/s); chips {chips} of {bought}, "
        f"prizes {prizes} of {detail['prize_pool']}, places 1..{places[-1]}: "
        + ("all accounted" if ok else "MISMATCH")
    )
    return 0 if ok else 1


async def _bench(args: argparse.Namespace) -> int:
    import httpx

    from backend.db.embedded import free_port

    players = int(getattr(args, "mtt_players", 100))
    env = {
        "SHOWDOWN_BOT_DELAY_MS": "0",  # bots answer at once, no pause between hands
        "SHOWDOWN_HAND_PAUSE_MS": "0",
        "SHOWDOWN_LOG_LEVEL": "WARNING",
    }
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="showdown-bench-") as tmp:
        process = await start_server(Path(tmp), port, env)
        try:
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=300) as http:
                login = (await http.post("/api/auth/guest", json={"name": "bench"})).json()
                headers = {"Authorization": f"Bearer {login['token']}"}
                common = {"structure": "turbo", "levels_by": "hands", "buy_in": 100}
                code = await _run_one(
                    http,
                    headers,
                    {
                        **common,
                        "name": "SNG 6",
                        "players": 6,
                        "bots": 6,
                        "level_hands": 10,
                        "prizes": "top3",
                    },
                )
                code |= await _run_one(
                    http,
                    headers,
                    {
                        **common,
                        "name": f"MTT {players}",
                        "players": players,
                        "bots": players,
                        "seats_per_table": 9,
                        "level_hands": 10,
                        "prizes": "standard",
                    },
                )
                return code
        finally:
            process.terminate()
            await process.wait()


def run(args: argparse.Namespace) -> int:
    return asyncio.run(_bench(args))
