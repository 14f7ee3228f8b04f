"""Decision clocks: the per-decision time limit, each player's time bank, timeouts in a row."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from protocol.messages import TurnClock


def now_ms() -> float:
    return time.time() * 1000


@dataclass(frozen=True, slots=True)
class Turn:
    """One decision point: the hand and how many events it had when the actor got the turn."""

    hand_no: int
    events: int
    seat: int


@dataclass
class Clock:
    turn: Turn
    player_id: str
    started: float  # loop.time()
    limit: float  # seconds until the default action
    action_timeout: float
    bank: float  # the bank available when the turn started
    started_ms: float = field(default_factory=now_ms)

    def view(self) -> TurnClock:
        return TurnClock(
            seat=self.turn.seat,
            started_at=self.started_ms,
            deadline=self.started_ms + self.limit * 1000,
            action_timeout_ms=int(self.action_timeout * 1000),
            time_bank_ms=int(self.bank * 1000),
        )


class TimeBanks:
    """Each player's remaining time bank and consecutive timeouts at one table."""

    def __init__(self, initial: float, refill: float = 0.0) -> None:
        self.initial = initial
        self.refill = refill  # regained per hand played, up to `initial`
        self._banks: dict[str, float] = {}
        self._timeouts: dict[str, int] = {}

    def bank(self, player_id: str) -> float:
        return self._banks.setdefault(player_id, self.initial)

    def spent(self, clock: Clock, elapsed: float) -> None:
        """The player acted after `elapsed` seconds: what went past the limit comes off the bank."""
        over = max(0.0, elapsed - clock.action_timeout)
        self._banks[clock.player_id] = max(0.0, self.bank(clock.player_id) - over)
        self._timeouts[clock.player_id] = 0

    def timed_out(self, clock: Clock) -> int:
        """Record a timeout; returns the player's timeouts in a row."""
        if clock.limit > clock.action_timeout:
            self._banks[clock.player_id] = 0.0
        count = self._timeouts.get(clock.player_id, 0) + 1
        self._timeouts[clock.player_id] = count
        return count

    def hand_played(self, player_ids: Iterable[str]) -> None:
        """A hand was played: the banks of those dealt in refill a little, up to full."""
        for player_id in player_ids:
            left = self._banks.get(player_id)
            if left is not None:
                self._banks[player_id] = min(self.initial, left + self.refill)

    def reset_timeouts(self, player_id: str) -> None:
        self._timeouts[player_id] = 0

    def forget(self, player_id: str) -> None:
        self._banks.pop(player_id, None)
        self._timeouts.pop(player_id, None)
