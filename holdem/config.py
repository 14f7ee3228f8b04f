"""Table settings: variant, stakes, antes, seats, buy-in range, raise cap.

Chips are integers of `chip_unit` (e.g. blinds 50/100 with chip_unit 0.01 are
0.50/1.00); only the UI turns chips into money.

>>> cfg = TableConfig(variant=Variant.NO_LIMIT, seats=6, small_blind=50, big_blind=100)
>>> (cfg.min_buy_in, cfg.max_buy_in)
(4000, 10000)
>>> TableConfig(variant=Variant.LIMIT, seats=2, small_blind=1, big_blind=2).big_bet
4
"""

from __future__ import annotations

from decimal import Decimal
from typing import Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from holdem.wire_enum import WireEnum

MIN_SEATS = 2
MAX_SEATS = 10


class Variant(WireEnum):
    LIMIT = "limit"
    NO_LIMIT = "no-limit"


class AnteMode(WireEnum):
    """Who posts the ante."""

    EVERY_SEAT = "every_seat"  # every seat dealt in posts `ante` (cash games)
    BIG_BLIND = "big_blind"  # the big blind posts `ante` for the whole table (tournaments)


class Straddle(WireEnum):
    """Who may post a live straddle (two big blinds, optional for that player each hand)."""

    OFF = "off"
    UTG = "utg"  # under the gun: the seat after the big blind; action starts after it
    BUTTON = "button"  # the button (Mississippi): action starts with the small blind


MAX_RUNS = 3  # run it twice or three times


class TableConfig(BaseModel):
    """Everything the rules need to know about a table, validated on creation."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    variant: Variant
    seats: int = Field(ge=MIN_SEATS, le=MAX_SEATS)
    small_blind: int = Field(ge=1)
    big_blind: int = Field(ge=1)
    ante: int = Field(default=0, ge=0)
    ante_mode: AnteMode = Field(
        default=AnteMode.EVERY_SEAT,
        description="every_seat: each seat dealt in posts the ante; big_blind: the big blind "
        "posts it alone, before the blind",
    )
    # Limit only: the fixed bet sizes (default: big blind preflop/flop, twice that turn/river).
    small_bet: int = Field(default=0, ge=0)
    big_bet: int = Field(default=0, ge=0)
    # Limit only: bets per street including the opening bet (the blind preflop);
    # 4 is the casino rule "a bet and three raises". None means uncapped.
    raise_cap: int | None = Field(
        default=4,
        ge=1,
        description="limit: bets per street, the opening bet (preflop: the big blind) "
        "included; null means no cap",
    )
    # Buy-in range in chips; 0 means the default of 40 / 100 big blinds.
    min_buy_in: int = Field(default=0, ge=0)
    max_buy_in: int = Field(default=0, ge=0)
    chip_unit: Decimal = Field(default=Decimal(1), gt=0)
    # Home-game rules (#34), all off by default.
    straddle: Straddle = Field(
        default=Straddle.OFF,
        description="no-limit only: the seat allowed a live straddle of two big blinds",
    )
    run_it_max: int = Field(
        default=1,
        ge=1,
        le=MAX_RUNS,
        description="all-in before the river: the most runs players may agree on (1: off)",
    )
    rabbit_hunt: bool = Field(
        default=False, description="after a hand ends early, the cards to come may be shown"
    )
    bomb_pot_ante: int = Field(
        default=0, ge=0, description="a bomb pot's ante from every seat (0: no bomb pots)"
    )
    bomb_pot_every: int = Field(
        default=0, ge=0, description="a bomb pot every N hands (0: only when the host calls one)"
    )

    @model_validator(mode="after")
    def _fill_defaults_and_check(self) -> Self:
        # Frozen model: defaults derived from other fields are set through __dict__.
        if self.small_blind > self.big_blind:
            raise ValueError("the small blind cannot exceed the big blind")
        if self.ante_mode is AnteMode.BIG_BLIND and self.ante == 0:
            raise ValueError("a big-blind ante needs an ante amount above 0")
        if self.straddle is not Straddle.OFF and self.variant is Variant.LIMIT:
            raise ValueError(
                "a straddle is a no-limit rule: fixed-limit bet sizes follow the big blind, "
                "which a straddle would double for one hand"
            )
        if self.bomb_pot_every and not self.bomb_pot_ante:
            raise ValueError("bomb pots every N hands need a bomb pot ante above 0")
        if self.variant is Variant.LIMIT:
            small_bet = self.small_bet or self.big_blind
            big_bet = self.big_bet or 2 * small_bet
            if big_bet < small_bet:
                raise ValueError("the big bet cannot be smaller than the small bet")
            self.__dict__["small_bet"] = small_bet
            self.__dict__["big_bet"] = big_bet
        unit = self.small_bet if self.variant is Variant.LIMIT else self.big_blind
        min_buy_in = self.min_buy_in or 40 * unit
        max_buy_in = self.max_buy_in or max(100 * unit, min_buy_in)
        if min_buy_in > max_buy_in:
            raise ValueError("the minimum buy-in cannot exceed the maximum buy-in")
        if min_buy_in < self.big_blind:
            raise ValueError("the minimum buy-in must cover at least the big blind")
        self.__dict__["min_buy_in"] = min_buy_in
        self.__dict__["max_buy_in"] = max_buy_in
        return self

    @property
    def is_limit(self) -> bool:
        return self.variant is Variant.LIMIT

    @property
    def big_blind_ante(self) -> bool:
        return self.ante_mode is AnteMode.BIG_BLIND
