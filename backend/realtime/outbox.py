"""A bounded send queue with its own sender task, one per WebSocket.

Producers never wait: `put` drops the message and reports False when the queue
is full, and the owner then closes the socket (a client that cannot keep up is
dropped and may reconnect). So one slow client never slows a table.

A message put while nothing is queued is sent at once, in the caller's step:
a socket that is not applying back-pressure takes it without waiting, and the
message leaves before the loop runs anything else (no hop through the sender
task, which under load meant waiting for every other table's work first). Only
when the socket makes the send wait is it handed to the sender task, which
finishes it and sends whatever queued meanwhile, in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Coroutine
from typing import Any

from starlette.websockets import WebSocket, WebSocketState

log = logging.getLogger(__name__)

# A send that had to wait: the coroutine, suspended, and what it waits on.
_Suspended = tuple[Coroutine[Any, Any, None], Any]


class Outbox:
    def __init__(self, websocket: WebSocket, size: int, name: str) -> None:
        self._ws = websocket
        self._size = size
        self._queue: deque[str] = deque()
        self._suspended: _Suspended | None = None
        self._busy = False  # the sender task is sending: new messages queue behind it
        self._wake = asyncio.Event()
        self._drained = asyncio.Event()  # set while nothing is queued or being sent
        self._drained.set()
        self._closing = False
        self._task = asyncio.create_task(self._send_loop(), name=f"outbox-{name}")

    @property
    def closing(self) -> bool:
        return self._closing

    def put(self, text: str) -> bool:
        """Send or queue a message; False when the queue is full or the socket is closing."""
        if self._closing or len(self._queue) >= self._size:
            return False
        if not self._busy and not self._queue:
            self._send_now(text)
            return True
        self._queue.append(text)
        return True

    def _send_now(self, text: str) -> None:
        """Run the send up to its first wait; a send that waits goes to the sender task."""
        send = self._ws.send_text(text)
        try:
            waiting_on = send.send(None)
        except StopIteration:
            return  # the socket took it
        except Exception as error:
            self._failed(error)
            return
        self._suspended = (send, waiting_on)
        self._busy = True
        self._drained.clear()
        self._wake.set()

    async def _send_loop(self) -> None:
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                if self._suspended is not None:
                    suspended, self._suspended = self._suspended, None
                    await _finish(*suspended)
                while self._queue:
                    # Left in the queue while it is sent, so it counts against the size.
                    await self._ws.send_text(self._queue[0])
                    self._queue.popleft()
                self._busy = False
                self._drained.set()
        except asyncio.CancelledError:
            raise
        except Exception as error:
            self._failed(error)

    def _failed(self, error: Exception) -> None:
        # The socket went away: its receive loop ends the session.
        log.debug("send failed", extra={"error": repr(error)})
        self._closing = True

    async def flush(self, wait: float = 1.0) -> None:
        """Give queued messages (e.g. a final error) a moment to go out before closing."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(wait):
                await self._drained.wait()

    async def close(self, code: int, reason: str = "", flush: bool = False) -> None:
        """Stop sending and close the socket (idempotent)."""
        if flush and not self._closing:
            await self.flush()
        self._closing = True
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._task
        if self._suspended is not None:  # a send the task never got to: abandon it
            self._suspended[0].close()
            self._suspended = None
        if self._ws.client_state is WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):
                await self._ws.close(code=code, reason=reason[:120])


async def _finish(send: Coroutine[Any, Any, None], waiting_on: Any) -> None:
    """Drive a send started by `_send_now` to its end, as a task would have.

    The coroutine yielded what it waits on (a future, or None for a bare yield):
    wait for it, then resume the coroutine, which reads the future's outcome itself,
    until it returns. If this task is cancelled meanwhile, the send is closed.
    """
    try:
        while True:
            if waiting_on is None:
                await asyncio.sleep(0)
            else:
                await asyncio.wait((waiting_on,))  # never raises the future's error here
            waiting_on = send.send(None)
    except StopIteration:
        return
    finally:
        send.close()
