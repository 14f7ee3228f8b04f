"""The tournaments' REST bodies: creating one, and what the lobby and its page show."""

from __future__ import annotations

from typing import Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from backend.tournament import prizes
from backend.tournament.director import Director, Spec, Status
from backend.tournament.structures import Level, LevelsBy, Structure, preset
from protocol.messages import TournamentView


class CreateTournamentRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=60)
    players: int = Field(ge=2, le=1000, description="a sit-and-go: 2 to 10; more: multi-table")
    seats_per_table: int = Field(default=9, ge=2, le=10)
    bots: int = Field(default=0, ge=0, le=1000, description="seats given to bots at once")
    buy_in: int = Field(default=100, ge=0, le=1_000_000)
    structure: str = Field(default="regular", description="turbo, regular, deep or custom")
    levels_by: LevelsBy = LevelsBy.TIME
    levels: list[Level] | None = Field(default=None, description="custom: the levels in order")
    starting_chips: int | None = Field(default=None, ge=1, le=10_000_000)
    level_seconds: int | None = Field(default=None, ge=10, le=7200)
    level_hands: int | None = Field(default=None, ge=1, le=1000)
    prizes: str = Field(default="top3", description="winner_takes_all, top2, top3, standard")
    prize_shares: list[int] | None = Field(default=None, description="custom: best place first")
    late_registration_levels: int = Field(
        default=0, ge=0, le=100, description="registration stays open this many levels"
    )
    start_in_seconds: int | None = Field(
        default=None, ge=1, le=7 * 86400, description="start then, bots filling empty seats"
    )
    rebuy_levels: int = Field(
        default=0, ge=0, le=100, description="rebuys open this many levels (0: a freezeout)"
    )
    rebuy_chips: int | None = Field(
        default=None, ge=1, le=10_000_000, description="chips per rebuy (default: starting)"
    )
    max_rebuys: int = Field(default=0, ge=0, le=100, description="per player (0: no limit)")
    add_on: int = Field(
        default=0, ge=0, le=10_000_000, description="add-on chips at the period's end (0: none)"
    )

    @model_validator(mode="after")
    def _check(self) -> Self:
        if self.bots > self.players:
            raise ValueError("bots: at most the number of players")
        return self

    def spec(self, now: float | None = None) -> Spec:
        """The tournament's fixed rules; a ValueError names what does not hold."""
        if self.structure == "custom":
            if not self.levels:
                raise ValueError("levels: a custom structure lists its levels")
            base = Structure(starting_chips=self.starting_chips or 3000, levels=self.levels)
        else:
            base = preset(self.structure, self.levels_by)
        updates: dict[str, object] = {"levels_by": self.levels_by}
        for key in ("starting_chips", "level_seconds", "level_hands"):
            value = getattr(self, key)
            if value is not None:
                updates[key] = value
        structure = Structure.model_validate({**base.model_dump(), **updates})
        shares = (
            prizes.check_custom(self.prize_shares)
            if self.prize_shares
            else prizes.percents(self.prizes, self.players)
        )
        seats = (
            min(self.seats_per_table, self.players) if self.players <= 10 else self.seats_per_table
        )
        return Spec(
            name=self.name,
            max_players=self.players,
            seats_per_table=max(2, seats),
            buy_in=self.buy_in,
            structure=structure,
            prize_shares=shares,
            late_registration_levels=self.late_registration_levels,
            rebuy_levels=self.rebuy_levels,
            rebuy_chips=self.rebuy_chips,
            max_rebuys=self.max_rebuys,
            add_on=self.add_on,
            start_at=(
                now + self.start_in_seconds
                if now is not None and self.start_in_seconds is not None
                else None
            ),
        )


class PlayerLine(BaseModel):
    player_id: str
    name: str
    is_bot: bool
    chips: int
    table_id: str | None
    place: int | None
    prize: int
    rebuys: int = 0
    add_on: bool = Field(default=False, description="took the add-on")
    awaiting_rebuy: bool = Field(default=False, description="busted in the rebuy period")
    may_rebuy: bool = False
    may_add_on: bool = False


class TableLine(BaseModel):
    table_id: str
    players: int
    chips: int


class TournamentSummary(BaseModel):
    tournament_id: str
    name: str
    status: Status
    kind: str = Field(description="sng (one table) or mtt")
    registered: int
    max_players: int
    buy_in: int
    prize_pool: int
    structure: str
    starting_chips: int


class TournamentDetail(TournamentSummary):
    levels: list[Level]
    levels_by: LevelsBy
    level_seconds: int
    level_hands: int
    prizes: list[int]
    players: list[PlayerLine]
    tables: list[TableLine]
    clock: TournamentView | None = None
    moves: int
    hands: int = Field(description="hands finished, all tables together")
    rebuy_levels: int = Field(description="rebuys in the first this many levels (0: none)")
    rebuy_chips: int
    max_rebuys: int = Field(description="per player (0: no limit)")
    add_on: int = Field(description="the add-on's chips (0: no add-on)")
    rebuys: int = Field(description="rebuys taken, all players together")
    add_ons: int
    rebuy_open: bool
    add_on_open: bool


def summary(director: Director) -> TournamentSummary:
    s = director.state
    spec = s.spec
    return TournamentSummary(
        tournament_id=s.tournament_id,
        name=spec.name,
        status=s.status,
        kind="sng" if spec.max_players <= spec.seats_per_table else "mtt",
        registered=len(s.entrants),
        max_players=spec.max_players,
        buy_in=spec.buy_in,
        prize_pool=director.pool,
        structure=spec.structure.name,
        starting_chips=spec.structure.starting_chips,
    )


def detail(director: Director, clock: TournamentView | None, now: float) -> TournamentDetail:
    s = director.state
    structure = s.spec.structure
    players = [
        PlayerLine(
            **e.model_dump(),
            may_rebuy=director.rebuy_refusal(e.player_id, now) is None,
            may_add_on=director.add_on_refusal(e.player_id, now) is None,
        )
        for e in director.standings()
    ]
    tables = [
        TableLine(
            table_id=tid,
            players=len(t.seats),
            chips=sum(s.entrants[p].chips for p in t.seats.values()),
        )
        for tid, t in s.tables.items()
    ]
    return TournamentDetail(
        **summary(director).model_dump(),
        levels=structure.levels,
        levels_by=structure.levels_by,
        level_seconds=structure.level_seconds,
        level_hands=structure.level_hands,
        prizes=director.prizes,
        players=players,
        tables=tables,
        clock=clock,
        moves=s.moves,
        hands=sum(s.hands.values()),
        rebuy_levels=s.spec.rebuy_levels,
        rebuy_chips=director.rebuy_chips,
        max_rebuys=s.spec.max_rebuys,
        add_on=s.spec.add_on,
        rebuys=s.rebuys,
        add_ons=s.add_ons,
        rebuy_open=director.rebuy_open(now),
        add_on_open=director.add_on_open(now),
    )


class TournamentResult(BaseModel):
    tournament_id: str
    name: str
    place: int | None
    prize: int
    buy_in: int
    entrants: int


class TournamentRecord(BaseModel):
    """A player's tournaments: each result, and the totals (ROI: net over buy-ins)."""

    player_id: str
    played: int
    cashes: int
    wins: int
    buy_ins: int
    prizes: int
    roi: float | None = Field(description="(prizes - buy-ins) / buy-ins; null with no buy-ins")
    results: list[TournamentResult] = Field(description="this page of results, the latest first")
    total_items: int = Field(description="how many results there are in all (`played`)")
    limit: int
    offset: int
