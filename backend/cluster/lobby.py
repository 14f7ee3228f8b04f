"""Events that cross tables, over the bus: the cluster's lobby and counted statistics.

- `lobby.tables`: each node publishes the list of the tables it owns (their lobby
  summaries) when it changes, checked every LOBBY_EVERY seconds, and at least every
  LOBBY_HEARTBEAT seconds. A table's summary is made again only when its state's
  seq moved (all of them every LOBBY_FRESH seconds, for a change that moves none).
  Every node keeps the last list heard from each node and lists them beside its
  own; a node not heard from for ALIVE_FOR seconds (dead) is listed no more, and a
  table this node owns is listed from its own runtime (just taken over: the old
  owner's entry is stale). A private table carries the players who may see it
  (host, seated, admitted by the invite), so another node filters it as the owner
  would; the bus is inside the trust boundary.
- `stats.counted`: a node that counted hands (its own tables') publishes which
  tables' hands and which players; every other node tells its tables where those
  players sit, so a HUD at a table on node A moves when the player's hand at a
  table on node B is counted (the statistics are read from the shared database).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from nats.aio.msg import Msg

from backend.cluster.bus import Bus, dumps, loads
from backend.db.player_stats import PlayerStats, TableCounted
from backend.realtime.manager import TableManager
from backend.realtime.runtime import TableRuntime
from backend.schemas import TableSummary

log = logging.getLogger(__name__)

LOBBY_EVERY = 0.5  # seconds between checks of this node's list for a change
LOBBY_HEARTBEAT = 2.0  # an unchanged list is published this often (a node's liveness)
LOBBY_FRESH = 10.0  # every summary is made again this often, changed or not
ALIVE_FOR = 5.0  # a node's list not refreshed for this long is dropped (the node died)
LOBBY_SUBJECT = "lobby.tables"
STATS_SUBJECT = "stats.counted"


def listed(runtime: TableRuntime) -> bool:
    """On the lobby: a tournament's tables are listed on its page instead."""
    return runtime.options.tournament_id is None


def viewers(runtime: TableRuntime) -> list[str] | None:
    """Who may see the table listed: None for everyone (public)."""
    if not runtime.private:
        return None
    seated = {seat.player_id for seat in runtime.table.seats.values()}
    members = {runtime.host_id, *runtime.members, *seated}
    return sorted(m for m in members if m is not None)


class ClusterLobby:
    def __init__(self, bus: Bus, tables: TableManager, stats: PlayerStats, node_id: str) -> None:
        self._bus = bus
        self._tables = tables
        self._stats = stats
        self._node_id = node_id
        self._heard: dict[str, tuple[list[dict[str, Any]], float]] = {}  # node -> (list, seen)
        self._made: dict[str, tuple[int, dict[str, Any]]] = {}  # table -> (seq, entry)
        self._sent_at = 0.0
        self._fresh_at = 0.0
        self._task: asyncio.Task[None] | None = None
        self._sends: set[asyncio.Task[None]] = set()
        self._closed = False
        self.published = 0  # lists published (a changed list, or the heartbeat)

    async def start(self) -> None:
        await self._bus.subscribe(LOBBY_SUBJECT, self._lobby_heard)
        await self._bus.subscribe(STATS_SUBJECT, self._stats_heard)
        self._stats.listen(self._counted_here)
        self._task = asyncio.create_task(self._publish_loop(), name="cluster-lobby")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        self._closed = True

    # -- the lobby ---------------------------------------------------------------------

    def own_list(self, fresh: bool = False) -> tuple[list[dict[str, Any]], bool]:
        """This node's entries, and whether any changed since the last call: a table's
        entry is made again when its state moved (its seq), or every one if `fresh`."""
        made: dict[str, tuple[int, dict[str, Any]]] = {}
        changed = False
        for runtime in self._tables.all():
            if not listed(runtime):
                continue
            last = self._made.get(runtime.table_id)
            if fresh or last is None or last[0] != runtime.seq:
                entry = {**runtime.summary().model_dump(mode="json"), "viewers": viewers(runtime)}
                changed = changed or last is None or last[1] != entry
                last = (runtime.seq, entry)
            made[runtime.table_id] = last
        changed = changed or made.keys() != self._made.keys()
        self._made = made
        return [entry for _, entry in made.values()], changed

    async def publish(self, force: bool = False) -> None:
        now = time.monotonic()
        due = force or now - self._sent_at >= LOBBY_HEARTBEAT
        fresh = now - self._fresh_at >= LOBBY_FRESH
        if fresh:
            self._fresh_at = now
        entries, changed = self.own_list(fresh=fresh)
        if not (due or changed):
            return
        self._sent_at = now
        await self._bus.publish(LOBBY_SUBJECT, dumps({"node": self._node_id, "tables": entries}))
        self.published += 1

    async def _publish_loop(self) -> None:
        while True:
            try:
                await self.publish()
            except Exception as error:  # the bus is away: the next round tries again
                log.warning("lobby publish failed", extra={"error": str(error)[:200]})
            await asyncio.sleep(LOBBY_EVERY)  # a period, not a synchronisation

    async def _lobby_heard(self, msg: Msg) -> None:
        body = loads(msg.data)
        node = str(body["node"])
        if node == self._node_id:
            return
        tables = body.get("tables")
        if isinstance(tables, list):
            self._heard[node] = ([t for t in tables if isinstance(t, dict)], time.monotonic())

    def others(self, viewer: str | None) -> list[TableSummary]:
        """The tables other live nodes own that `viewer` may see listed, not this node's."""
        cutoff = time.monotonic() - ALIVE_FOR
        own = {runtime.table_id for runtime in self._tables.all()}
        seen: set[str] = set()
        found: list[TableSummary] = []
        for node, (entries, heard_at) in sorted(self._heard.items()):
            if heard_at < cutoff:
                continue
            for entry in entries:
                table_id = entry.get("table_id")
                if table_id in own or table_id in seen:
                    continue  # taken over here, or listed by two nodes while it moved
                allowed = entry.get("viewers")
                if allowed is not None and viewer not in allowed:
                    continue
                try:
                    found.append(TableSummary.model_validate(entry))
                except ValueError:
                    log.warning("bad lobby entry", extra={"node": node})
                    continue
                seen.add(str(table_id))
        return found

    # -- statistics counted ------------------------------------------------------------

    def _counted_here(self, tables: list[TableCounted]) -> None:
        body = {
            "node": self._node_id,
            "tables": [
                {"table_id": t.table_id, "hand_no": t.hand_no, "player_ids": list(t.player_ids)}
                for t in tables
            ],
        }
        if self._closed:
            return
        task = asyncio.create_task(self._bus.publish(STATS_SUBJECT, dumps(body)))
        self._sends.add(task)
        task.add_done_callback(self._sent_one)

    async def _stats_heard(self, msg: Msg) -> None:
        body = loads(msg.data)
        if body.get("node") == self._node_id:
            return  # this node's tables were told when it counted
        counted = [
            TableCounted(str(t["table_id"]), int(t["hand_no"]), tuple(map(str, t["player_ids"])))
            for t in body.get("tables", [])
        ]
        if counted:
            self._tables.counted_elsewhere(counted)

    def _sent_one(self, task: asyncio.Task[None]) -> None:
        self._sends.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("statistics publish failed", extra={"error": str(task.exception())[:200]})
