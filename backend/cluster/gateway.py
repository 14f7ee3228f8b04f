"""A table socket opened on a node that does not own the table: relayed over the bus.

This node authenticates the player and checks its input as for a local table
(size, rate, JSON, fields: backend.realtime.endpoint), then forwards each valid
command to the owner on `table.<id>.cmd`; the owner sends this connection's own
messages to `gw.<conn>.m`, which go to the socket as they are. If nobody owns
the table (its node died, the lease has not expired yet) the socket is closed
with "try again": the client reconnects and lands wherever the table is then.
If the owner stops answering its pings, the same.

A client that follows moves (`?follow=1`) is not relayed when the owner has an
address clients reach (`NODE_URL`): the owner admits it, answers its address, and
the socket is closed with 4010 "moved" and that address, where the client opens
its socket again. Only the first connection moves: the client reconnects where it
first connected, which sends it to whichever node owns the table then.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets

from nats.aio.msg import Msg
from starlette.websockets import WebSocket

from backend.cluster.bus import NoOwner, dumps, loads
from backend.cluster.node import ClusterNode
from backend.realtime.endpoint import _authenticate, _receive_loop, _refuse
from backend.realtime.inbox import Client, Command
from backend.realtime.limits import TokenBucket
from backend.realtime.outbox import Outbox
from backend.state import AppState
from protocol.messages import CloseCode

log = logging.getLogger(__name__)

JOIN_WITHIN = 2.0  # seconds the owner has to answer a join


async def relay_table_socket(
    websocket: WebSocket, table_id: str, state: AppState, node: ClusterNode
) -> None:
    """The socket is accepted and its origin checked; the table is not this node's."""
    signed_in = await _authenticate(websocket, state)
    if signed_in is None:
        return
    principal, last_seq, invite = signed_in
    settings = state.settings
    conn = f"{node.node_id}-{secrets.token_hex(6)}"
    outbox = Outbox(websocket, settings.send_queue_size, principal.player_id)
    client = Client(principal.player_id, principal.name, outbox)

    async def deliver(msg: Msg) -> None:
        if msg.subject.endswith(".m"):
            if not outbox.put(msg.data.decode()) and not outbox.closing:
                await outbox.close(CloseCode.TRY_AGAIN, "too slow: reconnect")
        else:
            close = loads(msg.data)
            await outbox.close(int(close.get("code", CloseCode.TRY_AGAIN)), str(close["reason"]))

    bus = node.bus
    sub = await bus.subscribe(f"gw.{conn}.*", deliver)
    subject = f"table.{table_id}.cmd"
    join = {
        "op": "join",
        "conn": conn,
        "player_id": principal.player_id,
        "name": principal.name,
        "last_seq": last_seq,
        "invite": invite,
        "follow": websocket.query_params.get("follow") == "1",
    }
    try:
        reply = loads(await bus.request(subject, dumps(join), within=JOIN_WITHIN))
    except NoOwner:
        reply = {"ok": False, "retry": await state.repos.tables.one(table_id) is not None}
    if not reply.get("ok"):
        await sub.unsubscribe()
        if reply.get("retry"):
            # The table is between owners: the client reconnects and finds the new one.
            await outbox.close(CloseCode.TRY_AGAIN, "the table is moving to another node")
        else:
            await _refuse(
                websocket, "unknown_table", f"no table {table_id!r}", CloseCode.UNKNOWN_TABLE
            )
            await outbox.close(CloseCode.UNKNOWN_TABLE)
        return
    moved = reply.get("moved")
    if isinstance(moved, str):  # the owner admitted the player: open the socket there
        await sub.unsubscribe()
        await outbox.close(CloseCode.MOVED, moved)
        return

    forward: asyncio.Queue[Command] = asyncio.Queue()

    async def forwarding() -> None:
        while True:
            command = await forward.get()
            text = command.message.model_dump_json()
            await bus.publish(subject, dumps({"op": "cmd", "conn": conn, "text": text}))

    sender = asyncio.create_task(forwarding(), name=f"forward-{conn}")
    unwatch = node.watch(
        str(reply["node"]),
        lambda: node.spawn(outbox.close(CloseCode.TRY_AGAIN, "the table's node is gone")),
    )
    state.session_sockets.add(principal.session_id, outbox)
    bucket = TokenBucket(settings.messages_per_second, settings.message_burst)
    try:
        await _receive_loop(websocket, client, bucket, state, forward.put_nowait)
    finally:
        unwatch()
        state.session_sockets.discard(principal.session_id, outbox)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await sender
        with contextlib.suppress(Exception):
            while not forward.empty():  # commands sent just before the socket closed
                text = forward.get_nowait().message.model_dump_json()
                await bus.publish(subject, dumps({"op": "cmd", "conn": conn, "text": text}))
            await bus.publish(subject, dumps({"op": "leave", "conn": conn}))
            await sub.unsubscribe()
        await outbox.close(CloseCode.NORMAL)
