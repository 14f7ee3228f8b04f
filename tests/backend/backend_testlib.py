"""Test helpers: an in-process server on a real socket, and a WebSocket client that waits."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import Callable
from typing import Any

import httpx
import uvicorn
import websockets
from websockets.asyncio.client import ClientConnection

from backend.app import create_app
from backend.settings import Settings
from backend.state import AppState

Message = dict[str, Any]
TIMEOUT = 10.0
AI_SECRET = "test-ai-secret"


class RunningServer:
    """uvicorn serving create_app(settings) on a free loopback port, in this event loop."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.app = create_app(settings)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(128)  # connections wait in the backlog until uvicorn is up
        self.port: int = self.sock.getsockname()[1]
        config = uvicorn.Config(
            self.app,
            log_level="warning",
            ws_max_size=1 << 20,
            lifespan="on",
            ws="websockets-sansio",
            proxy_headers=False,  # as `showdown serve`: the app decides whom to believe
        )
        self.server = uvicorn.Server(config)
        self._task: asyncio.Task[None] | None = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, path: str) -> str:
        return f"ws://127.0.0.1:{self.port}{path}"

    @property
    def state(self) -> AppState:
        state: AppState = self.app.state.showdown
        return state

    async def start(self) -> RunningServer:
        self._task = asyncio.create_task(self.server.serve(sockets=[self.sock]))
        async with httpx.AsyncClient(base_url=self.http) as client:
            (await client.get("/healthz")).raise_for_status()  # answers once started
        return self

    async def stop(self) -> None:
        self.server.should_exit = True
        if self._task is not None:
            await asyncio.wait_for(self._task, 20)
        self.sock.close()


