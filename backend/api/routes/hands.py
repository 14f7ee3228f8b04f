"""Hand histories: your past hands, one hand in full, and its PHH file.

Only a player who was dealt into a hand may read it, and sees other players'
hole cards only where the showdown revealed them (holdem.views.observe_record).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, status
from fastapi.responses import PlainTextResponse

from backend.api.deps import Player, State
from backend.api.strict_json import StrictJsonRoute
from backend.db.codec import record_from_doc
from backend.schemas import HandDetail, HandPage, HandSummary
from backend.state import AppState
from holdem.history import HandRecord
from holdem.phh import to_phh
from holdem.views import observe_record

router = APIRouter(prefix="/api/hands", tags=["hands"], route_class=StrictJsonRoute)

FILING_WAIT = 3.0  # seconds a hand list waits for the player's hands being filed


async def _filings_landed(state: AppState, player_id: str) -> None:
    """Wait (a while at most) for the filings of the hands this player just finished:
    a hand is filed behind the table's path, and a list read just after its end must
    list it. On a cluster, at every node's tables."""
    if state.cluster is not None:
        await state.cluster.filings.landed(player_id)
    else:
        await state.tables.filings_landed(player_id, FILING_WAIT)


@router.get("", summary="Your finished hands, newest first")
async def my_hands(
    state: State,
    player: Player,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0)] = 0,
    table_id: Annotated[str | None, Query(max_length=64, description="only this table's")] = None,
) -> HandPage:
    await _filings_landed(state, player.player_id)
    docs, total = await state.repos.hands.for_player(player.player_id, limit, offset, table_id)
    records = [record_from_doc(doc["record"]) for doc in docs]
    names = await state.repos.tables.names({r.table_id for r in records}) if records else {}
    items = []
    for doc, record in zip(docs, records, strict=True):
        mine = next((s for s in record.seats if s.player_id == player.player_id), None)
        items.append(
            HandSummary(
                hand_id=doc["_id"],
                table_id=record.table_id,
                table_name=names.get(record.table_id),
                hand_no=record.hand_no,
                played_at=doc.get("played_at"),
                variant=record.config.variant,
                small_blind=record.config.small_blind,
                big_blind=record.config.big_blind,
                seat=mine.seat if mine else None,
                net=mine.final_stack - mine.starting_stack if mine else None,
                # Your own cards only: the list never carries anyone else's.
                hole_cards=mine.hole_cards if mine else None,
                chip_unit=str(record.config.chip_unit),
                board=record.board,
                players=len(record.seats),
            )
        )
    return HandPage(items=items, total=total, limit=limit, offset=offset)


async def _visible_record(state: State, player: Player, hand_id: str) -> HandRecord:
    doc = await state.repos.hands.get(hand_id)
    if doc is None or player.player_id not in doc.get("player_ids", []):
        # Same answer for "no such hand" and "not yours": ids reveal nothing.
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no hand {hand_id!r} that you played")
    return observe_record(record_from_doc(doc["record"]), player.player_id)


@router.get("/{hand_id}", summary="One of your hands in full")
async def hand_detail(hand_id: str, state: State, player: Player) -> HandDetail:
    return HandDetail(hand_id=hand_id, record=await _visible_record(state, player, hand_id))


@router.get(
    "/{hand_id}/phh",
    summary="One of your hands as a PHH file",
    response_class=PlainTextResponse,
    responses={200: {"content": {"text/plain": {}}, "description": "PHH (TOML) text"}},
)
async def hand_phh(hand_id: str, state: State, player: Player) -> PlainTextResponse:
    record = await _visible_record(state, player, hand_id)
    return PlainTextResponse(
        to_phh(record),
        media_type="text/plain; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{hand_id}.phh"'},
    )
