"""Liveness, readiness and counters."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from backend.api.deps import State
from backend.schemas import StatsResponse

router = APIRouter(tags=["health"])


@router.get("/healthz", summary="Liveness: the process answers")
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get(
    "/readyz",
    summary="Readiness: the database answers (503 if not)",
    responses={503: {"description": "the database does not answer"}},
)
async def readyz(state: State) -> JSONResponse:
    database = await state.mongo.ping()
    body: dict[str, Any] = {
        "status": "ready" if database else "unavailable",
        "database": "ok" if database else "unreachable",
        "tables": len(state.tables.all()),
        "ai": state.gateway.stats(),
    }
    return JSONResponse(body, status_code=200 if database else 503)


@router.get("/api/stats", summary="Tables, connections, AI workers, AI queries and fallbacks")
async def stats(state: State) -> StatsResponse:
    runtimes = state.tables.all()
    return StatsResponse(
        tables=len(runtimes),
        hands_in_progress=sum(1 for r in runtimes if r.summary().hand_in_progress),
        connections=sum(r.connections for r in runtimes),
        workers=state.gateway.worker_count,
        ai=state.gateway.stats(),
        database={
            "writes": state.repos.writer.writes,
            "batches": state.repos.writer.batches,
            "retries": sum(r.persister.retries for r in runtimes),
            "failed": sum(r.persister.errors for r in runtimes),
        },
        loop_lag=state.loop_lag.summary(),
    )
