"""The lobby's figures per table: average pot, hands per hour, players per flop."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from backend.api.deps import MaybePlayer, State
from backend.api.strict_json import StrictJsonRoute
from backend.db.player_stats import table_figures

router = APIRouter(tags=["tables"], route_class=StrictJsonRoute)


class TableFigures(BaseModel):
    table_id: str
    hands: int
    average_pot: float | None = Field(description="chips pushed to winners per hand")
    hands_per_hour: float | None = Field(description="from the table's first hand to its last")
    players_per_flop: float | None = Field(description="players who saw the flop, per flop dealt")


class TableStatsPage(BaseModel):
    """Tables that have played a hand, by table id; `total` counts them on every page."""

    items: list[TableFigures]
    total: int
    limit: int
    offset: int


@router.get("/api/table-stats", summary="Lobby figures of the open tables (or those asked for)")
async def table_stats(
    state: State,
    player: MaybePlayer,
    table_id: Annotated[
        list[str] | None, Query(max_length=200, description="tables to report")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 50,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> TableStatsPage:
    # Private tables only to their players: asked by id or not, others never see them.
    viewer = player.player_id if player is not None else None
    visible = {r.table_id for r in state.tables.visible(viewer)}
    hidden = {r.table_id for r in state.tables.all()} - visible
    ids = [i for i in table_id if i not in hidden] if table_id is not None else sorted(visible)
    docs, total = await state.repos.hands.stats.tables(ids, limit, offset)
    return TableStatsPage(
        items=[
            TableFigures(
                table_id=str(doc["_id"]), hands=int(doc.get("hands", 0)), **table_figures(doc)
            )
            for doc in docs
        ],
        total=total,
        limit=limit,
        offset=offset,
    )
