"""What the running app holds: settings, database, repositories, AI gateway, tables."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from backend.ai_gateway import AIGateway
from backend.cluster.node import ClusterNode
from backend.db.client import Mongo
from backend.db.repositories import Repositories
from backend.quotas import Quota
from backend.realtime.loop_lag import LoopLagMonitor
from backend.realtime.manager import TableManager
from backend.realtime.session_sockets import SessionSockets
from backend.review.service import ReviewService
from backend.sessions import SessionStore
from backend.settings import Settings
from backend.tournament.service import TournamentService


@dataclass
class AppState:
    settings: Settings
    mongo: Mongo
    repos: Repositories
    gateway: AIGateway
    tables: TableManager
    loop_lag: LoopLagMonitor
    sessions: SessionStore
    signins: Quota
    table_creations: Quota
    password_tries: Quota
    session_sockets: SessionSockets = field(default_factory=SessionSockets)
    reviews: ReviewService | None = None  # set by the app once the gateway exists
    tournaments: TournamentService | None = None  # set by the app before the tables load
    cluster: ClusterNode | None = None  # a node of a cluster (NATS_URL set); None: alone
    # Table names are checked and taken under this lock: two creates cannot share one.
    create_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
