"""A bounded send queue with its own sender task, one per WebSocket.

Producers never wait: `put` drops the message and reports False when the queue
is full, and the owner then closes the socket (a client that cannot keep up is
dropped and may reconnect). So one slow client never slows a table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from starlette.websockets import WebSocket, WebSocketState

log = logging.getLogger(__name__)


class Outbox:
    def __init__(self, websocket: WebSocket, size: int, name: str) -> None:
        self._ws = websocket
        self._queue: asyncio.Queue[str] = asyncio.Queue(maxsize=size)
        self._closing = False
        self._task = asyncio.create_task(self._send_loop(), name=f"outbox-{name}")

    @property
    def closing(self) -> bool:
        return self._closing

    def put(self, text: str) -> bool:
        """Queue a message; False when the queue is full or the socket is closing."""
        if self._closing:
            return False
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            return False
        return True

    async def _send_loop(self) -> None:
        try:
            while True:
                text = await self._queue.get()
                await self._ws.send_text(text)
                self._queue.task_done()
        except asyncio.CancelledError:
            raise
        except Exception as error:  # the socket went away: the receive loop ends the session
            log.debug("send failed", extra={"error": repr(error)})
            self._closing = True

    async def flush(self, wait: float = 1.0) -> None:
        """Give queued messages (e.g. a final error) a moment to go out before closing."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(wait):
                await self._queue.join()

    async def close(self, code: int, reason: str = "", flush: bool = False) -> None:
        """Stop sending and close the socket (idempotent)."""
        if flush and not self._closing:
            await self.flush()
        self._closing = True
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._task
        if self._ws.client_state is WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await self._ws.close(code=code, reason=reason[:120])
