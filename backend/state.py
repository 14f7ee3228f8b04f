"""What the running app holds: settings, database, repositories, AI gateway, tables."""

from __future__ import annotations

from dataclasses import dataclass

from backend.ai_gateway import AIGateway
from backend.db.client import Mongo
from backend.db.repositories import Repositories
from backend.realtime.loop_lag import LoopLagMonitor
from backend.realtime.manager import TableManager
from backend.settings import Settings


@dataclass
class AppState:
    settings: Settings
    mongo: Mongo
    repos: Repositories
    gateway: AIGateway
    tables: TableManager
    loop_lag: LoopLagMonitor
