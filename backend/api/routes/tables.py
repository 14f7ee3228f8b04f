"""The lobby: list, create and inspect tables (spectator views only: no hole cards)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, status
from fastapi.responses import PlainTextResponse

from backend.api.deps import Client, MaybePlayer, Player, State
from backend.api.strict_json import StrictJsonRoute
from backend.auth import Principal
from backend.ledger_report import TableLedger, build_ledger, to_csv
from backend.names import name_key
from backend.realtime.runtime import TableRuntime
from backend.schemas import CreateTableRequest, InviteResponse, TableDetail, TableSummary
from backend.state import AppState
from holdem.errors import RuleError

router = APIRouter(prefix="/api/tables", tags=["tables"], route_class=StrictJsonRoute)


@router.get("", summary="List tables (private ones only to their players)")
async def list_tables(state: State, player: MaybePlayer) -> list[TableSummary]:
    viewer = player.player_id if player is not None else None
    own = [
        runtime.summary()
        for runtime in state.tables.visible(viewer)
        if runtime.options.tournament_id is None  # a tournament's tables: on its page
    ]
    if state.cluster is None:
        return own
    return own + state.cluster.lobby.others(viewer)  # the other nodes' tables, from the bus


def _free_name(state: AppState, body: CreateTableRequest, player: Principal) -> str:
    """The table's name: the one asked for if no open table has it; else a 409.

    Without a name the table is "Table N", the first number free: the lobby shows the
    game and the stakes in their own columns, so a name made of them said them twice.
    """
    # Only the names this player can see: a private table's must not leak by a 409.
    taken = {name_key(r.options.name) for r in state.tables.visible(player.player_id)}
    if state.cluster is not None:  # and those the other nodes list
        taken |= {name_key(t.name) for t in state.cluster.lobby.others(player.player_id)}
    if body.name:
        if name_key(body.name) in taken:
            raise HTTPException(
                status.HTTP_409_CONFLICT,
                f"a table named {body.name!r} is open already: choose another name",
            )
        return body.name
    number = 1
    while name_key(f"Table {number}") in taken:
        number += 1
    return f"Table {number}"


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    summary="Create a table",
    responses={
        409: {"description": "an open table has that name"},
        422: {"description": "a field is invalid or out of bounds (the message names it)"},
        429: {"description": "too many tables created from this address (Retry-After)"},
    },
)
async def create_table(
    body: CreateTableRequest, state: State, player: Player, client: Client
) -> TableDetail:
    try:
        body.table_config()  # the rules and the bounds, before anything is counted
    except (RuleError, ValueError) as error:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, str(error)) from error
    async with state.create_lock:
        named = body.model_copy(update={"name": _free_name(state, body, player)})
        state.table_creations.take(client.ip)
        node = state.cluster
        if node is not None and node.least_loaded() != node.node_id:
            # A cluster: the new table goes to the least loaded node.
            try:
                placed = await node.create_on(node.least_loaded(), named, player.player_id)
            except ValueError as error:
                raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, str(error)) from error
            if placed is not None:
                return placed
        try:
            runtime = await state.tables.create(named, created_by=player.player_id)
        except (RuleError, ValueError) as error:
            raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, str(error)) from error
    return runtime.detail(player.player_id)


async def _ledger(state: AppState, table_id: str, player: Principal) -> TableLedger:
    """The table session's ledger, for its players: those with an entry at it, its host,
    and (a private table) those who may see it; an open table adds what is not stored
    yet and the stacks still seated."""
    runtime = state.tables.get(table_id)
    stored = await state.repos.ledger.entries(table_id)
    booked, on_table, names = runtime.ledger_sources() if runtime is not None else ([], {}, {})
    entries = [*stored, *booked]
    players = {str(e["player_id"]) for e in entries} | set(on_table)
    allowed = player.player_id in players or (
        runtime is not None and player.player_id == runtime.host_id
    )
    if not allowed:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no ledger of yours at {table_id!r}")
    for player_id in players - names.keys():
        if not player_id.startswith("bot-"):
            doc = await state.repos.players.get(player_id)
            if doc is not None:
                names[player_id] = str(doc.get("name", player_id))
    return build_ledger(table_id, entries, on_table, names)


@router.get(
    "/{table_id}/ledger",
    summary="The table session's ledger and settle-up (its players only)",
    responses={404: {"description": "no such table, or you have no entry at it"}},
)
async def table_ledger(table_id: str, state: State, player: Player) -> TableLedger:
    return await _ledger(state, table_id, player)


@router.get(
    "/{table_id}/ledger.csv",
    summary="The same ledger as CSV (a download)",
    response_class=PlainTextResponse,
    responses={404: {"description": "no such table, or you have no entry at it"}},
)
async def table_ledger_csv(table_id: str, state: State, player: Player) -> PlainTextResponse:
    ledger = await _ledger(state, table_id, player)
    return PlainTextResponse(
        to_csv(ledger),
        media_type="text/csv",
        headers={"Content-Disposition": f'attachment; filename="ledger-{table_id}.csv"'},
    )


Invite = Annotated[
    str | None, Query(max_length=64, description="a private table's invite token (its link)")
]


@router.get("/{table_id}", summary="One table, as a spectator sees it")
async def table_detail(
    table_id: str, state: State, player: MaybePlayer, invite: Invite = None
) -> TableDetail:
    """A private table answers only its players or a valid invite; to anyone else it is
    as unknown as a table that does not exist (404)."""
    runtime = state.tables.get(table_id)
    viewer = player.player_id if player is not None else None
    if runtime is None and state.cluster is not None:  # another node's: ask its owner
        detail = await state.cluster.detail_of(table_id, viewer, invite)
        if detail is not None:
            return detail
    if runtime is None or not (runtime.visible_to(viewer) or runtime.invite_valid(invite)):
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no table {table_id!r}")
    return runtime.detail(viewer)


def _hosted(state: AppState, table_id: str, player: Principal) -> TableRuntime:
    runtime = state.tables.get(table_id)
    if runtime is None or not runtime.visible_to(player.player_id):
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no table {table_id!r}")
    if runtime.host_id != player.player_id:
        raise HTTPException(status.HTTP_403_FORBIDDEN, "only the table's host may do this")
    if not runtime.private:
        raise HTTPException(status.HTTP_409_CONFLICT, "a public table has no invite link")
    return runtime


@router.post(
    "/{table_id}/invite",
    summary="A new invite link for a private table (the host only); the old one stops working",
    responses={403: {"description": "not the host"}, 409: {"description": "a public table"}},
)
async def new_invite(table_id: str, state: State, player: Player) -> InviteResponse:
    runtime = _hosted(state, table_id, player)
    return InviteResponse(table_id=table_id, invite=runtime.rotate_invite())


@router.delete(
    "/{table_id}/invite",
    summary="Revoke a private table's invite link (the host only): no link admits anyone",
    responses={403: {"description": "not the host"}, 409: {"description": "a public table"}},
)
async def revoke_invite(table_id: str, state: State, player: Player) -> InviteResponse:
    runtime = _hosted(state, table_id, player)
    runtime.revoke_invite()
    return InviteResponse(table_id=table_id, invite=None)
