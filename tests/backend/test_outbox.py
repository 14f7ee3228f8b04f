"""The per-socket send queue: immediate sends, back-pressure, order, limits, failure."""

from __future__ import annotations

import asyncio

from starlette.websockets import WebSocketState

from backend.realtime.outbox import Outbox


class GatedSocket:
    """The network boundary: sends complete at once while the gate is open, else wait."""

    def __init__(self, *, open_: bool = True, fail: bool = False) -> None:
        self.client_state = WebSocketState.CONNECTED
        self.gate = asyncio.Event()
        if open_:
            self.gate.set()
        self.fail = fail
        self.sent: list[str] = []
        self.abandoned = 0  # sends closed while waiting at the gate
        self.closed_with: int | None = None

    async def send_text(self, text: str) -> None:
        if self.fail:
            raise RuntimeError("connection lost")
        if not self.gate.is_set():
            try:
                await self.gate.wait()
            except GeneratorExit:
                self.abandoned += 1
                raise
        self.sent.append(text)

    async def close(self, code: int = 1000, reason: str = "") -> None:
        self.client_state = WebSocketState.DISCONNECTED
        self.closed_with = code


async def test_a_message_to_an_idle_socket_is_sent_before_put_returns() -> None:
    socket = GatedSocket()
    outbox = Outbox(socket, 4, "test")  # type: ignore[arg-type]
    assert outbox.put("one")
    assert socket.sent == ["one"]  # no await in between: it did not wait for a task
    assert outbox.put("two")
    assert socket.sent == ["one", "two"]
    await outbox.close(1000)


async def test_a_send_that_waits_is_finished_first_and_later_messages_follow_in_order() -> None:
    socket = GatedSocket(open_=False)
    outbox = Outbox(socket, 4, "test")  # type: ignore[arg-type]
    assert outbox.put("one")
    assert outbox.put("two")
    assert outbox.put("three")
    assert socket.sent == []
    socket.gate.set()
    await outbox.flush()
    assert socket.sent == ["one", "two", "three"]
    assert outbox.put("four")  # idle again: straight out
    assert socket.sent[-1] == "four"
    await outbox.close(1000)


async def test_a_socket_that_stops_taking_messages_fills_the_queue_and_is_refused() -> None:
    socket = GatedSocket(open_=False)
    outbox = Outbox(socket, 2, "test")  # type: ignore[arg-type]
    assert outbox.put("in flight")
    assert outbox.put("queued 1")
    assert outbox.put("queued 2")
    assert not outbox.put("one too many")
    await outbox.close(1013)
    assert socket.abandoned == 1  # the waiting send was closed, not left suspended
    assert socket.closed_with == 1013
    assert socket.sent == []


async def test_a_failed_send_marks_the_outbox_closing() -> None:
    socket = GatedSocket(fail=True)
    outbox = Outbox(socket, 4, "test")  # type: ignore[arg-type]
    outbox.put("lost")
    assert outbox.closing
    assert not outbox.put("after")
    await outbox.close(1000)
