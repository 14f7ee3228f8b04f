"""The lobby: list, create and inspect tables (spectator views only: no hole cards)."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, status

from backend.api.deps import Player, State
from backend.schemas import CreateTableRequest, TableDetail, TableSummary
from holdem.errors import RuleError

router = APIRouter(prefix="/api/tables", tags=["tables"])


@router.get("", summary="List tables")
async def list_tables(state: State) -> list[TableSummary]:
    return [runtime.summary() for runtime in state.tables.all()]


@router.post("", status_code=status.HTTP_201_CREATED, summary="Create a table")
async def create_table(body: CreateTableRequest, state: State, player: Player) -> TableDetail:
    try:
        runtime = await state.tables.create(body, created_by=player.player_id)
    except (RuleError, ValueError) as error:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, str(error)) from error
    return runtime.detail()


@router.get("/{table_id}", summary="One table, as a spectator sees it")
async def table_detail(table_id: str, state: State) -> TableDetail:
    runtime = state.tables.get(table_id)
    if runtime is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no table {table_id!r}")
    return runtime.detail()
