"""Advice end to end: a player at a table of bots asks for advice at each of their turns.

Starts `showdown serve` with its AI worker (embedded database) in a child process,
creates a table of five `mcts` bots and one free seat, sits a client there and, at
every turn of that client, sends `advice` and times the answer: from the message
leaving the client to the `advice` message arriving, through the server, the AI
gateway, the worker's search and back. The anchor, measured in the same run on the
same socket just before each advice: a `ping` answered by `pong` (the floor of
any round trip through the server). The player then plays the advised action.

Figures are printed, not asserted: p50/p95/max of both, how many answers came
from the worker's search (the rest from the server's fallback policy), and the
median number of simulated hands the advice rested on. The issue's target: p95
at most 500 ms. Optional attributes on `args`: advice (queries, 60), game.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import re
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from showdown.benchmarks.server import percentile, start_server

_SIMULATED = re.compile(r"over (\d+) simulated hands")


async def _worker_connected(http: Any) -> None:
    # The worker compiles its search before it connects: a minute on a busy machine.
    print("advice: waiting for the AI worker to connect", flush=True)
    async with asyncio.timeout(600):
        while True:
            ready = (await http.get("/readyz")).json()
            if ready.get("ai", {}).get("workers_connected", 0) >= 1:
                return
            await asyncio.sleep(0.2)


class _Player:
    """One socket at the table: sends a message and waits for the reply it names."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.state: dict[str, Any] | None = None
        self.asked: set[tuple[str, int]] = set()

    async def until(self, wanted: str, ref: str | None = None) -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(await self.ws.recv())
            if message["type"] == "state":
                self.state = message
            elif message["type"] == "error":
                raise RuntimeError(f"the server refused a command: {message}")
            if message["type"] == wanted and (ref is None or message.get("ref") == ref):
                return message

    async def my_turn(self, seat: int) -> dict[str, Any]:
        """Wait for our turn; between hands, buy in again when broke (the advice may have
        lost the stack) and come back if the table sat us out."""
        while True:
            view: dict[str, Any] | None = self.state["view"] if self.state else None
            if view and view.get("actor") == seat and view.get("legal_actions"):
                return view
            mine = next((s for s in view["seats"] if s["seat"] == seat), None) if view else None
            if view and mine and not view["hand_in_progress"]:
                # Each request once per hand (no refusals); a rebuy leaves a broke player
                # sat out, so the sit_back after it is a request of its own.
                hand = view["hand_no"]
                if mine["stack"] == 0 and ("rebuy", hand) not in self.asked:
                    amount = view["config"]["max_buy_in"]
                    await self.ws.send(json.dumps({"type": "rebuy", "amount": amount}))
                    self.asked.add(("rebuy", hand))
                elif (
                    mine["stack"] > 0
                    and mine["state"] == "sitting_out"
                    and ("sit_back", hand) not in self.asked
                ):
                    await self.ws.send(json.dumps({"type": "sit_back"}))
                    self.asked.add(("sit_back", hand))
            await self.until("state")


async def _bench(args: argparse.Namespace) -> int:
    import httpx
    import websockets

    from backend.db.embedded import free_port

    wanted = int(getattr(args, "advice", 60))
    game = str(getattr(args, "game", "no-limit"))
    env = {
        "SHOWDOWN_BOT_DELAY_MS": "0",
        "SHOWDOWN_HAND_PAUSE_MS": "300",
        "SHOWDOWN_LOG_LEVEL": "WARNING",
    }
    env.pop("MONGODB_URL", None)
    port = free_port()
    advice_ms: list[float] = []
    ping_ms: list[float] = []
    searched: list[int] = []
    sources: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="showdown-bench-advice-") as tmp:
        process = await start_server(Path(tmp), port, env, worker=True)
        try:
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
                await _worker_connected(http)
                login = (await http.post("/api/auth/guest", json={"name": "advised"})).json()
                headers = {"Authorization": f"Bearer {login['token']}"}
                body = {"variant": game, "seats": 6, "bots": 5, "bot_styles": ["mcts"]}
                created = await http.post("/api/tables", json=body, headers=headers)
                created.raise_for_status()
                table = created.json()
            url = f"ws://127.0.0.1:{port}/ws/tables/{table['table_id']}"
            async with websockets.connect(url, max_size=None) as ws:
                player = _Player(ws)
                await ws.send(json.dumps({"type": "auth", "token": login["token"]}))
                await player.until("state")
                assert player.state is not None
                view = player.state["view"]
                taken = {s["seat"] for s in view["seats"]}  # only occupied seats are listed
                seat = min(set(range(1, view["config"]["seats"] + 1)) - taken)
                buy_in = view["config"]["max_buy_in"]
                await ws.send(json.dumps({"type": "sit", "seat": seat, "buy_in": buy_in}))
                print(f"advice: {wanted} queries at a {game} table of 5 mcts bots", flush=True)
                for k in range(wanted):
                    async with asyncio.timeout(300):  # a stuck table fails loudly
                        await player.my_turn(seat)
                    sent = time.perf_counter()
                    await ws.send(json.dumps({"type": "ping", "ref": f"p{k}"}))
                    await player.until("pong", f"p{k}")
                    ping_ms.append(1000 * (time.perf_counter() - sent))
                    sent = time.perf_counter()
                    await ws.send(json.dumps({"type": "advice", "ref": f"a{k}"}))
                    answer = await player.until("advice", f"a{k}")
                    advice_ms.append(1000 * (time.perf_counter() - sent))
                    sources[answer["source"]] = sources.get(answer["source"], 0) + 1
                    advice = answer["advice"]
                    found = _SIMULATED.search(advice.get("reason", ""))
                    if found:
                        searched.append(int(found.group(1)))
                    action = {"type": "act", "action": advice["action"]}
                    if advice.get("amount") is not None:
                        action["amount"] = advice["amount"]
                    await ws.send(json.dumps(action))
                    await player.until("state")
                    if (k + 1) % 10 == 0:
                        print(f"  {k + 1}/{wanted} advice answered", flush=True)
        finally:
            process.terminate()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), 30)
    print(
        f"  advice (end to end)  p50 {percentile(advice_ms, 0.5):.0f} ms   "
        f"p95 {percentile(advice_ms, 0.95):.0f} ms   max {max(advice_ms):.0f} ms   "
        f"(n={len(advice_ms)}, target p95 <= 500 ms)"
    )
    print(
        f"  anchor: ping->pong   p50 {percentile(ping_ms, 0.5):.1f} ms   "
        f"p95 {percentile(ping_ms, 0.95):.1f} ms   (same socket, just before each advice)"
    )
    answered = ", ".join(f"{name} {count}" for name, count in sorted(sources.items()))
    median = statistics.median(searched) if searched else 0
    print(f"  answered by          {answered}   median {median:.0f} simulated hands per advice")
    return 0


def run(args: argparse.Namespace) -> int:
    return asyncio.run(_bench(args))
