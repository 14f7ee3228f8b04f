"""One node of a cluster: its table leases, takeovers, placement, and the bus (docs/cluster.md).

- A table is acted on only while this node holds its lease (`claim`: acquire, then
  fence the table's documents with the token before reading them). The keeper
  renews the leases every third of their time; a lease lost, or a fenced write
  refused, drops the table at once.
- Takeover: every few seconds the node looks for open tables whose lease ran out
  (their node died) or was released, and loads up to its fair share of them from
  the stored state, as after a restart (the hand in progress voided and refunded).
  The least loaded live node takes at least one each round.
- Load: each node publishes its table count on `cluster.load` every second; a new
  table is created on the least loaded node (`create_on`), a tournament's too
  (`open_tournament_table`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
import signal
import time
from collections.abc import Callable, Coroutine
from typing import Any

from nats.aio.msg import Msg
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import PyMongoError

from backend.ai_gateway import AIGateway
from backend.cluster.ai_relay import AIRelay
from backend.cluster.bus import Bus, NoOwner, dumps, loads
from backend.cluster.fencing import StaleOwner, stamp
from backend.cluster.filings import ClusterFilings
from backend.cluster.free_tables import FreeTables
from backend.cluster.keeper import LeaseKeeper
from backend.cluster.leases import Leases
from backend.cluster.lobby import ClusterLobby
from backend.cluster.remote import OwnerSide
from backend.cluster.tournaments import ClusterTournaments
from backend.db.codec import Document, config_from_doc
from backend.db.repositories import Repositories
from backend.realtime.manager import TableManager
from backend.schemas import CreateTableRequest, TableDetail
from backend.settings import Settings
from backend.tournament.service import TournamentService
from backend.tournament.store import TournamentStore
from holdem.errors import RuleError

log = logging.getLogger(__name__)

LOAD_EVERY = 1.0  # seconds between a node's load reports
ALIVE_FOR = 3.0  # a node not heard from for this long is not counted as alive
PING_EVERY = 1.0  # seconds between a gateway's pings of a table owner's node


class ClusterNode:
    def __init__(
        self,
        settings: Settings,
        db: AsyncDatabase[Document],
        repos: Repositories,
        tables: TableManager,
        bus: Bus,
        node_id: str,
    ) -> None:
        self.node_id = node_id
        self.bus = bus
        self._db = db
        self._repos = repos
        self._tables = tables
        self.leases = Leases(db, node_id, ttl=settings.lease_ttl)
        self.keeper = LeaseKeeper(self.leases, self._lost)
        self._free = FreeTables(db, self.leases)
        self.owner = OwnerSide(
            bus, tables, node_id, settings.send_queue_size, settings.node_url.rstrip("/")
        )
        self.lobby = ClusterLobby(bus, tables, repos.hands.stats, node_id)
        self.ai: AIRelay | None = None
        self.tournaments: ClusterTournaments | None = None
        self.filings = ClusterFilings(bus, tables, node_id, lambda: len(self.alive()) - 1)
        self._loads: dict[str, tuple[int, float]] = {}  # node -> (tables, monotonic seen)
        self._watched: dict[str, list[Callable[[], None]]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loops: list[asyncio.Task[None]] = []
        self.takeover_every = max(0.2, settings.lease_ttl / 5)
        self.taken_over = 0  # tables this node loaded from another node's lapsed lease
        self.draining = False  # handing every table over: takes none, placed none
        # One takeover round at a time (the periodic one, one for a freed table): two
        # rounds loading one table would claim it twice, and the first copy be fenced.
        self._taking = asyncio.Lock()

    @classmethod
    async def start(
        cls,
        settings: Settings,
        db: AsyncDatabase[Document],
        repos: Repositories,
        tables: TableManager,
        gateway: AIGateway | None = None,
    ) -> ClusterNode:
        node_id = settings.node_id or "n" + secrets.token_hex(4)
        bus = await Bus.connect(settings.nats_url, node_id)
        node = cls(settings, db, repos, tables, bus, node_id)
        if gateway is not None:  # the AI workers serve every node (backend.cluster.ai_relay)
            node.ai = AIRelay(bus, gateway, node_id)
            await node.ai.start()
        tables.claim = node.claim
        tables.stale = node.stale
        tables.closed = node.closed
        await bus.subscribe(f"node.{node_id}.ping", node._pong)
        await bus.subscribe(f"node.{node_id}.create", node._create)
        await bus.subscribe(f"node.{node_id}.open", node._open)
        await bus.subscribe("cluster.load", node._heard)
        await bus.subscribe("cluster.free", node._freed)
        await node.lobby.start()
        await node.filings.start()
        # SIGUSR1 drains the node (a deploy): its tables move between hands.
        asyncio.get_running_loop().add_signal_handler(
            signal.SIGUSR1, lambda: node.spawn(node.drain())
        )
        node.keeper.start()
        node._loops = [
            asyncio.create_task(node._report_load(), name="cluster-load"),
            asyncio.create_task(node._takeovers(), name="cluster-takeover"),
        ]
        log.info("cluster node started", extra={"node_id": node_id})
        return node

    async def direct_tournaments(self, service: TournamentService, store: TournamentStore) -> None:
        """Tournaments' directors by lease, their orders and reports over the bus."""
        link = ClusterTournaments(
            self.bus,
            self._db,
            self.node_id,
            self.leases.ttl.total_seconds(),
            service,
            store,
            self._tables,
            lambda: self.draining,
            self.open_tournament_table,
        )
        self.tournaments = link
        self.owner.tournament_op = link.table_op
        await link.start()

    # -- ownership ----------------------------------------------------------------

    async def claim(self, table_id: str) -> int | None:
        """Take the table's lease and fence its documents; the token, or None if held."""
        lease = await self.keeper.take(table_id)
        if lease is None:
            return None
        try:
            await stamp(self._db, "tables", table_id, lease.token)
            await stamp(self._db, "live_hands", table_id, lease.token)
        except StaleOwner:
            self.keeper.held.pop(table_id, None)
            return None
        await self.owner.serve(table_id)
        return lease.token

    def _lost(self, table_id: str) -> None:
        """The lease ran out or was taken over: stop acting for the table now."""
        self.spawn(self._drop(table_id))

    def stale(self, table_id: str) -> None:
        """A fenced write was refused: another node owns the table."""
        self.keeper.held.pop(table_id, None)
        self.spawn(self._drop(table_id))

    def closed(self, table_id: str) -> None:
        """The table is closing (idle, or by its host): its lease is renewed no more. Not
        released: it runs out once the closing has moved the table's document away, so no
        node takes the table over meanwhile."""
        self.keeper.held.pop(table_id, None)
        self.spawn(self.owner.stop_serving(table_id))

    async def _drop(self, table_id: str) -> None:
        await self.owner.stop_serving(table_id)
        await self._tables.drop(table_id)

    async def _takeovers(self) -> None:
        await asyncio.sleep(LOAD_EVERY * 1.5)  # a period: hear the other nodes' loads first
        while True:
            try:
                await self.take_over()
            except PyMongoError as error:
                log.warning("takeover round failed", extra={"error": str(error)[:200]})
            await asyncio.sleep(self.takeover_every)  # a period, not a synchronisation

    async def take_over(self) -> list[str]:
        """Load free tables (lease lapsed or released, or never taken), up to a fair share."""
        async with self._taking:
            return await self._take_over()

    async def _take_over(self) -> list[str]:
        if self.draining:
            return []
        count, free = await self._free.find(lambda table_id: self._tables.get(table_id) is not None)
        if not free:
            return []
        alive = self.alive()
        mine = len(self._tables.all())
        share = math.ceil(count / len(alive)) - mine
        if self.least_loaded() == self.node_id:
            share = max(share, 1)
        taken: list[str] = []
        for table_id in free[: max(share, 0)]:
            if await self._tables.load(table_id):
                if self.keeper.token(table_id) is None:  # lost while it loaded
                    await self._drop(table_id)
                    continue
                taken.append(table_id)
                log.warning("table taken over", extra={"table_id": table_id})
        self.taken_over += len(taken)
        return taken

    # -- load and placement ---------------------------------------------------------

    def alive(self) -> dict[str, int]:
        """Live nodes and their table counts (this one included)."""
        cutoff = time.monotonic() - ALIVE_FOR
        counts = {node: n for node, (n, seen) in self._loads.items() if seen >= cutoff}
        counts[self.node_id] = len(self._tables.all())
        return counts

    def least_loaded(self) -> str:
        alive = self.alive()
        if self.draining and len(alive) > 1:
            alive.pop(self.node_id)
        return min(alive.items(), key=lambda item: (item[1], item[0]))[0]

    async def _report_load(self) -> None:
        while True:
            with contextlib.suppress(Exception):
                load = {
                    "node": self.node_id,
                    "tables": len(self._tables.all()),
                    "draining": self.draining,
                }
                await self.bus.publish("cluster.load", dumps(load))
            await asyncio.sleep(LOAD_EVERY)  # a period, not a synchronisation

    async def _heard(self, msg: Msg) -> None:
        body = loads(msg.data)
        node = str(body["node"])
        if body.get("draining"):
            self._loads.pop(node, None)  # neither placed on nor counted in fair shares
        elif node != self.node_id:
            self._loads[node] = (int(body["tables"]), time.monotonic())

    async def _freed(self, msg: Msg) -> None:
        """A draining node released a table: the least loaded node takes it now."""
        if not self.draining and self.least_loaded() == self.node_id:
            await self.take_over()

    # -- drain ------------------------------------------------------------------------

    async def drain(self) -> None:
        """Hand every table over between hands, none voided: no new hand is dealt; once
        a table's hand is over and its writes are stored it is stopped, its lease
        released and the other nodes told (`cluster.free`)."""
        if self.draining:
            return
        self.draining = True
        log.warning("draining: handing the tables over", extra={"node_id": self.node_id})
        await self.bus.publish("cluster.load", dumps({"node": self.node_id, "draining": True}))
        for runtime in self._tables.all():
            runtime.draining = True
        directors = self.tournaments.hand_over() if self.tournaments is not None else _none()
        await asyncio.gather(directors, *(self._hand_over(r.table_id) for r in self._tables.all()))

    async def _hand_over(self, table_id: str) -> None:
        while True:
            runtime = self._tables.get(table_id)
            if runtime is None:
                return
            if not runtime.summary().hand_in_progress:
                break
            await asyncio.sleep(0.05)  # a period: the hand ends when its players act
        await runtime.persister.drain(30.0)
        await self._drop(table_id)
        await self.keeper.give_up(table_id)
        await self.bus.publish("cluster.free", dumps({"table": table_id}))
        log.info("table handed over", extra={"table_id": table_id})

    async def create_on(
        self, node: str, request: CreateTableRequest, created_by: str
    ) -> TableDetail | None:
        """Create the table on another node; None if it does not answer (create here)."""
        body = {"request": request.model_dump(mode="json"), "created_by": created_by}
        try:
            reply = loads(await self.bus.request(f"node.{node}.create", dumps(body), within=5))
        except NoOwner:
            return None
        if "error" in reply:
            raise ValueError(str(reply["error"]))
        self._loads[node] = (self._loads.get(node, (0, 0.0))[0] + 1, time.monotonic())
        return TableDetail.model_validate(reply["detail"])

    async def _create(self, msg: Msg) -> None:
        body = loads(msg.data)
        request = CreateTableRequest.model_validate(body["request"])
        created_by = str(body["created_by"])
        try:
            runtime = await self._tables.create(request, created_by)
        except (RuleError, ValueError) as error:
            await msg.respond(dumps({"error": str(error)}))
            return
        detail = runtime.detail(created_by).model_dump(mode="json")
        await msg.respond(dumps({"detail": detail}))

    async def open_tournament_table(self, body: dict[str, Any]) -> bool:
        """A tournament's new table goes to the least loaded node, as a cash table does:
        True once another node opened it (its director's orders then cross the bus),
        False to open it here (this node is the least loaded, or the other declined)."""
        node = self.least_loaded()
        if node == self.node_id:
            return False
        try:
            reply = loads(await self.bus.request(f"node.{node}.open", dumps(body), within=5))
        except NoOwner:
            return False
        if "error" in reply:
            raise RuntimeError(str(reply["error"]))
        if reply.get("declined"):
            return False
        self._loads[node] = (self._loads.get(node, (0, 0.0))[0] + 1, time.monotonic())
        return True

    async def _open(self, msg: Msg) -> None:
        if self.draining or self.tournaments is None:
            await msg.respond(dumps({"declined": True}))
            return
        body = loads(msg.data)
        try:
            runtime = await self._tables.open_tournament_table(
                str(body["table_id"]),
                config_from_doc(body["config"]),
                str(body["name"]),
                str(body["tournament_id"]),
            )
        except (RuntimeError, PyMongoError) as error:
            await msg.respond(dumps({"error": str(error)[:200]}))
            return
        self.tournaments.opened(runtime)
        await msg.respond(dumps({"opened": runtime.table_id}))

    async def detail_of(
        self, table_id: str, viewer: str | None, invite: str | None
    ) -> TableDetail | None:
        """A table another node owns, as `viewer` may see it; None if hidden or unknown."""
        body = {"op": "detail", "viewer": viewer, "invite": invite}
        try:
            reply = loads(await self.bus.request(f"table.{table_id}.cmd", dumps(body)))
        except NoOwner:
            return None
        if not reply.get("ok"):
            return None
        return TableDetail.model_validate(reply["detail"])

    # -- liveness ---------------------------------------------------------------------

    async def _pong(self, msg: Msg) -> None:
        await msg.respond(b"ok")

    def watch(self, node: str, on_gone: Callable[[], None]) -> Callable[[], None]:
        """Call `on_gone` once the node stops answering pings; returns the unwatch."""
        callbacks = self._watched.get(node)
        if callbacks is None:
            callbacks = self._watched[node] = []
            self.spawn(self._ping(node))
        callbacks.append(on_gone)

        def unwatch() -> None:
            with contextlib.suppress(ValueError):
                callbacks.remove(on_gone)

        return unwatch

    async def _ping(self, node: str) -> None:
        while self._watched.get(node):
            try:
                await self.bus.request(f"node.{node}.ping", b"", within=PING_EVERY)
            except NoOwner:
                gone = self._watched.pop(node, [])
                log.warning("node gone", extra={"node": node, "sockets": len(gone)})
                for on_gone in gone:
                    on_gone()
                return
            await asyncio.sleep(PING_EVERY)  # a period, not a synchronisation
        self._watched.pop(node, None)

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        """Stop looking for tables; the caller stops the tables, then `release`."""
        for loop in self._loops:
            loop.cancel()
        await asyncio.gather(*self._loops, return_exceptions=True)
        await self.lobby.close()
        await self.filings.close()
        if self.ai is not None:
            await self.ai.close()
        await self.owner.close()

    async def release(self) -> None:
        """The tables are stopped and stored: their leases are freed for the other nodes."""
        await self.keeper.stop(release=True)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.bus.close()


async def _none() -> None:
    """Nothing to hand over (a node without tournaments)."""
