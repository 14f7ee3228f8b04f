"""The lobby: list, create and inspect tables (spectator views only: no hole cards)."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, status

from backend.api.deps import Client, Player, State
from backend.api.strict_json import StrictJsonRoute
from backend.names import name_key
from backend.schemas import CreateTableRequest, TableDetail, TableSummary
from backend.state import AppState
from holdem.errors import RuleError

router = APIRouter(prefix="/api/tables", tags=["tables"], route_class=StrictJsonRoute)


@router.get("", summary="List tables")
async def list_tables(state: State) -> list[TableSummary]:
    return [runtime.summary() for runtime in state.tables.all()]


def _free_name(state: AppState, body: CreateTableRequest) -> str:
    """The table's name: the one asked for if no open table has it; else a 409.

    Without a name the table is "Table N", the first number free: the lobby shows the
    game and the stakes in their own columns, so a name made of them said them twice.
    """
    taken = {name_key(r.options.name) for r in state.tables.all()}
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
        named = body.model_copy(update={"name": _free_name(state, body)})
        state.table_creations.take(client.ip)
        try:
            runtime = await state.tables.create(named, created_by=player.player_id)
        except (RuleError, ValueError) as error:
            raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, str(error)) from error
    return runtime.detail()


@router.get("/{table_id}", summary="One table, as a spectator sees it")
async def table_detail(table_id: str, state: State) -> TableDetail:
    runtime = state.tables.get(table_id)
    if runtime is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no table {table_id!r}")
    return runtime.detail()
