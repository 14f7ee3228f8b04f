"""The WebSocket endpoints: tables (players and spectators) and AI workers."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

from backend.api.strict_json import StrictJsonRoute
from backend.cluster.gateway import relay_table_socket
from backend.realtime.endpoint import serve_table_socket
from backend.state import AppState

router = APIRouter(route_class=StrictJsonRoute)


def _state(websocket: WebSocket) -> AppState:
    state: AppState = websocket.app.state.showdown
    return state


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """A table in real time; see docs/protocol.md. On a cluster's node, a table another
    node owns is relayed to it over the bus (docs/cluster.md)."""
    state = _state(websocket)
    cluster = state.cluster
    if cluster is None:
        await serve_table_socket(websocket, table_id, state)
        return

    async def relay(websocket: WebSocket, table_id: str, state: AppState) -> None:
        await relay_table_socket(websocket, table_id, state, cluster)

    await serve_table_socket(websocket, table_id, state, relay)


@router.websocket("/ws/ai")
async def ai_socket(websocket: WebSocket) -> None:
    """AI workers: decision queries and answers; see docs/protocol.md."""
    await _state(websocket).gateway.serve_worker(websocket)
