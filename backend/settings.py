"""Server settings from the environment (pydantic-settings); see docs/settings.md.

Every setting is read from `SHOWDOWN_<NAME>` or, for the names deployments
already use (compose.yaml), from the bare name: MONGODB_URL, SECRET_KEY,
AI_SHARED_SECRET, ALLOWED_ORIGINS, BOT_DELAY_MS, ACTION_TIMEOUT, ...
"""

from __future__ import annotations

import ipaddress
import secrets
from pathlib import Path
from typing import Annotated, Any

from pydantic import AliasChoices, Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict


def _env(name: str, default: Any, description: str, **constraints: Any) -> Any:
    """A field read from SHOWDOWN_NAME or NAME (the first found wins)."""
    return Field(
        default=default,
        validation_alias=AliasChoices(f"SHOWDOWN_{name}", name),
        description=description,
        **constraints,
    )


class Settings(BaseSettings):
    model_config = SettingsConfigDict(extra="ignore", populate_by_name=True)

    mongodb_url: str | None = _env(
        "MONGODB_URL", None, "MongoDB URL; unset: `showdown serve` starts an embedded database"
    )
    mongodb_db: str = _env("MONGODB_DB", "showdown", "database name when the URL does not name one")
    secret_key: str = _env(
        "SECRET_KEY", "", "HS256 key signing player tokens; unset: random (serve keeps one)"
    )
    ai_shared_secret: str = _env(
        "AI_SHARED_SECRET", "", "secret AI workers present on /ws/ai; unset: random"
    )
    allowed_origins: Annotated[list[str], NoDecode] = _env(
        "ALLOWED_ORIGINS", [], "extra WebSocket origins, comma-separated (own origin always ok)"
    )
    access_token_ttl: float = _env(
        "ACCESS_TOKEN_TTL", 900.0, "access token lifetime, s (refreshed by the client)", gt=0
    )
    refresh_token_ttl: float = _env(
        "REFRESH_TOKEN_TTL", 7 * 24 * 3600.0, "session lifetime since its last refresh, s", gt=0
    )
    refresh_reuse_grace: float = _env(
        "REFRESH_REUSE_GRACE",
        10.0,
        "seconds the refresh token spent last is refused without revoking its session",
        ge=0,
    )
    trusted_proxies: Annotated[list[str], NoDecode] = _env(
        "TRUSTED_PROXIES",
        [],
        "proxy addresses/networks whose X-Forwarded-* headers are believed, comma-separated",
    )
    signin_burst: int = _env(
        "SIGNIN_BURST", 10, "sign-ins (and password attempts per name) at once", ge=1
    )
    signins_per_hour: float = _env(
        "SIGNINS_PER_HOUR",
        30.0,
        "sign-ins (and password attempts per name) regained per hour",
        gt=0,
    )
    table_create_burst: int = _env(
        "TABLE_CREATE_BURST", 5, "tables a client may create at once", ge=1
    )
    table_creates_per_hour: float = _env(
        "TABLE_CREATES_PER_HOUR", 20.0, "table creations a client regains per hour", gt=0
    )
    table_idle_close: float = _env(
        "TABLE_IDLE_CLOSE",
        1800.0,
        "seconds without a connection or a hand before a table is closed (0: never)",
        ge=0,
    )
    action_timeout: float = _env(
        "ACTION_TIMEOUT", 20.0, "default seconds per decision before the time bank", gt=0
    )
    time_bank: float = _env("TIME_BANK", 30.0, "default time bank per player per table, s", ge=0)
    time_bank_refill: float = _env(
        "TIME_BANK_REFILL", 1.0, "seconds a time bank regains per hand played, up to full", ge=0
    )
    max_timeouts: int = _env(
        "MAX_TIMEOUTS", 2, "timeouts in a row before a player is sat out", ge=1
    )
    disconnect_grace: float = _env(
        "DISCONNECT_GRACE", 60.0, "seconds a disconnected player keeps playing by the timer", ge=0
    )
    away_stand_up: float = _env(
        "AWAY_STAND_UP",
        300.0,
        "seconds a disconnected player sitting out keeps the seat before it is freed (0: never)",
        ge=0,
    )
    hand_pause_ms: int = _env("HAND_PAUSE_MS", 2500, "pause between hands, ms", ge=0)
    bot_delay_ms: int = _env(
        "BOT_DELAY_MS", 800, "mean human-like delay before a bot acts, ms (0: none)", ge=0
    )
    bots_play_alone: bool = _env(
        "BOTS_PLAY_ALONE", False, "deal hands at tables where only bots are seated"
    )
    ai_deadline_ms: int = _env(
        "AI_DEADLINE_MS", 3000, "time an AI worker gets for a decision, ms", gt=0
    )
    advice_burst: int = _env(
        "ADVICE_BURST", 20, "advice searches a player may ask for at once", ge=1
    )
    advice_per_hour: float = _env(
        "ADVICE_PER_HOUR", 600.0, "advice searches a player regains per hour", gt=0
    )
    max_message_bytes: int = _env("MAX_MESSAGE_BYTES", 4096, "largest client message", ge=256)
    messages_per_second: float = _env(
        "MESSAGES_PER_SECOND", 10.0, "sustained client message rate", gt=0
    )
    message_burst: int = _env("MESSAGE_BURST", 30, "client messages allowed at once", ge=1)
    flood_close_after: int = _env(
        "FLOOD_CLOSE_AFTER", 20, "rate-limited messages in a row before closing (1008)", ge=1
    )
    send_queue_size: int = _env(
        "SEND_QUEUE_SIZE", 256, "messages queued per client before it is dropped", ge=1
    )
    ws_compression: bool = _env(
        "WS_COMPRESSION",
        False,
        "permessage-deflate on WebSockets (costs CPU per client per message)",
    )
    gc_full_every: float = _env(
        "GC_FULL_EVERY",
        600.0,
        "seconds between full garbage collections, none automatic (0: CPython's defaults)",
        ge=0,
    )
    frontend_dir: Path | None = _env(
        "FRONTEND_DIR", None, "built frontend to serve at / (default: frontend/dist if present)"
    )
    log_level: str = _env("LOG_LEVEL", "INFO", "DEBUG, INFO, WARNING or ERROR")
    log_format: str = _env("LOG_FORMAT", "json", "json (JSON lines) or text (key=value)")
    # A cluster of nodes (docs/cluster.md): `showdown serve --nodes N` sets these.
    nats_url: str = _env(
        "NATS_URL", "", "the message bus between nodes (nats://...); unset: one process, no bus"
    )
    node_id: str = _env("NODE_ID", "", "this node's id in a cluster; unset: random")
    node_url: str = _env(
        "NODE_URL",
        "",
        "this node's address as clients reach it (http://host:port); set: a client that "
        "follows moves and opens a socket on another node for this node's table is sent "
        "here; unset: relayed over the bus",
    )
    cluster_urls: Annotated[list[str], NoDecode] = _env(
        "CLUSTER_URLS",
        [],
        "every node's NODE_URL, comma-separated: a page from one node may open its table "
        "sockets at another (allowed as WebSocket origins and in the page's connect-src)",
    )
    lease_ttl: float = _env(
        "LEASE_TTL", 10.0, "seconds a node's table lease lasts unrenewed (failover time)", gt=0
    )

    @field_validator("allowed_origins", "trusted_proxies", "cluster_urls", mode="before")
    @classmethod
    def _split_list(cls, value: Any) -> Any:
        if isinstance(value, str):
            return [o.strip().rstrip("/") for o in value.split(",") if o.strip()]
        return value

    @field_validator("trusted_proxies")
    @classmethod
    def _check_networks(cls, value: list[str]) -> list[str]:
        for item in value:
            if item != "*":
                ipaddress.ip_network(item, strict=False)  # ValueError names the bad entry
        return value

    def with_secrets(self) -> Settings:
        """A copy with random secrets filled in where none were configured."""
        updates: dict[str, str] = {}
        if not self.secret_key:
            updates["secret_key"] = secrets.token_urlsafe(32)
        if not self.ai_shared_secret:
            updates["ai_shared_secret"] = secrets.token_urlsafe(32)
        return self.model_copy(update=updates) if updates else self
