"""Blind structures: levels of blinds and antes, by time or by hands, with breaks.

Presets (turbo, regular, deep) share one blind ladder and differ in level length and
starting chips; a custom structure lists its own levels. Antes start from a level on,
as a table ante or a big-blind ante (the big blind posts it for the table).

>>> s = preset("turbo")
>>> s.levels[0].small_blind, s.levels[0].big_blind, s.level_seconds
(10, 20, 180)
>>> s.levels[3].ante, s.levels[3].big_blind_ante
(50, True)
"""

from __future__ import annotations

from typing import Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from holdem.wire_enum import WireEnum


class LevelsBy(WireEnum):
    TIME = "time"  # each level lasts `level_seconds` of play
    HANDS = "hands"  # each level lasts `level_hands` hands at the busiest table


class Level(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    small_blind: int = Field(ge=1)
    big_blind: int = Field(ge=1)
    ante: int = Field(default=0, ge=0)
    big_blind_ante: bool = False  # the big blind posts `ante` for the whole table

    @model_validator(mode="after")
    def _check(self) -> Self:
        if self.small_blind > self.big_blind:
            raise ValueError("the small blind cannot exceed the big blind")
        if self.big_blind_ante and self.ante == 0:
            raise ValueError("a big-blind ante needs an ante amount above 0")
        return self


class Structure(BaseModel):
    """The levels in order; the last one lasts until the tournament ends."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = "custom"
    starting_chips: int = Field(ge=1)
    levels: list[Level] = Field(min_length=1, max_length=100)
    levels_by: LevelsBy = LevelsBy.TIME
    level_seconds: int = Field(default=600, ge=1)
    level_hands: int = Field(default=10, ge=1)
    # A synchronized break after every `break_every` levels (0: none); time levels only.
    break_every: int = Field(default=0, ge=0)
    break_seconds: int = Field(default=300, ge=0)

    @model_validator(mode="after")
    def _check(self) -> Self:
        if self.break_every and self.levels_by is LevelsBy.HANDS:
            raise ValueError("breaks need levels by time")
        if self.levels[0].big_blind > self.starting_chips:
            raise ValueError("the first big blind exceeds the starting chips")
        return self


# Small blind, big blind, ante: the ladder every preset climbs.
_LADDER: tuple[tuple[int, int, int], ...] = (
    (10, 20, 0),
    (15, 30, 0),
    (25, 50, 0),
    (25, 50, 50),
    (50, 100, 100),
    (75, 150, 150),
    (100, 200, 200),
    (150, 300, 300),
    (200, 400, 400),
    (300, 600, 600),
    (400, 800, 800),
    (500, 1000, 1000),
    (750, 1500, 1500),
    (1000, 2000, 2000),
    (1500, 3000, 3000),
    (2000, 4000, 4000),
    (3000, 6000, 6000),
    (5000, 10000, 10000),
    (7500, 15000, 15000),
    (10000, 20000, 20000),
)

# name -> (starting chips, level seconds, level hands, break every)
PRESETS: dict[str, tuple[int, int, int, int]] = {
    "turbo": (1500, 180, 6, 0),
    "regular": (3000, 600, 10, 6),
    "deep": (5000, 900, 15, 4),
}


def ladder(*, big_blind_ante: bool = True) -> list[Level]:
    return [
        Level(small_blind=sb, big_blind=bb, ante=ante, big_blind_ante=big_blind_ante and ante > 0)
        for sb, bb, ante in _LADDER
    ]


def preset(name: str, levels_by: LevelsBy = LevelsBy.TIME) -> Structure:
    if name not in PRESETS:
        raise ValueError(f"structure: one of {', '.join(PRESETS)}, or custom levels")
    chips, seconds, hands, breaks = PRESETS[name]
    return Structure(
        name=name,
        starting_chips=chips,
        levels=ladder(),
        levels_by=levels_by,
        level_seconds=seconds,
        level_hands=hands,
        break_every=breaks if levels_by is LevelsBy.TIME else 0,
    )
