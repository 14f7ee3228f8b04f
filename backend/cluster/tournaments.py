"""Tournaments on a cluster: one director per tournament, its tables anywhere.

- **A lease per tournament** (`tournament_leases`, the same `Leases` as the tables'):
  a node runs a director only while it holds its lease, and the director's writes to
  the tournament's document carry the lease's token (backend.tournament.store), so a
  stale director is refused. Every few seconds each node looks for unfinished
  tournaments whose lease is not held (their node died, or stopped) and takes them:
  the director resumes from the stored state, as after a restart.
- **Orders** to a table another node owns go to `table.<id>.cmd` (`op: t.orders`),
  which only the table's owner serves; `t.seats` asks it for its seats between hands.
- **Reports** of a table whose director is elsewhere (a hand started, finished, its
  seats) go to `tournament.<id>.report`; the director's node handles them in order.
  The table's node keeps each hand's reports until a state the director stored counts
  them (the `counted` its publication carries), and tells them again, before the seats,
  to a director just taken over: one published while no node directed is not lost.
- **Replicas**: after each write the director publishes the state on
  `tournament.<id>.state`; the other nodes show pages, views and the AI's situation
  from it, and forward a player's requests on `tournament.<id>.req`.

Everything a node sends goes through one ordered queue (a table's reports and a
director's orders are applied in the order they were made).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import PyMongoError

from backend.cluster.bus import Bus, NoOwner, dumps, loads
from backend.cluster.fencing import StaleOwner, stamp
from backend.cluster.keeper import LeaseKeeper
from backend.cluster.leases import Leases
from backend.db.codec import Document, config_to_doc
from backend.realtime.inbox import Orders
from backend.realtime.manager import TableManager
from backend.realtime.runtime import TableRuntime
from backend.tournament.director import Order, OrderKind, State
from backend.tournament.seats import chips
from backend.tournament.service import TournamentService
from backend.tournament.store import TournamentStore
from backend.tournament.structures import Level
from holdem.config import TableConfig

log = logging.getLogger(__name__)

LEASES = "tournament_leases"
FORWARD_WITHIN = 5.0  # seconds a forwarded request may take at the director's node


def order_doc(order: Order) -> dict[str, Any]:
    return {
        "kind": order.kind.value,
        "table_id": order.table_id,
        "player_id": order.player_id,
        "name": order.name,
        "seat": order.seat,
        "chips": order.chips,
        "is_bot": order.is_bot,
        "level": order.level.model_dump(mode="json") if order.level is not None else None,
    }


def order_from(doc: dict[str, Any]) -> Order:
    level = doc.get("level")
    return Order(
        OrderKind(doc["kind"]),
        str(doc["table_id"]),
        player_id=doc.get("player_id"),
        name=doc.get("name"),
        seat=doc.get("seat"),
        chips=int(doc.get("chips", 0)),
        is_bot=bool(doc.get("is_bot", False)),
        level=Level.model_validate(level) if level is not None else None,
    )


class ClusterTournaments:
    """The service's `Link` on one node: leases, takeovers, and the bus."""

    def __init__(
        self,
        bus: Bus,
        db: AsyncDatabase[Document],
        node_id: str,
        ttl: float,
        service: TournamentService,
        store: TournamentStore,
        tables: TableManager,
        draining: Callable[[], bool],
        place: Callable[[dict[str, Any]], Awaitable[bool]],
    ) -> None:
        self._bus = bus
        self._db = db
        self._node_id = node_id
        self._service = service
        self._store = store
        self._tables = tables
        self._draining = draining
        self._place = place
        self.leases = Leases(db, node_id, ttl=ttl, collection=LEASES)
        self.keeper = LeaseKeeper(self.leases, self._lost)
        self.every = max(0.2, ttl / 5)
        self.taken_over = 0  # directors this node took from a lapsed or released lease
        self._requests: dict[str, Subscription] = {}
        self._subs: list[Subscription] = []
        self._out: deque[tuple[str, bytes]] = deque()
        self._wake = asyncio.Event()
        self._sent = asyncio.Event()  # set while nothing waits to be published
        self._tasks: list[asyncio.Task[None]] = []
        self._taking = asyncio.Lock()
        self._asks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self._service.link = self
        self._tables.tournament_loaded = self._service.table_loaded
        for runtime in self._tables.all():  # loaded by a takeover round before this
            self._service.adopt(runtime)
        self._subs = [
            await self._bus.subscribe("tournament.*.report", self._reported),
            await self._bus.subscribe("tournament.*.state", self._replicated),
            await self._bus.subscribe("tournament.free", self._freed),
        ]
        self.keeper.start()
        self._tasks = [
            asyncio.create_task(self._sending(), name="tournament-bus"),
            asyncio.create_task(self._takeovers(), name="tournament-takeover"),
        ]

    # -- leases -----------------------------------------------------------------------

    async def claim(self, tournament_id: str) -> int | None:
        """The tournament's lease, its document fenced with the token; None if held."""
        lease = await self.keeper.take(tournament_id)
        if lease is None:
            return None
        try:
            await stamp(self._db, "tournaments", tournament_id, lease.token)
        except StaleOwner:
            self.keeper.held.pop(tournament_id, None)
            return None
        if tournament_id not in self._requests:

            async def handle(msg: Msg) -> None:
                await self._request(tournament_id, msg)

            subject = f"tournament.{tournament_id}.req"
            self._requests[tournament_id] = await self._bus.subscribe(subject, handle)
        return lease.token

    def _lost(self, tournament_id: str) -> None:
        self._service.drop(tournament_id)
        self._unserve(tournament_id)

    def _unserve(self, tournament_id: str) -> None:
        """Players' requests for the tournament are no longer carried out here."""
        sub = self._requests.pop(tournament_id, None)
        if sub is not None:
            task = asyncio.get_running_loop().create_task(self._unsubscribe(sub))
            self._asks.add(task)
            task.add_done_callback(self._asks.discard)

    async def _unsubscribe(self, sub: Subscription) -> None:
        with contextlib.suppress(Exception):
            await sub.unsubscribe()

    async def _takeovers(self) -> None:
        while True:
            try:
                await self.take_over()
            except PyMongoError as error:
                log.warning("tournament takeover failed", extra={"error": str(error)[:200]})
            await asyncio.sleep(self.every)  # a period, not a synchronisation

    async def take_over(self) -> list[str]:
        """Direct the unfinished tournaments nobody holds (their node died or stopped)."""
        async with self._taking:
            if self._draining():
                return []
            ids = await self._store.unfinished()
            now = self.leases.now()
            held = {
                str(doc["_id"])
                async for doc in self._db[LEASES].find(
                    {"_id": {"$in": ids}, "expires_at": {"$gt": now}}, {"_id": 1}
                )
            }
            taken: list[str] = []
            for tournament_id in ids:
                if tournament_id in held or self._service.holds(tournament_id):
                    continue
                token = await self.claim(tournament_id)
                if token is None:
                    continue
                if await self._service.take(tournament_id, token):
                    taken.append(tournament_id)
                else:  # finished meanwhile
                    await self.keeper.give_up(tournament_id)
            self.taken_over += len(taken)
            return taken

    async def hand_over(self) -> None:
        """The node drains: each director it runs stops, its last state stored (fenced),
        its lease released and the other nodes told (`tournament.free`), so one of them
        takes it at once from the stored state and reconciles its tables between hands.
        No hand is voided; a table's report sent meanwhile is told again to that one."""
        for tournament_id in self._service.directing():
            self._unserve(tournament_id)  # (a forwarded request would come back here)
            await self._service.release(tournament_id)
            await self._published()  # its last orders reach the tables before the lease goes
            await self.keeper.give_up(tournament_id)
            await self._bus.publish("tournament.free", dumps({"tournament": tournament_id}))
            log.info("tournament director handed over", extra={"tournament_id": tournament_id})

    async def _published(self) -> None:
        """Once everything queued so far is published and the bus server has it."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(FORWARD_WITHIN):
                await self._sent.wait()
        with contextlib.suppress(Exception):
            await self._bus.flush()

    async def _freed(self, msg: Msg) -> None:
        """A draining node released a director: take it now (the lease decides who)."""
        if not self._draining():
            await self.take_over()

    async def open_table(
        self, table_id: str, config: TableConfig, name: str, tournament_id: str
    ) -> bool:
        """A new table of a tournament directed here, on the least loaded node: True if
        another node opened it, False to open it here."""
        body = {
            "table_id": table_id,
            "config": config_to_doc(config),
            "name": name,
            "tournament_id": tournament_id,
        }
        return await self._place(body)

    def opened(self, runtime: TableRuntime) -> None:
        """This node opened a table for another node's director (placement)."""
        self._service.opened(runtime)

    # -- the bus ----------------------------------------------------------------------

    def _queue(self, subject: str, payload: dict[str, Any]) -> None:
        self._out.append((subject, dumps(payload)))
        self._sent.clear()
        self._wake.set()

    async def _sending(self) -> None:
        while True:
            while self._out:
                subject, data = self._out.popleft()
                try:
                    await self._bus.publish(subject, data)
                except Exception as error:  # the bus is away: a takeover's reconcile repairs
                    log.warning("tournament publish failed", extra={"error": str(error)[:200]})
            self._wake.clear()
            self._sent.set()
            await self._wake.wait()

    def send(self, table_id: str, orders: list[Order]) -> None:
        body = {"op": "t.orders", "orders": [order_doc(o) for o in orders]}
        self._queue(f"table.{table_id}.cmd", body)

    def ask_seats(self, table_id: str) -> None:
        self._queue(f"table.{table_id}.cmd", {"op": "t.seats"})

    def report(self, tournament_id: str, body: dict[str, Any]) -> None:
        self._queue(f"tournament.{tournament_id}.report", body)

    def publish(self, state: State, counted: dict[str, int]) -> None:
        """After a write: the state (in memory: maybe ahead of the store) for the replicas,
        and the hands the write stored as counted, which acknowledge the tables' reports."""
        body = {
            "node": self._node_id,
            "state": state.model_dump(mode="json"),
            "counted": counted,
        }
        self._queue(f"tournament.{state.tournament_id}.state", body)

    async def forward(self, tournament_id: str, body: dict[str, Any]) -> dict[str, Any]:
        """A player's request, carried out by the tournament's director's node."""
        try:
            data = await self._bus.request(
                f"tournament.{tournament_id}.req", dumps(body), within=FORWARD_WITHIN
            )
        except NoOwner:
            return {"error": "the tournament's director is moving: try again", "kind": "refused"}
        return loads(data)

    async def table_op(self, table_id: str, body: dict[str, Any]) -> None:
        """`t.orders` and `t.seats` for a table this node owns (backend.cluster.remote)."""
        op = body.get("op")
        runtime = self._tables.get(table_id)
        if runtime is None:
            return  # still loading or gone: it reports its seats once loaded
        if op == "t.orders":
            orders = tuple(order_from(doc) for doc in body.get("orders", []))
            runtime.post(Orders(orders))
        elif op == "t.seats":  # not awaited: the table's commands go on meanwhile
            self._service.resend(table_id)  # (queued before the seats: told first)
            task = asyncio.get_running_loop().create_task(self._service.seats_when_idle(table_id))
            self._asks.add(task)
            task.add_done_callback(self._asks.discard)

    async def _reported(self, msg: Msg) -> None:
        tournament_id = msg.subject.split(".")[1]
        if self._service.holds(tournament_id):
            self._service.reported(tournament_id, loads(msg.data))

    async def _replicated(self, msg: Msg) -> None:
        body = loads(msg.data)
        if body.get("node") != self._node_id:
            state = State.model_validate(body["state"])
            self._service.acknowledged(state.tournament_id, chips(body.get("counted") or {}))
            self._service.replicate(state)

    async def _request(self, tournament_id: str, msg: Msg) -> None:
        reply = await self._service.serve_request(tournament_id, loads(msg.data))
        await msg.respond(dumps(reply))

    async def close(self) -> None:
        """Stop taking directors; the directors' leases released (stored already)."""
        for task in [*self._tasks, *self._asks]:
            task.cancel()
        await asyncio.gather(*self._tasks, *self._asks, return_exceptions=True)
        for subject, data in list(self._out):
            with contextlib.suppress(Exception):
                await self._bus.publish(subject, data)
        self._out.clear()
        for sub in [*self._subs, *self._requests.values()]:
            with contextlib.suppress(Exception):
                await sub.unsubscribe()
        await self.keeper.stop(release=True)