class WsClient:
    """A real WebSocket client that keeps every message it received."""

    def __init__(self, conn: ClientConnection) -> None:
        self.conn = conn
        self.received: list[Message] = []
        self.raw: list[str] = []
        self._cursor = 0

    @classmethod
    async def connect(cls, url: str, **kwargs: Any) -> WsClient:
        conn = await websockets.connect(url, open_timeout=TIMEOUT, **kwargs)
        return cls(conn)

    async def send(self, message: Message | str) -> None:
        await self.conn.send(message if isinstance(message, str) else json.dumps(message))

    async def _next(self, within: float) -> Message:
        text = await asyncio.wait_for(self.conn.recv(), within)
        assert isinstance(text, str)
        self.raw.append(text)
        message: Message = json.loads(text)
        self.received.append(message)
        return message

    async def wait_for(
        self, predicate: Callable[[Message], bool], within: float = TIMEOUT
    ) -> Message:
        """The next message (after those already consumed) that satisfies `predicate`."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        while True:
            while self._cursor < len(self.received):
                message = self.received[self._cursor]
                self._cursor += 1
                if predicate(message):
                    return message
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"no matching message; last: {self.received[-3:]}")
            await self._next(remaining)

    def mark(self) -> int:
        """Where the next `wait_for` starts reading (for `rewind`)."""
        return self._cursor

    def rewind(self, mark: int) -> None:
        """Messages read since `mark` are read again by the next `wait_for`."""
        self._cursor = mark

    async def wait_type(self, kind: str, within: float = TIMEOUT) -> Message:
        return await self.wait_for(lambda m: m.get("type") == kind, within)

    async def wait_state(
        self, predicate: Callable[[Message], bool], within: float = TIMEOUT
    ) -> Message:
        return await self.wait_for(lambda m: m.get("type") == "state" and predicate(m), within)

    def last_state(self) -> Message:
        return next(m for m in reversed(self.received) if m.get("type") == "state")

    async def close(self) -> None:
        """Closes, reading (and dropping) what is still sent meanwhile. A client that
        stopped reading a busy table (bots dealing with no pause) has a full receive
        queue, so websockets stops reading its socket: the closing frame would never
        be read and close() would wait out its close timeout (10 s) every time."""

        async def drain() -> None:
            with contextlib.suppress(Exception):  # closed, or another task reads it
                while True:
                    await self.conn.recv()

        reader = asyncio.create_task(drain())
        try:
            await self.conn.close()
        finally:
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)


async def guest(server: RunningServer, name: str) -> tuple[str, str]:
    async with httpx.AsyncClient(base_url=server.http) as client:
        response = await client.post("/api/auth/guest", json={"name": name})
        response.raise_for_status()
        body = response.json()
        return body["token"], body["player_id"]


async def create_table(server: RunningServer, token: str, **fields: Any) -> Message:
    async with httpx.AsyncClient(base_url=server.http) as client:
        response = await client.post(
            "/api/tables", json=fields, headers={"Authorization": f"Bearer {token}"}
        )
        assert response.status_code == 201, response.text
        body: Message = response.json()
        return body


async def signed_in(url: str, token: str, last_seq: int | None = None, **kwargs: Any) -> WsClient:
    """A table socket that sent its `auth` first message (tokens never go in the URL)."""
    client = await WsClient.connect(url, **kwargs)
    await client.send({"type": "auth", "token": token, "last_seq": last_seq})
    return client


async def join(server: RunningServer, table_id: str, token: str, **query: Any) -> WsClient:
    params = "&".join(f"{k}={v}" for k, v in query.items())
    path = f"/ws/tables/{table_id}" + (f"?{params}" if params else "")
    client = await signed_in(server.ws_url(path), token)
    await client.wait_type("welcome")
    await client.wait_type("state")
    return client


class TestWorker:
    """An AI worker speaking the protocol over a real WebSocket, answering by hand."""

    __test__ = False  # not a pytest class

    def __init__(self, client: WsClient, worker_id: str) -> None:
        self.client = client
        self.worker_id = worker_id

    @classmethod
    async def connect(
        cls, server: RunningServer, secret: str, name: str = "test", capacity: int = 4
    ) -> TestWorker:
        client = await WsClient.connect(server.ws_url("/ws/ai"))
        await client.send({"type": "hello", "secret": secret, "name": name, "capacity": capacity})
        welcome = await client.wait_type("welcome")
        return cls(client, welcome["worker_id"])

    async def query(self, within: float = TIMEOUT) -> Message:
        return await self.client.wait_type("query", within)

    async def answer(
        self, query: Message, action: str, amount: int | None = None, advice: Message | None = None
    ) -> None:
        await self.client.send(
            {
                "type": "decision",
                "request_id": query["request_id"],
                "action": action,
                "amount": amount,
                "advice": advice,
            }
        )

    async def close(self) -> None:
        await self.client.close()


def passive_action(legal: Message) -> str:
    return "check" if legal["can_check"] else "call"


async def bot_query_or_turn(
    alice: WsClient,
    worker: TestWorker,
    seat: int,
    kinds: tuple[str, ...] = ("query",),
) -> tuple[str, Message]:
    """Whichever comes first: a message for the worker of one of `kinds` (its type is
    returned), or `seat`'s turn at the table ("turn")."""

    def turn(state: Message) -> bool:
        return bool(state["view"]["actor"] == seat)

    alice_mark = alice.mark()
    tasks = [
        asyncio.create_task(worker.client.wait_for(lambda m: m.get("type") in kinds)),
        asyncio.create_task(alice.wait_state(turn)),
    ]
    done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    if tasks[0] in done:
        # Both may be done in one wait: Alice's turn, read but not returned, is read
        # again by the next call (else she never acts and her clock folds her hand).
        alice.rewind(alice_mark)
        message = tasks[0].result()
        return str(message["type"]), message
    return "turn", tasks[1].result()


async def play_to_bot_query(alice: WsClient, worker: TestWorker, seat: int) -> Message:
    """Alice (at `seat`) checks or calls until the bot's query arrives."""
    while True:
        kind, message = await bot_query_or_turn(alice, worker, seat)
        if kind == "query":
            return message
        await alice.send(
            {"type": "act", "action": passive_action(message["view"]["legal_actions"])}
        )


async def play_to_own_turn(alice: WsClient, worker: TestWorker, seat: int) -> Message:
    """The worker answers the bot's queries passively until it is `seat`'s turn."""
    while True:
        kind, message = await bot_query_or_turn(alice, worker, seat)
        if kind == "turn":
            return message
        await worker.answer(message, passive_action(message["legal"]))


def my_turn(state: Message) -> bool:
    view = state["view"]
    return view["hand_in_progress"] and view["actor"] == view["viewer_seat"]


def passive(view: Message) -> dict[str, str]:
    legal = view["legal_actions"]
    return {"type": "act", "action": "check" if legal["can_check"] else "call"}


async def play_until_hand_over(client: WsClient, hand_no: int) -> Message:
    """Check or call whenever it is our turn, until hand `hand_no` is over."""
    while True:
        state = await client.wait_state(
            lambda s: (
                my_turn(s)
                or (s["view"]["hand_no"] >= hand_no and not s["view"]["hand_in_progress"])
            )
        )
        view = state["view"]
        if not view["hand_in_progress"]:
            return state
        await client.send(passive(view))
