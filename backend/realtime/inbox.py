"""What a table's task handles, one at a time: the items of its inbox."""

from __future__ import annotations

from dataclasses import dataclass

from backend.ai_gateway import Decision
from backend.realtime.outbox import Outbox
from backend.realtime.timers import Turn
from backend.tournament.director import Order
from protocol.messages import ClientCommand, QueryPurpose


@dataclass(eq=False)
class Client:
    """One WebSocket of one signed-in player (seated or watching)."""

    player_id: str
    name: str
    outbox: Outbox


@dataclass(frozen=True, slots=True)
class Join:
    client: Client
    last_seq: int | None


@dataclass(frozen=True, slots=True)
class Leave:
    client: Client


@dataclass(frozen=True, slots=True)
class Command:
    client: Client
    message: ClientCommand


@dataclass(frozen=True, slots=True)
class TimerFired:
    kind: str  # "turn", "bot", "deal", "grace", "away", "rebuy"
    key: Turn | str | int | None = None  # int: the hand number (the run-it-twice vote)


@dataclass(frozen=True, slots=True)
class AIDone:
    turn: Turn
    purpose: QueryPurpose
    player_id: str
    ref: str | None
    decision: Decision


@dataclass(frozen=True, slots=True)
class StatsCounted:
    """The statistics now count this table's hands up to hand_no (None: only other
    tables' hands were counted) and changed for player_ids (PlayerStats.listen)."""

    hand_no: int | None
    player_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Orders:
    """A tournament director's host commands for this table, in order."""

    orders: tuple[Order, ...]


class Stop:
    pass


InboxItem = Join | Leave | Command | TimerFired | AIDone | StatsCounted | Orders | Stop


class CommandError(Exception):
    """A command refused: sent to its sender as an error, nothing changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
