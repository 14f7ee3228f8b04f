"""The table WebSocket: handshake checks, authentication, then input validation.

The Origin must be this server's (scheme, host and port) or an allowed one; the
first message must be `auth` with an access token of a live session.

Bad input is answered here with an error and never reaches the table: size
limit (close 1009), rate limit (error, then close 1008 when it goes on),
malformed JSON, unknown types and invalid fields. Valid commands go to the
table's inbox, which checks them against the rules.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from pymongo.errors import PyMongoError
from starlette.websockets import WebSocket, WebSocketDisconnect

from backend.auth import AuthError, Principal, verify_token
from backend.proxies import client_info
from backend.realtime.limits import TokenBucket
from backend.realtime.origin import origin_allowed
from backend.realtime.outbox import Outbox
from backend.realtime.runtime import Client, Command, Join, Leave
from backend.state import AppState
from protocol.messages import (
    AuthMessage,
    ClientCommand,
    CloseCode,
    ErrorCode,
    ErrorMessage,
    read_client_message,
)

log = logging.getLogger(__name__)

AUTH_TIMEOUT = 10.0


async def _refuse(websocket: WebSocket, code: str, message: str, close: int) -> None:
    """Say why, then close; a socket closed meanwhile (its client gone, or the server
    stopping: uvicorn closes every socket with 1012) has nobody left to tell."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        await websocket.send_text(ErrorMessage(code=code, message=message).model_dump_json())
        await websocket.close(close, message[:120])


def _parse(text: str) -> ClientCommand | ErrorMessage:
    """The command, or the error message that names what is wrong with it (and echoes `ref`)."""
    return read_client_message(text)


async def _authenticate(
    websocket: WebSocket, state: AppState
) -> tuple[Principal, int | None, str | None] | None:
    """From the first message, `auth`; None after refusing the socket.

    Never from the URL: URLs end up in access logs, proxies' logs and browser
    history, so a `?token=` is refused (and redacted from the server's log).
    """
    if "token" in websocket.query_params:
        await _refuse(
            websocket,
            ErrorCode.UNAUTHORIZED,
            'tokens are not accepted in the URL: send {"type": "auth", "token": ...} first',
            CloseCode.POLICY,
        )
        return None
    last_seq: int | None = None
    raw_seq = websocket.query_params.get("last_seq")
    if raw_seq is not None and raw_seq.lstrip("-").isdigit():
        last_seq = int(raw_seq)
    try:
        async with asyncio.timeout(AUTH_TIMEOUT):
            text = await websocket.receive_text()
    except WebSocketDisconnect:
        return None  # gone before signing in (at a stop, every such socket): nothing to say
    except (TimeoutError, RuntimeError, KeyError):
        await _refuse(websocket, ErrorCode.UNAUTHORIZED, "sign in first", CloseCode.POLICY)
        return None
    message = _parse(text)
    if not isinstance(message, AuthMessage):
        await _refuse(
            websocket,
            ErrorCode.UNAUTHORIZED,
            'the first message must be {"type": "auth", "token": ...}',
            CloseCode.POLICY,
        )
        return None
    if message.last_seq is not None:
        last_seq = message.last_seq
    try:
        principal = verify_token(message.token, state.settings.secret_key)
        await state.sessions.check(principal)
    except AuthError as error:
        await _refuse(websocket, ErrorCode.UNAUTHORIZED, str(error), CloseCode.POLICY)
        return None
    except PyMongoError:
        # Sign-outs cannot be checked while the database is away: come back shortly.
        await websocket.close(CloseCode.TRY_AGAIN, "cannot check the sign-in now: reconnect")
        return None
    return principal, last_seq, message.invite


# A table this node does not hold, on a cluster's node: the socket (accepted, its origin
# checked) relayed to the owner (`backend.cluster.gateway.relay_table_socket`, passed in by
# the route: the gateway builds on this module).
Relay = Callable[[WebSocket, str, AppState], Awaitable[None]]


