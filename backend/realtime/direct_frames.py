"""A message to many sockets framed once and written straight to each connection.

A table sends the same state to each of its spectators. Through the ASGI `send`, each
copy is encoded, framed by websockets and passed through starlette's and uvicorn's
layers: under `showdown bench server` (100 tables, 500 spectators) that was 40% of a
send's CPU beside the `write` system call itself. uvicorn's websockets-sansio protocol
sends a text frame with one `transport.write`; `DirectFrames` writes the same bytes,
built once per message, when nothing stands in the way: the connection open and
writable, no per-message compression (a deflated frame cannot be shared between
connections). Otherwise the caller sends through ASGI as before.

The server's `send` is seen only by an ASGI middleware (`DirectFramesScope`), which
puts a `DirectFrames` in the socket's scope for the endpoint: under another server,
or another uvicorn protocol, there is none and every message goes through ASGI.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State

SCOPE_KEY = "showdown.direct_frames"


class DirectFrames:
    """Writes ready-made text frames to one uvicorn websockets-sansio connection."""

    def __init__(self, protocol: WebSocketsSansIOProtocol) -> None:
        self._protocol = protocol

    def write(self, frame: bytes) -> bool:
        """Write `frame` as uvicorn's `send` would; False (nothing written) when it
        cannot be written now: the caller then sends the message through ASGI."""
        protocol = self._protocol
        if (
            protocol.close_sent
            or protocol.disconnected
            or not protocol.writable.is_set()  # back-pressure: ASGI's send waits for it
            or protocol.conn.state is not State.OPEN
            or protocol.conn.extensions  # compressed per connection
            or protocol.transport.is_closing()
        ):
            return False
        protocol.transport.write(frame)
        return True


# The last message framed: a table sends one text to its spectators in a row.
_last: tuple[str | None, bytes] = (None, b"")


def text_frame(text: str) -> bytes:
    """The unmasked, unfragmented WebSocket text frame of `text` (as a server sends it)."""
    global _last
    if _last[0] is not text:  # identity: the cached string is held, so never reused
        _last = (text, Frame(Opcode.TEXT, text.encode()).serialize(mask=False))
    return _last[1]


class DirectFramesScope:
    """Pure ASGI middleware: a WebSocket's scope gets its `DirectFrames` (or None)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            protocol = getattr(send, "__self__", None)
            if isinstance(protocol, WebSocketsSansIOProtocol):
                scope[SCOPE_KEY] = DirectFrames(protocol)
        await self.app(scope, receive, send)


def direct_frames(scope: Scope) -> DirectFrames | None:
    found = scope.get(SCOPE_KEY)
    return found if isinstance(found, DirectFrames) else None
