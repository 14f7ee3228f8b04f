"""The owner's side of sockets held by other nodes: their clients, reached over the bus.

A gateway node (backend.cluster.gateway) holds the player's WebSocket; the table's
owner holds a `Client` for it like any other, whose outbox publishes to that one
connection's subject `gw.<conn>.m` (and its close to `gw.<conn>.x`). The table
renders each seat's view once and hands each client its own, as for local sockets,
so a hidden card goes to no connection but the seat's own.
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

from backend.cluster.bus import Bus, dumps, loads
from backend.realtime.inbox import Client, Command, Join, Leave
from backend.realtime.manager import TableManager
from backend.realtime.outbox import Outbox
from protocol.messages import CloseCode, ErrorMessage, read_client_message

log = logging.getLogger(__name__)

MAX_REASON = 120  # bytes of a close reason the outbox sends (RFC 6455 allows 123)


class RemoteOutbox(Outbox):
    """An outbox whose socket is on another node: messages go over the bus, in order.

    Producers never wait, as with a socket's outbox; a full queue drops the client."""

    def __init__(self, bus: Bus, conn: str, size: int) -> None:  # no socket: no super()
        self._bus = bus
        self._subject = f"gw.{conn}"
        self._size = size
        self._queue: deque[str] = deque()
        self._wake = asyncio.Event()
        self._drained = asyncio.Event()
        self._drained.set()
        self._closing = False
        self._task = asyncio.create_task(self._send_loop(), name=f"remote-{conn}")

    def put(self, text: str) -> bool:
        if self._closing or len(self._queue) >= self._size:
            return False
        self._queue.append(text)
        self._drained.clear()
        self._wake.set()
        return True

    async def _send_loop(self) -> None:
        while True:
            while self._queue:
                text = self._queue.popleft()
                try:
                    await self._bus.publish(f"{self._subject}.m", text.encode())
                except Exception as error:  # the bus is away: this client is lost
                    log.warning("relay publish failed", extra={"error": str(error)[:200]})
                    self._queue.clear()
            self._drained.set()
            if self._closing:
                return
            self._wake.clear()
            await self._wake.wait()

    async def close(self, code: int, reason: str = "", flush: bool = False) -> None:
        """The queued messages go first, then the gateway is told to close the socket."""
        if self._closing:
            return
        self._closing = True
        self._wake.set()
        with contextlib.suppress(TimeoutError, Exception):
            async with asyncio.timeout(1.0):
                await self._task
        self._task.cancel()
        with contextlib.suppress(Exception):
            await self._bus.publish(f"{self._subject}.x", dumps({"code": code, "reason": reason}))


class OwnerSide:
    """Serves `table.<id>.cmd` for every table this node owns: joins, commands, leaves."""

    def __init__(
        self, bus: Bus, tables: TableManager, node_id: str, queue_size: int, url: str = ""
    ) -> None:
        self._bus = bus
        self._tables = tables
        self._node_id = node_id
        self._queue_size = queue_size
        # This node's address as clients reach it ("": none, relay only); it travels as
        # a close reason, which holds at most 123 bytes (the outbox sends 120).
        self._url = url if len(url.encode()) <= MAX_REASON else ""
        if url and not self._url:
            log.warning("NODE_URL too long to send: sockets are relayed", extra={"url": url})
        self.moved = 0  # joins answered with this node's address instead of a relay
        self._subs: dict[str, Subscription] = {}
        self._conns: dict[str, tuple[str, Client]] = {}  # conn -> (table id, client)
        # A tournament director's orders and asks (backend.cluster.tournaments).
        self.tournament_op: Callable[[str, dict[str, Any]], Awaitable[None]] | None = None

    async def serve(self, table_id: str) -> None:
        if table_id in self._subs:
            return

        async def handle(msg: Msg) -> None:
            await self._handle(table_id, msg)

        self._subs[table_id] = await self._bus.subscribe(f"table.{table_id}.cmd", handle)

    async def stop_serving(self, table_id: str) -> None:
        sub = self._subs.pop(table_id, None)
        if sub is not None:
            with contextlib.suppress(Exception):
                await sub.unsubscribe()
        for conn, (owned, client) in list(self._conns.items()):
            if owned == table_id:
                del self._conns[conn]
                await client.outbox.close(CloseCode.TRY_AGAIN, "the table moved: reconnect")

    @property
    def relayed(self) -> int:
        """Sockets on other nodes this node's tables serve now (over the bus)."""
        return len(self._conns)

    @property
    def serving(self) -> set[str]:
        return set(self._subs)

    async def _handle(self, table_id: str, msg: Msg) -> None:
        body = loads(msg.data)
        op, conn = str(body.get("op")), str(body.get("conn"))
        runtime = self._tables.get(table_id)
        if op.startswith("t.") and self.tournament_op is not None:
            await self.tournament_op(table_id, body)
            return
        if op == "detail":  # GET /api/tables/<id> on another node (backend.cluster.lobby)
            viewer, invite = body.get("viewer"), body.get("invite")
            viewer = viewer if isinstance(viewer, str) else None
            if runtime is None or not (
                runtime.visible_to(viewer)
                or runtime.invite_valid(invite if isinstance(invite, str) else None)
            ):
                await msg.respond(dumps({"ok": False}))
            else:
                detail = runtime.detail(viewer).model_dump(mode="json")
                await msg.respond(dumps({"ok": True, "detail": detail}))
            return
        if op == "join":
            if runtime is None:  # claimed, still loading (or being dropped)
                await msg.respond(dumps({"ok": False, "retry": True}))
                return
            player_id = str(body["player_id"])
            invite = body.get("invite")
            if not runtime.admit(player_id, invite if isinstance(invite, str) else None):
                await msg.respond(dumps({"ok": False}))
                return
            if body.get("follow") and self._url:
                # The client opens its socket here instead: no relay (docs/cluster.md §3).
                self.moved += 1
                await msg.respond(dumps({"ok": True, "node": self._node_id, "moved": self._url}))
                return
            client = Client(
                player_id, str(body["name"]), RemoteOutbox(self._bus, conn, self._queue_size)
            )
            self._conns[conn] = (table_id, client)
            last_seq = body.get("last_seq")
            runtime.post(Join(client, last_seq if isinstance(last_seq, int) else None))
            await msg.respond(dumps({"ok": True, "node": self._node_id}))
            return
        held = self._conns.get(conn)
        if held is None or runtime is None:
            return
        client = held[1]
        if op == "cmd":
            message = read_client_message(str(body["text"]))
            if isinstance(message, ErrorMessage):
                client.outbox.put(message.model_dump_json())
            else:
                runtime.post(Command(client, message))
        elif op == "leave":
            del self._conns[conn]
            runtime.post(Leave(client))
            await client.outbox.close(CloseCode.NORMAL)

    async def close(self) -> None:
        for table_id in list(self._subs):
            await self.stop_serving(table_id)
