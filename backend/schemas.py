"""REST request and response models, and the table options kept beside TableConfig."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Self

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

from backend.home_rules import bot_refusal
from backend.names import normalise_name
from backend.passwords import PASSWORD_MAX, PASSWORD_MIN
from backend.realtime.loop_lag import LoopLag
from holdem.config import MAX_RUNS, MAX_SEATS, MIN_SEATS, AnteMode, Straddle, TableConfig, Variant
from holdem.history import HandRecord
from holdem.views import TableView
from protocol.messages import DEFAULT_BOT_STYLE, BotStyle

# Every amount a table is created with (blinds, ante, bets, buy-ins) is at most this.
# A stack holds only chips bought in at its table: 10 seats buying in for 1e9 a
# million times each make 1e16, 900 times less than MongoDB stores (2^63 - 1).
MAX_CHIPS = 1_000_000_000
PLAYER_NAME_MAX = 24
TABLE_NAME_MAX = 40


def _player_name(raw: str) -> str:
    return normalise_name(raw, PLAYER_NAME_MAX, "name")


def _table_name(raw: str) -> str:
    return normalise_name(raw, TABLE_NAME_MAX, "table name") if raw.strip() else ""


# Request fields are strict, as the protocol promises: "50", 50.0 and true are not 50.
Chips = Annotated[int, Field(strict=True, ge=0, le=MAX_CHIPS)]


class TableOptions(BaseModel):
    """Per-table settings that are not rules: timers, bots, advice."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=40)
    action_timeout: float = Field(gt=0, le=600)
    time_bank: float = Field(ge=0, le=3600)
    advice_allowed: bool = True
    created_by: str | None = None
    # Private tables (#34): unlisted; only its players, and whoever has the invite, see it.
    private: bool = False
    invite: str | None = None  # the invite link's token; None: revoked (no link admits)
    host: str | None = None  # who runs the table; None: the creator
    approve_seats: bool = False  # seat requests wait for the host's approval
    host_paused: bool = False  # the host paused the game: no hand is dealt
    tournament_id: str | None = None  # a tournament's table: its director runs it


class GuestRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Annotated[
        str,
        Field(max_length=200, description=f"1-{PLAYER_NAME_MAX} characters, see docs/protocol.md"),
        AfterValidator(_player_name),
    ]


class RefreshRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    refresh_token: str = Field(min_length=1, max_length=4096)


class TokenResponse(BaseModel):
    token: str = Field(description="access token: Authorization: Bearer, and the socket's auth")
    player_id: str
    name: str
    expires_at: datetime = Field(description="when the access token expires")
    refresh_token: str = Field(description="POST /api/auth/refresh: a new pair (used once)")
    refresh_expires_at: datetime = Field(description="when the session ends unless refreshed")


Password = Annotated[
    str,
    Field(
        min_length=PASSWORD_MIN,
        max_length=PASSWORD_MAX,
        description=f"{PASSWORD_MIN}-{PASSWORD_MAX} characters",
    ),
]


