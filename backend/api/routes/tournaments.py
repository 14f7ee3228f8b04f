"""Tournaments: create, register and unregister, start now (bots fill), rebuy and
add-on, list by state, one tournament's page, and a player's results (places, prizes,
ROI)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, status

from backend.api.deps import Player, State
from backend.api.strict_json import StrictJsonRoute
from backend.state import AppState
from backend.tournament.director import Director, Status, TournamentError
from backend.tournament.schemas import (
    CreateTournamentRequest,
    TournamentDetail,
    TournamentRecord,
    TournamentResult,
    TournamentSummary,
    detail,
    summary,
)
from backend.tournament.service import TournamentService, view_of

router = APIRouter(tags=["tournaments"], route_class=StrictJsonRoute)


def _service(state: AppState) -> TournamentService:
    if state.tournaments is None:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, "tournaments are not running")
    return state.tournaments


def _one(service: TournamentService, tournament_id: str) -> Director:
    director = service.get(tournament_id)
    if director is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no tournament {tournament_id!r}")
    return director


def _detail(service: TournamentService, director: Director) -> TournamentDetail:
    clock = view_of(director, service.now()) if director.state.status is Status.RUNNING else None
    return detail(director, clock, service.now())


@router.get("/api/tournaments", summary="List tournaments, optionally of one state")
async def list_tournaments(
    state: State, status_: Annotated[Status | None, Query(alias="status")] = None
) -> list[TournamentSummary]:
    service = _service(state)
    return [summary(d) for d in service.all() if status_ is None or d.state.status is status_]


@router.post(
    "/api/tournaments",
    status_code=status.HTTP_201_CREATED,
    summary="Create a tournament (it starts when full; bots may take seats at once)",
    responses={422: {"description": "a field is invalid (the message names it)"}},
)
async def create_tournament(
    body: CreateTournamentRequest, state: State, player: Player
) -> TournamentDetail:
    service = _service(state)
    try:
        spec = body.spec(service.now())
        director = await service.create(spec, body.bots, player.player_id)
    except ValueError as error:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, str(error)) from error
    return _detail(service, director)


@router.get(
    "/api/tournaments/{tournament_id}", summary="One tournament: structure, prizes, players"
)
async def tournament_detail(tournament_id: str, state: State) -> TournamentDetail:
    service = _service(state)
    return _detail(service, _one(service, tournament_id))


@router.post(
    "/api/tournaments/{tournament_id}/register",
    summary="Register (the tournament starts when it is full)",
    responses={409: {"description": "full, started, or registered already"}},
)
async def register(tournament_id: str, state: State, player: Player) -> TournamentDetail:
    service = _service(state)
    _one(service, tournament_id)
    try:
        director = await service.register(tournament_id, player.player_id, player.name)
    except TournamentError as error:
        raise HTTPException(status.HTTP_409_CONFLICT, str(error)) from error
    return _detail(service, director)


@router.delete(
    "/api/tournaments/{tournament_id}/register",
    summary="Unregister (before the start only)",
    responses={409: {"description": "started, or not registered"}},
)
async def unregister(tournament_id: str, state: State, player: Player) -> TournamentDetail:
    service = _service(state)
    _one(service, tournament_id)
    try:
        director = await service.unregister(tournament_id, player.player_id)
    except TournamentError as error:
        raise HTTPException(status.HTTP_409_CONFLICT, str(error)) from error
    return _detail(service, director)


@router.post(
    "/api/tournaments/{tournament_id}/start",
    summary="Start now: bots take the seats nobody registered for (a registered player); "
    "with late registration they stay open for it",
    responses={403: {"description": "not registered"}, 409: {"description": "started"}},
)
async def start_now(tournament_id: str, state: State, player: Player) -> TournamentDetail:
    service = _service(state)
    director = _one(service, tournament_id)
    if player.player_id not in director.state.entrants:
        raise HTTPException(status.HTTP_403_FORBIDDEN, "only a registered player may start it")
    try:
        director = await service.start_now(tournament_id)
    except TournamentError as error:
        raise HTTPException(status.HTTP_409_CONFLICT, str(error)) from error
    return _detail(service, director)


@router.post(
    "/api/tournaments/{tournament_id}/rebuy",
    summary="Rebuy in the rebuy period: at or below the starting stack, or busted",
    responses={409: {"description": "not registered, not eligible, or the period is over"}},
)
async def rebuy(tournament_id: str, state: State, player: Player) -> TournamentDetail:
    service = _service(state)
    _one(service, tournament_id)
    try:
        director = await service.rebuy(tournament_id, player.player_id)
    except TournamentError as error:
        raise HTTPException(status.HTTP_409_CONFLICT, str(error)) from error
    return _detail(service, director)


@router.post(
    "/api/tournaments/{tournament_id}/add-on",
    summary="The add-on, once, in the last level of the rebuy period (or the break after)",
    responses={409: {"description": "not registered, taken already, or not open"}},
)
async def add_on(tournament_id: str, state: State, player: Player) -> TournamentDetail:
    service = _service(state)
    _one(service, tournament_id)
    try:
        director = await service.add_on(tournament_id, player.player_id)
    except TournamentError as error:
        raise HTTPException(status.HTTP_409_CONFLICT, str(error)) from error
    return _detail(service, director)


@router.get(
    "/api/players/{player_id}/tournaments",
    summary="A player's tournament results: places, prizes, ROI",
)
async def player_tournaments(
    player_id: str,
    state: State,
    limit: Annotated[int, Query(ge=1, le=100)] = 100,
    offset: Annotated[int, Query(ge=0)] = 0,
) -> TournamentRecord:
    service = _service(state)
    docs = await service.results_of(player_id)
    results = [TournamentResult.model_validate(doc) for doc in docs]
    buy_ins = sum(r.buy_in for r in results)
    won = sum(r.prize for r in results)
    return TournamentRecord(
        player_id=player_id,
        played=len(results),
        cashes=sum(1 for r in results if r.prize > 0),
        wins=sum(1 for r in results if r.place == 1),
        buy_ins=buy_ins,
        prizes=won,
        roi=(won - buy_ins) / buy_ins if buy_ins else None,
        results=results[offset : offset + limit],
        total_items=len(results),
        limit=limit,
        offset=offset,
    )
