"""Your hands for other poker software: one hand, or many at once (a table's, a time
range's, all), as PokerStars text, Open Hand History JSON or PHH.

Only hands you were dealt into, each as you may see it: your own cards, others' only
where the showdown showed them (holdem.exports).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, status
from fastapi.responses import PlainTextResponse, StreamingResponse

from backend.api.deps import Player, State
from backend.api.strict_json import StrictJsonRoute
from backend.db.codec import Document, record_from_doc
from holdem.exports import (
    MANY_MEDIA_TYPE,
    MANY_SUFFIX,
    MEDIA_TYPE,
    ONE_SUFFIX,
    ExportFormat,
    in_file,
    render,
)
from holdem.history import HandRecord

router = APIRouter(prefix="/api/hands", tags=["hands"], route_class=StrictJsonRoute)

_FILE: dict[int | str, dict[str, Any]] = {
    200: {"content": {"text/plain": {}, "application/json": {}}, "description": "the file"}
}


def _record(doc: Document) -> HandRecord:
    record = record_from_doc(doc["record"])
    if record.played_at is None and isinstance(doc.get("played_at"), datetime):
        record = record.model_copy(update={"played_at": doc["played_at"]})
    return record


@router.get(
    "/export/{fmt}",
    summary="Your hands in one file: a table's, a time range's, or all",
    response_class=StreamingResponse,
    responses=_FILE,
)
async def export_hands(
    fmt: ExportFormat,
    state: State,
    player: Player,
    table_id: Annotated[str | None, Query(max_length=64, description="only this table's")] = None,
    since: Annotated[datetime | None, Query(description="played at or after (ISO 8601)")] = None,
    until: Annotated[datetime | None, Query(description="played before (ISO 8601)")] = None,
) -> StreamingResponse:
    if since is not None and until is not None and since >= until:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, "'since' must be before 'until'")
    hands = state.repos.hands

    async def stream() -> AsyncIterator[str]:
        names: dict[str, str] = {}
        index = 0
        async for doc in hands.for_export(player.player_id, table_id, since, until):
            record = _record(doc)
            if record.table_id not in names:
                found = await state.repos.tables.names({record.table_id})
                names[record.table_id] = found.get(record.table_id, record.table_id)
            index += 1
            text = render(fmt, record, player.player_id, names[record.table_id])
            yield in_file(fmt, text, index)

    name = f"showdown-hands{'-' + table_id if table_id else ''}.{MANY_SUFFIX[fmt]}"
    return StreamingResponse(
        stream(),
        media_type=MANY_MEDIA_TYPE[fmt],
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@router.get(
    "/{hand_id}/pokerstars",
    summary="One of your hands as PokerStars text",
    response_class=PlainTextResponse,
    responses=_FILE,
)
async def hand_pokerstars(hand_id: str, state: State, player: Player) -> PlainTextResponse:
    return await _one(ExportFormat.POKERSTARS, hand_id, state, player)


@router.get(
    "/{hand_id}/ohh",
    summary="One of your hands as Open Hand History JSON",
    response_class=PlainTextResponse,
    responses=_FILE,
)
async def hand_ohh(hand_id: str, state: State, player: Player) -> PlainTextResponse:
    return await _one(ExportFormat.OHH, hand_id, state, player)


async def _one(fmt: ExportFormat, hand_id: str, state: State, player: Player) -> PlainTextResponse:
    doc = await state.repos.hands.get(hand_id)
    if doc is None or player.player_id not in doc.get("player_ids", []):
        # Same answer for "no such hand" and "not yours": ids reveal nothing.
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no hand {hand_id!r} that you played")
    record = _record(doc)
    names = await state.repos.tables.names({record.table_id})
    text = render(fmt, record, player.player_id, names.get(record.table_id))
    return PlainTextResponse(
        text,
        media_type=MEDIA_TYPE[fmt],
        headers={"Content-Disposition": f'attachment; filename="{hand_id}.{ONE_SUFFIX[fmt]}"'},
    )
