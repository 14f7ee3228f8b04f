"""Liveness, readiness and counters."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from backend.api.deps import State
from backend.api.strict_json import StrictJsonRoute
from backend.schemas import StatsResponse
from backend.state import AppState

router = APIRouter(tags=["health"], route_class=StrictJsonRoute)


async def _degraded(state: AppState) -> dict[str, Any]:
    """What does not work now: the database (a fresh ping), tables paused waiting for it."""
    degraded: dict[str, Any] = {}
    problem = await state.mongo.check()
    if problem is not None:
        degraded["database"] = problem
    paused = [r.table_id for r in state.tables.all() if r.paused]
    if paused:
        degraded["paused_tables"] = paused
    failing = sum(1 for r in state.tables.all() if r.persister.failing_since is not None)
    if failing:
        degraded["tables_retrying_writes"] = failing
    return degraded


@router.get(
    "/healthz",
    summary="Liveness: the process answers; `degraded` says what does not work now",
)
async def healthz(state: State) -> dict[str, Any]:
    degraded = await _degraded(state)
    if not degraded:
        return {"status": "ok"}
    return {"status": "degraded", "degraded": degraded}


@router.get(
    "/readyz",
    summary="Readiness: the database answers and confirms writes (503 if not)",
    responses={503: {"description": "the database does not answer, or tables wait for it"}},
)
async def readyz(state: State) -> JSONResponse:
    degraded = await _degraded(state)
    database = "database" not in degraded
    ready = not degraded
    body: dict[str, Any] = {
        "status": "ready" if ready else "unavailable",
        "database": "ok" if database else "unreachable",
        "tables": len(state.tables.all()),
        "ai": state.gateway.stats(),
    }
    if degraded:
        body["degraded"] = degraded
    if state.cluster is not None:  # a node: its id and the live nodes' table counts
        body["cluster"] = {"node": state.cluster.node_id, "nodes": state.cluster.alive()}
        # The tables this node owns (its lobby lists every node's).
        body["cluster"]["owns"] = sorted(r.table_id for r in state.tables.all())
        # Sockets of this node's tables held by other nodes now, and those sent here.
        body["cluster"]["relayed"] = state.cluster.owner.relayed
        body["cluster"]["moved"] = state.cluster.owner.moved
        if state.cluster.tournaments is not None:  # the directors this node runs
            body["cluster"]["directs"] = sorted(state.cluster.tournaments.keeper.held)
        if state.cluster.ai is not None:  # workers other nodes announced (ai_relay)
            body["cluster"]["workers_elsewhere"] = state.cluster.ai.elsewhere()
    return JSONResponse(body, status_code=200 if ready else 503)


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
            "commits": state.repos.writer.commits,
            "table_writes": state.repos.writer.table_writes,
            "table_batches": state.repos.writer.table_batches,
            "urgent_writes": state.repos.writer.urgent_writes,
            "urgent_batches": state.repos.writer.urgent_batches,
            "table_rounds": state.repos.writer.table_rounds,
            "table_round_us": state.repos.writer.table_round_us,
            "table_round_max_us": state.repos.writer.table_round_max_us,
            "durable_waits": sum(r.persister.durable_waits for r in runtimes),
            "durable_wait_us": sum(r.persister.durable_wait_us for r in runtimes),
            "durable_wait_max_us": max(
                (r.persister.durable_wait_max_us for r in runtimes), default=0
            ),
            "retries": sum(r.persister.retries for r in runtimes),
            "failed": sum(r.persister.errors for r in runtimes),
            "paused_tables": sum(1 for r in runtimes if r.paused),
            "stats_hands": state.repos.hands.stats.hands_counted,
            "stats_queue_peak": state.repos.hands.stats.queue_peak,
            "stats_queued": state.repos.hands.stats.queued,
            "stats_dropped": state.repos.hands.stats.dropped,
            **{f"writes.{kind}": n for kind, n in state.repos.writer.by_kind.items()},
        },
        loop_lag=state.loop_lag.summary(),
    )
