"""Time for tournaments: an injectable clock, and the level clock built on it.

The level clock counts play time only: it stops while the tournament is paused or the
server is down (a restart resumes it from the stored play time), and it places breaks
on the same timeline as levels, so every table of a tournament breaks together.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol

from backend.tournament.structures import LevelsBy, Structure


class Clock(Protocol):
    def now(self) -> float:
        """Seconds, increasing."""
        ...


class WallClock:
    def now(self) -> float:
        return time.time()


@dataclass
class FakeClock:
    """For tests: time moves only when told."""

    t: float = 0.0

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@dataclass(frozen=True, slots=True)
class Period:
    """Where the clock stands: a level (index) or a break before level `level`."""

    level: int
    on_break: bool
    seconds_left: float | None  # None: the last level, or levels by hands


@dataclass
class LevelClock:
    structure: Structure
    played: float = 0.0  # play seconds banked while stopped
    running_since: float | None = None

    def start(self, now: float) -> None:
        if self.running_since is None:
            self.running_since = now

    def stop(self, now: float) -> None:
        self.played = self.elapsed(now)
        self.running_since = None

    def elapsed(self, now: float) -> float:
        if self.running_since is None:
            return self.played
        return self.played + max(0.0, now - self.running_since)

    def period(self, now: float, hands: int = 0) -> Period:
        """The level (or break) at `now`, or after `hands` hands for hand levels."""
        s = self.structure
        last = len(s.levels) - 1
        if s.levels_by is LevelsBy.HANDS:
            return Period(min(hands // s.level_hands, last), False, None)
        t = self.elapsed(now)
        level = 0
        while True:
            if level == last:
                return Period(level, False, None)
            if t < s.level_seconds:
                return Period(level, False, s.level_seconds - t)
            t -= s.level_seconds
            level += 1
            if s.break_every and level % s.break_every == 0:
                if t < s.break_seconds:
                    return Period(level, True, s.break_seconds - t)
                t -= s.break_seconds