async def serve_table_socket(
    websocket: WebSocket, table_id: str, state: AppState, relay: Relay | None = None
) -> None:
    settings = state.settings
    own = client_info(websocket, settings.trusted_proxies)
    # A cluster's page may come from any node: a socket sent to its owner opens here (4010).
    origins = [*settings.allowed_origins, *settings.cluster_urls]
    if not origin_allowed(websocket.headers, origins, own):
        log.warning(
            "websocket refused: foreign origin", extra={"origin": websocket.headers.get("origin")}
        )
        await websocket.close(CloseCode.POLICY)  # before accept(): the handshake gets 403
        return
    await websocket.accept()
    runtime = state.tables.get(table_id)
    if runtime is None and relay is not None:
        await relay(websocket, table_id, state)  # another node's table (or none)
        return
    if runtime is None:
        await _refuse(websocket, "unknown_table", f"no table {table_id!r}", CloseCode.UNKNOWN_TABLE)
        return
    signed_in = await _authenticate(websocket, state)
    if signed_in is None:
        return
    principal, last_seq, invite = signed_in
    if not runtime.admit(principal.player_id, invite):
        # As for a table that does not exist: a private table's existence is not told.
        await _refuse(websocket, "unknown_table", f"no table {table_id!r}", CloseCode.UNKNOWN_TABLE)
        return
    client = Client(
        principal.player_id,
        principal.name,
        Outbox(websocket, settings.send_queue_size, principal.player_id),
    )
    state.session_sockets.add(principal.session_id, client.outbox)
    runtime.post(Join(client, last_seq))
    bucket = TokenBucket(settings.messages_per_second, settings.message_burst)
    try:
        await _receive_loop(websocket, client, bucket, state, runtime.post)
    finally:
        state.session_sockets.discard(principal.session_id, client.outbox)
        runtime.post(Leave(client))
        await client.outbox.close(CloseCode.NORMAL)


async def _receive_loop(
    websocket: WebSocket,
    client: Client,
    bucket: TokenBucket,
    state: AppState,
    post: Callable[[Command], None],
) -> None:
    settings = state.settings
    while not client.outbox.closing:
        try:
            event = await websocket.receive()
        except (RuntimeError, WebSocketDisconnect):
            return
        if event["type"] == "websocket.disconnect":
            return
        text: str | None = event.get("text")
        data: str | bytes = text if text is not None else event.get("bytes") or b""
        size = len(data.encode()) if isinstance(data, str) else len(data)
        if size > settings.max_message_bytes:
            client.outbox.put(
                ErrorMessage(
                    code=ErrorCode.TOO_BIG,
                    message=f"message of {size} bytes is over the limit of "
                    f"{settings.max_message_bytes}",
                ).model_dump_json()
            )
            await client.outbox.close(CloseCode.TOO_BIG, "message too big", flush=True)
            return
        if not bucket.allow():
            if bucket.refused_in_a_row >= settings.flood_close_after:
                client.outbox.put(
                    ErrorMessage(
                        code=ErrorCode.RATE_LIMITED, message="flooding: closing the connection"
                    ).model_dump_json()
                )
                log.warning("closing a flooding client", extra={"player_id": client.player_id})
                await client.outbox.close(CloseCode.POLICY, "flooding", flush=True)
                return
            client.outbox.put(
                ErrorMessage(
                    code=ErrorCode.RATE_LIMITED,
                    message=f"too many messages: at most {settings.messages_per_second:g} a second",
                ).model_dump_json()
            )
            continue
        if text is None:
            client.outbox.put(
                ErrorMessage(
                    code=ErrorCode.BAD_MESSAGE,
                    message="binary frames are not accepted: send JSON in text frames",
                ).model_dump_json()
            )
            continue
        message = _parse(text)
        if isinstance(message, ErrorMessage):
            client.outbox.put(message.model_dump_json())
            continue
        post(Command(client, message))
