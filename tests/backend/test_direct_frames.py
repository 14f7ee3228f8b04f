"""Frames written straight to uvicorn's connection are byte for byte those of ASGI's send.

A real uvicorn (websockets-sansio, as `showdown serve`) on a loopback socket; a raw TCP
client reads the frames as bytes. The same texts go out once through `DirectFrames` and
once through the ASGI send; under back-pressure the outbox falls back to ASGI in order;
with per-message compression nothing is written directly.
"""

from __future__ import annotations

import asyncio
import base64
import os
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import uvicorn
import websockets
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket

from backend.realtime.direct_frames import DirectFrames, DirectFramesScope, direct_frames
from backend.realtime.outbox import Outbox

# Every length encoding of a frame (7-bit, 16-bit, 64-bit) and non-ASCII text.
TEXTS = [
    "",
    "x",
    '{"type":"state","seq":1}',
    "é" * 62 + "a",  # 125 bytes: the longest 7-bit length
    "b" * 126,
    "♠♥♦♣" * 5000,
    "c" * 65535,
    "d" * 65536,
]


class CountingDirect(DirectFrames):
    """The real writer, counting what it wrote and what it left to ASGI."""

    written = 0
    refused = 0

    def write(self, frame: bytes) -> bool:
        done = super().write(frame)
        if done:
            CountingDirect.written += 1
        else:
            CountingDirect.refused += 1
        return done


# Set by the back-pressure endpoint once its socket stopped taking frames directly.
backed_up: asyncio.Queue[int] = asyncio.Queue()


async def texts_endpoint(websocket: WebSocket) -> None:
    await websocket.accept()
    found = direct_frames(websocket.scope)
    direct = None
    if websocket.query_params.get("direct") == "1":
        assert found is not None  # uvicorn's websockets-sansio: the scope carries one
        direct = CountingDirect(found._protocol)
    outbox = Outbox(websocket, 10_000, "test", direct)
    for text in TEXTS:
        assert outbox.put(text)
    await websocket.receive()  # until the client closes


async def pressure_endpoint(websocket: WebSocket) -> None:
    await websocket.accept()
    found = direct_frames(websocket.scope)
    assert found is not None
    outbox = Outbox(websocket, 10_000, "test", CountingDirect(found._protocol))
    chunk = "p" * 65536
    sent = 0
    while CountingDirect.refused == 0 and sent < 5_000:  # the client reads nothing yet
        assert outbox.put(f"{sent:06d}{chunk}")
        sent += 1
    for _ in range(20):  # queued behind the send that waits, sent through ASGI
        assert outbox.put(f"{sent:06d}{chunk}")
        sent += 1
    await backed_up.put(sent)
    await outbox.flush(wait=30.0)
    assert outbox.put(f"{sent:06d}")  # drained: straight out again
    await websocket.receive()


@asynccontextmanager
async def serving(compression: bool = False) -> AsyncIterator[int]:
    app = Starlette(
        routes=[
            WebSocketRoute("/texts", texts_endpoint),
            WebSocketRoute("/press", pressure_endpoint),
        ],
        middleware=[Middleware(DirectFramesScope)],
    )
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    config = uvicorn.Config(
        app,
        log_level="warning",
        ws="websockets-sansio",
        ws_ping_interval=None,
        ws_per_message_deflate=compression,
        lifespan="off",
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        yield sock.getsockname()[1]
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 20)
        sock.close()


async def raw_frames(port: int, path: str, count: int) -> list[bytes]:
    """The first `count` frames the server sends on `path`, each as its exact bytes."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = await reader.readuntil(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 101")
    frames = []
    for _ in range(count):
        start = await reader.readexactly(2)
        size = start[1] & 0x7F
        assert start[1] & 0x80 == 0  # a server's frames are not masked
        extended = b""
        if size == 126:
            extended = await reader.readexactly(2)
            size = int.from_bytes(extended, "big")
        elif size == 127:
            extended = await reader.readexactly(8)
            size = int.from_bytes(extended, "big")
        frames.append(start + extended + await reader.readexactly(size))
    writer.write(bytes([0x88, 0x82]) + os.urandom(4) + b"\x03\xe8")  # masked close 1000
    writer.close()
    return frames


def payload(frame: bytes) -> str:
    size = frame[1] & 0x7F
    offset = 2 if size < 126 else 4 if size == 126 else 10
    return frame[offset:].decode()


async def test_direct_frames_are_byte_for_byte_those_of_the_asgi_send() -> None:
    CountingDirect.written = CountingDirect.refused = 0
    async with serving() as port:
        direct = await raw_frames(port, "/texts?direct=1", len(TEXTS))
        through_asgi = await raw_frames(port, "/texts?direct=0", len(TEXTS))
    assert CountingDirect.written == len(TEXTS)
    assert CountingDirect.refused == 0
    assert direct == through_asgi
    assert [frame[0] for frame in direct] == [0x81] * len(TEXTS)  # FIN, text
    assert [payload(frame) for frame in direct] == TEXTS


async def test_under_back_pressure_the_outbox_sends_through_asgi_in_order() -> None:
    CountingDirect.written = CountingDirect.refused = 0
    async with serving() as port:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(
            (
                f"GET /press HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        await reader.readuntil(b"\r\n\r\n")
        sent = await asyncio.wait_for(backed_up.get(), 30)
        assert CountingDirect.refused >= 1  # the socket pushed back: ASGI took over
        numbers = []
        for _ in range(sent + 1):
            start = await reader.readexactly(2)
            size = start[1] & 0x7F
            if size == 126:
                size = int.from_bytes(await reader.readexactly(2), "big")
            elif size == 127:
                size = int.from_bytes(await reader.readexactly(8), "big")
            numbers.append(int((await reader.readexactly(size))[:6]))
        writer.write(bytes([0x88, 0x82]) + os.urandom(4) + b"\x03\xe8")
        writer.close()
    assert numbers == list(range(sent + 1))  # every message, in order, none twice
    assert CountingDirect.written >= 2  # before the push-back, and after the drain


async def test_with_per_message_compression_nothing_is_written_directly() -> None:
    CountingDirect.written = CountingDirect.refused = 0
    async with serving(compression=True) as port:
        uri = f"ws://127.0.0.1:{port}/texts?direct=1"
        async with websockets.connect(uri, compression="deflate", max_size=None) as client:
            assert client.protocol.extensions  # deflate negotiated
            received = [await client.recv() for _ in TEXTS]
    assert received == TEXTS
    assert CountingDirect.written == 0
    assert CountingDirect.refused == len(TEXTS)
