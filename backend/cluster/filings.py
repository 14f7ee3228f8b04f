"""A player's hand list on any node lists the hands they just finished on every node.

A hand is filed behind its table's path (docs/cluster.md §1): a hand list read just
after the hand's end waits for the filings in flight of that player's last hand at
each table (`TableManager.filings_landed`). On a cluster the table may be another node's:
`hands.filing` asks every node to answer once its filings for the player have landed
(at most FILING_WAIT seconds), and the list waits for the live nodes' answers.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from nats.aio.msg import Msg

from backend.cluster.bus import Bus, dumps, loads
from backend.realtime.manager import TableManager

log = logging.getLogger(__name__)

SUBJECT = "hands.filing"
FILING_WAIT = 3.0  # seconds a hand list waits for the player's hands being filed


class ClusterFilings:
    def __init__(
        self, bus: Bus, tables: TableManager, node_id: str, others: Callable[[], int]
    ) -> None:
        self._bus = bus
        self._tables = tables
        self._node_id = node_id
        self._others = others  # live nodes other than this one
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        await self._bus.subscribe(SUBJECT, self._asked)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def landed(self, player_id: str) -> None:
        """Until every live node's filings of the player's last hands are stored."""
        others = self._others()
        body = dumps({"node": self._node_id, "player_id": player_id})
        elsewhere = (
            self._bus.gather(SUBJECT, body, expect=others, within=FILING_WAIT + 0.5)
            if others
            else asyncio.sleep(0)
        )
        await asyncio.gather(self._tables.filings_landed(player_id, FILING_WAIT), elsewhere)

    async def _asked(self, msg: Msg) -> None:
        # A subscription's messages are handled one after another: a wait of its own.
        self._spawn(self._answer(msg))

    async def _answer(self, msg: Msg) -> None:
        body = loads(msg.data)
        if body.get("node") == self._node_id or not msg.reply:
            return  # the asking node waits for its own tables itself
        await self._tables.filings_landed(str(body["player_id"]), FILING_WAIT)
        await msg.respond(b"{}")

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