class LoginRequest(BaseModel):
    """Sign in as the player who protected `name` with a password."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=200)
    password: str = Field(min_length=1, max_length=PASSWORD_MAX)


class SetPasswordRequest(BaseModel):
    """Protect your name with a password; changing it asks for the current one."""

    model_config = ConfigDict(extra="forbid")

    password: Password
    current_password: str | None = Field(
        default=None, max_length=PASSWORD_MAX, description="required when a password is set"
    )


class PlayerResponse(BaseModel):
    player_id: str
    name: str
    has_password: bool = Field(
        default=False,
        description="the name is protected: sign in again with POST /api/auth/login",
    )


class CreateTableRequest(BaseModel):
    """A new table: the rules (validated as a holdem TableConfig) plus timers and bots."""

    model_config = ConfigDict(extra="forbid")

    name: Annotated[
        str,
        Field(
            default="",
            max_length=200,
            description=f"1-{TABLE_NAME_MAX} characters, unique among open tables; "
            'empty: "Table N", the first number free',
        ),
        AfterValidator(_table_name),
    ] = ""
    variant: Variant = Variant.NO_LIMIT
    small_blind: int = Field(default=50, strict=True, ge=1, le=MAX_CHIPS)
    big_blind: int = Field(default=100, strict=True, ge=1, le=MAX_CHIPS)
    ante: Chips = 0
    small_bet: Chips = Field(default=0, description="limit: 0 = the big blind")
    big_bet: Chips = Field(default=0, description="limit: 0 = twice the small bet")
    raise_cap: int | None = Field(
        default=4, strict=True, ge=1, description="limit: bets per street"
    )
    seats: int = Field(default=6, strict=True, ge=MIN_SEATS, le=MAX_SEATS)
    min_buy_in: Chips = Field(default=0, description="0 = 40 big blinds")
    max_buy_in: Chips = Field(default=0, description="0 = 100 big blinds")
    action_timeout: float | None = Field(
        default=None,
        strict=True,
        gt=0,
        le=600,
        description="seconds per decision (default: server setting)",
    )
    time_bank: float | None = Field(
        default=None, strict=True, ge=0, le=3600, description="seconds of time bank per player"
    )
    bots: int = Field(
        default=0, strict=True, ge=0, le=MAX_SEATS - 1, description="seats to fill with bots"
    )
    bot_styles: list[BotStyle] = Field(
        default_factory=lambda: [DEFAULT_BOT_STYLE],
        max_length=MAX_SEATS,
        description="styles for the bots, cycled",
    )
    advice_allowed: bool = Field(default=True, strict=True)
    private: bool = Field(
        default=False,
        strict=True,
        description="unlisted: only its players see it; others need the invite link",
    )
    big_blind_ante: bool = Field(
        default=False, strict=True, description="the big blind posts the ante for everyone"
    )
    # Home-game rules (#34); the bots play every one of them.
    straddle: Straddle = Field(
        default=Straddle.OFF, description="no-limit: a live straddle under the gun or on the button"
    )
    run_it_max: int = Field(
        default=1,
        strict=True,
        ge=1,
        le=MAX_RUNS,
        description="2 or 3: players all-in may agree to run it twice or three times",
    )
    rabbit_hunt: bool = Field(default=False, strict=True)
    bomb_pot_ante: Chips = Field(default=0, description="a bomb pot's ante (0: no bomb pots)")
    bomb_pot_every: int = Field(
        default=0,
        strict=True,
        ge=0,
        le=1000,
        description="a bomb pot every N hands (0: when the host calls one)",
    )

    @model_validator(mode="after")
    def _check(self) -> Self:
        if self.bots >= self.seats:
            raise ValueError("leave at least one seat for a human: bots must be fewer than seats")
        if self.bots and not self.bot_styles:
            raise ValueError("name at least one bot style")
        return self

    def table_config(self) -> TableConfig:
        """The rules, defaults filled in; ValueError if they break a rule or a bound."""
        config = TableConfig(
            variant=self.variant,
            seats=self.seats,
            small_blind=self.small_blind,
            big_blind=self.big_blind,
            ante=self.ante,
            small_bet=self.small_bet,
            big_bet=self.big_bet,
            raise_cap=self.raise_cap,
            min_buy_in=self.min_buy_in,
            max_buy_in=self.max_buy_in,
            ante_mode=AnteMode.BIG_BLIND if self.big_blind_ante else AnteMode.EVERY_SEAT,
            straddle=self.straddle,
            run_it_max=self.run_it_max,
            rabbit_hunt=self.rabbit_hunt,
            bomb_pot_ante=self.bomb_pot_ante,
            bomb_pot_every=self.bomb_pot_every,
        )
        refusal = bot_refusal(config) if self.bots else None
        if refusal is not None:
            raise ValueError(refusal)
        for field in ("small_bet", "big_bet", "min_buy_in", "max_buy_in"):
            value = getattr(config, field)
            if value > MAX_CHIPS:
                raise ValueError(
                    f"{field} would be {value} (defaults follow the blinds): "
                    f"amounts are at most {MAX_CHIPS}"
                )
        return config


class TableSummary(BaseModel):
    table_id: str
    name: str
    variant: Variant
    small_blind: int
    big_blind: int
    ante: int
    seats: int
    seats_taken: int
    sitting_out: int = Field(
        0, description="seats taken whose player sits out (freed after AWAY_STAND_UP if gone)"
    )
    bots: int
    players: int
    min_buy_in: int
    max_buy_in: int
    action_timeout: float
    time_bank: float
    advice_allowed: bool
    hand_no: int
    hand_in_progress: bool
    private: bool = False
    host_id: str | None = Field(None, description="who runs the table (the creator at first)")
    paused: bool = Field(False, description="the host paused the game")


class TableDetail(TableSummary):
    view: TableView
    invite: str | None = Field(
        None,
        description="private tables, to the host only: the invite link's token "
        "(the link is /tables/{table_id}?invite=TOKEN); null if revoked",
    )


class InviteResponse(BaseModel):
    table_id: str
    invite: str | None = Field(description="the new token; null: revoked, no link admits")


class HandSummary(BaseModel):
    hand_id: str
    table_id: str
    hand_no: int
    played_at: datetime | None
    variant: Variant
    small_blind: int
    big_blind: int
    seat: int | None
    net: int | None
    board: tuple[str, ...]
    players: int
    table_name: str | None = Field(
        default=None, description="the table's name (open or closed); null if unknown"
    )
    hole_cards: tuple[str, ...] | None = Field(
        default=None, description="your own hole cards in the hand (never anyone else's)"
    )
    chip_unit: str = Field(default="1", description="the table's chip unit, for display")


class HandPage(BaseModel):
    items: list[HandSummary]
    total: int
    limit: int
    offset: int


class HandDetail(BaseModel):
    hand_id: str
    record: HandRecord = Field(description="other players' hole cards are ?? unless shown")


class StatsResponse(BaseModel):
    tables: int
    hands_in_progress: int
    connections: int
    workers: int
    ai: dict[str, int]
    database: dict[str, int] = Field(
        description="writes sent, round trips (batches) they took, journal syncs (commits), "
        "the table lane's writes and round trips, retried and failed writes, and "
        "`writes.<lane>.<collection>`: the writes sent by lane and collection; "
        "`stats_hands`, `stats_queue_peak`, `stats_queued`, `stats_dropped`: hands the "
        "statistics counted, the most ever waiting, those waiting now, and those left "
        "uncounted (the queue full)"
    )
    loop_lag: LoopLag  # how late the server's event loop runs what is due, recently
