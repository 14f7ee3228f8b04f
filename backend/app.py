"""The FastAPI application: `create_app(settings)` wires routes, state and lifespan.

The database URL must be set (MONGODB_URL); `showdown serve` starts an embedded
database and sets it when none is configured.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from backend.ai_gateway import AIGateway
from backend.api.routes import (
    auth,
    hand_exports,
    hands,
    health,
    players,
    reviews,
    sockets,
    table_stats,
    tables,
    tournaments,
)
from backend.cluster.node import ClusterNode
from backend.db.client import Mongo
from backend.db.repositories import Repositories
from backend.frontend import DEFAULT_DIR, mount_frontend
from backend.passwords import prepare_unknown_hash
from backend.quotas import Quota
from backend.realtime.closing import IdleCloser, finish_closed_tables
from backend.realtime.loop_lag import LoopLagMonitor
from backend.realtime.manager import TableManager
from backend.review.service import ReviewService
from backend.security_headers import SecurityHeaders
from backend.sessions import SessionStore
from backend.settings import Settings
from backend.shutdown_steps import ShutdownSteps
from backend.state import AppState
from backend.tournament.service import TournamentService
from backend.tournament.store import TournamentStore

log = logging.getLogger(__name__)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = (settings or Settings()).with_secrets()
    if not settings.mongodb_url:
        raise RuntimeError("MONGODB_URL is not set (showdown serve starts a local database)")
    url = settings.mongodb_url
    if settings.nats_url and not settings.node_id:
        # Chosen here, not by the node: its writer's group-commit markers carry it too.
        settings = settings.model_copy(update={"node_id": "n" + secrets.token_hex(4)})

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        mongo = Mongo(url, settings.mongodb_db)
        await mongo.ensure_indexes()
        repos = Repositories.of(mongo.db, mongo.blocking_db, settings.node_id or "node")
        await repos.players.ensure_indexes()
        # The hands the last stop left uncounted, first: before any table files more.
        await repos.hands.stats.resume()
        gateway = AIGateway(settings.ai_shared_secret, settings.send_queue_size)
        tables = TableManager(settings, repos, gateway)
        loop_lag = LoopLagMonitor()
        sessions = SessionStore(mongo.db, settings.refresh_token_ttl, settings.refresh_reuse_grace)
        await sessions.ensure_indexes()
        app.state.showdown = AppState(
            settings,
            mongo,
            repos,
            gateway,
            tables,
            loop_lag,
            sessions,
            signins=Quota("sign-ins", settings.signin_burst, settings.signins_per_hour),
            # Per name, whatever the address: guessing one player's password from many
            # addresses is as slow as from one.
            password_tries=Quota(
                "password attempts for this name", settings.signin_burst, settings.signins_per_hour
            ),
            table_creations=Quota(
                "tables created", settings.table_create_burst, settings.table_creates_per_hour
            ),
        )
        app.state.showdown.reviews = ReviewService(mongo.db, gateway)
        await prepare_unknown_hash()
        await finish_closed_tables(mongo.db)  # a closing a stop cut short
        node: ClusterNode | None = None
        if settings.nats_url:  # one of many nodes: tables are loaded as their leases allow
            node = await ClusterNode.start(settings, mongo.db, repos, tables, gateway)
            app.state.showdown.cluster = node
        store = TournamentStore(mongo.db)
        await store.ensure_indexes()
        app.state.showdown.tournaments = TournamentService(store, tables)
        if node is not None:  # one director per tournament, its tables on any node
            await node.direct_tournaments(app.state.showdown.tournaments, store)
        # The directors first: each tournament table is reconciled by its director as it
        # loads (paused until then), from its stored seats and last filed hand.
        await app.state.showdown.tournaments.load_all()
        restored = await tables.load_all() if node is None else 0
        app.state.showdown.tournaments.start_clock()
        idle = IdleCloser(mongo.db, tables, settings.table_idle_close)
        idle.start()
        loop_lag.start()
        log.info("server ready", extra={"tables_restored": restored})
        try:
            yield
        finally:
            steps = ShutdownSteps()
            await steps("idle closer", idle.stop())
            await steps("loop lag monitor", loop_lag.stop())
            await steps("tournaments", app.state.showdown.tournaments.close())
            if node is not None:
                await steps("cluster node", node.close())
            await steps("tables", tables.close())
            if node is not None:
                # Stored and stopped: the other nodes take them now.
                await steps("leases released", node.release())
            await steps("reviews", app.state.showdown.reviews.close())
            # The hands not counted yet are counted after the next start.
            await steps("statistics", repos.hands.stats.close())
            await steps("batch writer", repos.writer.close())
            await steps("AI gateway", gateway.close())
            await steps("database client", mongo.close())
            steps.done()

    app = FastAPI(
        title="Showdown",
        summary="Real-time multiplayer Texas Hold'em: lobby REST and table WebSockets",
        description="The WebSocket protocol is described in docs/protocol.md.",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.add_middleware(SecurityHeaders, nodes=settings.cluster_urls)
    for module in (
        auth,
        tables,
        table_stats,
        hand_exports,
        hands,
        reviews,
        players,
        health,
        sockets,
        tournaments,
    ):
        app.include_router(module.router)
    frontend_dir = settings.frontend_dir or DEFAULT_DIR
    if frontend_dir.is_dir():
        mount_frontend(app, frontend_dir)
    return app
