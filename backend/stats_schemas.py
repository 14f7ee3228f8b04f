"""REST shapes of players' statistics, results graphs and the leaderboard."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

from holdem.config import Variant


class Game(BaseModel):
    variant: Variant
    small_blind: int
    big_blind: int
    ante: int = 0
    stakes: str = Field(description='"small/big", with " ante N" when there is one')


class Figures(BaseModel):
    """Shares are 0..1; null where the player never had the chance yet."""

    vpip: float | None
    pfr: float | None
    three_bet: float | None
    fold_to_three_bet: float | None
    aggression_factor: float | None = Field(description="postflop bets and raises per call")
    aggression_frequency: float | None = Field(
        description="postflop bets and raises of bets, raises, calls and folds"
    )
    cbet: float | None
    fold_to_cbet: float | None
    wtsd: float | None = Field(description="went to showdown, of the flops seen")
    wsd: float | None = Field(description="won chips at showdown, of the showdowns")
    bb_per_100: float | None
    allin_ev_bb_per_100: float | None


class StatLine(BaseModel):
    game: Game | None = Field(description="null for the total over the games listed")
    hands: int
    counts: dict[str, float] = Field(description="the summed counters (holdem.stats.StatCounts)")
    figures: Figures


class PlayerStatsPage(BaseModel):
    player_id: str
    name: str | None
    is_bot: bool
    total: StatLine = Field(description="every game matching the filters, not only this page")
    items: list[StatLine]
    total_items: int
    limit: int
    offset: int


class ResultPoint(BaseModel):
    """Cumulative winnings after `hands` hands (a point per block of hands)."""

    hands: int
    first_at: datetime
    last_at: datetime
    won: float
    won_showdown: float
    won_no_showdown: float
    allin_ev: float
    won_bb: float
    won_showdown_bb: float
    won_no_showdown_bb: float
    allin_ev_bb: float


class ResultsPage(BaseModel):
    player_id: str
    hands_per_point: int
    items: list[ResultPoint]
    total: int
    limit: int
    offset: int


class LeaderRow(BaseModel):
    rank: int
    player_id: str
    name: str | None
    is_bot: bool
    hands: int
    bb_per_100: float


class LeaderboardPage(BaseModel):
    variant: Variant
    min_hands: int
    items: list[LeaderRow]
    total: int
    limit: int
    offset: int
