"""The message bus between nodes: a thin layer over nats-py (docs/cluster.md).

Core NATS only: subjects, request/reply, fan-out. Payloads are bytes (JSON or a
rendered message's text); the bus sits inside the trust boundary (clients never
connect to it), so a per-connection subject is as private as the socket it serves.

Subjects:
- `table.<id>.cmd`: the table's owner subscribes while it holds the lease; gateways
  send joins (requests), commands and leaves there.
- `gw.<conn>.m` / `gw.<conn>.x`: one gateway connection's messages / its close.
- `node.<id>.ping`, `node.<id>.create`: a node's liveness and table placement.
- `cluster.load`: every node's table count, once a second.
- the events that cross tables (backend.cluster.lobby, .filings) and the AI relay
  (backend.cluster.ai_relay) list their own subjects.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import nats
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from nats.errors import NoRespondersError
from nats.errors import TimeoutError as NatsTimeout

log = logging.getLogger(__name__)

Handler = Callable[[Msg], Awaitable[None]]


class NoOwner(Exception):
    """Nobody answers the subject (no responders, or not in time)."""


def dumps(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, separators=(",", ":")).encode()


def loads(data: bytes) -> dict[str, Any]:
    value = json.loads(data)
    if not isinstance(value, dict):
        raise ValueError("a bus message must be a JSON object")
    return value


class Bus:
    def __init__(self, nc: NATS) -> None:
        self._nc = nc

    @classmethod
    async def connect(cls, url: str, name: str) -> Bus:
        nc = await nats.connect(
            url,
            name=name,
            max_reconnect_attempts=-1,  # the bus restarts: keep trying
            reconnect_time_wait=0.2,
            allow_reconnect=True,
        )
        return cls(nc)

    async def publish(self, subject: str, data: bytes) -> None:
        await self._nc.publish(subject, data)

    async def request(self, subject: str, data: bytes, within: float = 2.0) -> bytes:
        """The reply's payload; NoOwner when nobody subscribes or answers in time."""
        try:
            reply = await self._nc.request(subject, data, timeout=within)
        except (NoRespondersError, NatsTimeout) as error:
            raise NoOwner(subject) from error
        return reply.data

    async def gather(self, subject: str, data: bytes, expect: int, within: float) -> list[bytes]:
        """Publish a request every subscriber answers; their replies, up to `expect` of
        them, as many as came within `within` seconds."""
        replies: list[bytes] = []
        enough = asyncio.Event()

        async def reply(msg: Msg) -> None:
            replies.append(msg.data)
            if len(replies) >= expect:
                enough.set()

        inbox = self._nc.new_inbox()
        sub = await self._nc.subscribe(inbox, cb=reply)
        try:
            await self._nc.publish(subject, data, reply=inbox)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(within):
                    await enough.wait()
        finally:
            with contextlib.suppress(Exception):
                await sub.unsubscribe()
        return replies[:expect]

    async def subscribe(self, subject: str, handler: Handler, queue: str = "") -> Subscription:
        async def guarded(msg: Msg) -> None:
            try:
                await handler(msg)
            except Exception:  # one bad message must not end the subscription
                log.exception("bus handler failed", extra={"subject": msg.subject})

        return await self._nc.subscribe(subject, queue=queue, cb=guarded)

    async def flush(self) -> None:
        await self._nc.flush()

    async def close(self) -> None:
        if not self._nc.is_closed:
            await self._nc.drain()
