"""The tournament director: registration, the draw, levels, busts and places, balancing,
hand-for-hand at the bubble, synchronized breaks, the final table.

It never touches a table: each event it is told (a hand started or finished at a table,
the clock ticked) returns the host commands for the tables, as `Order`s, that whoever
runs the tables gives them (in process, or, later, a table in another process). Its
whole state is one pydantic model, stored after every event: a restart loads it again.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from backend.tournament import balancing, places
from backend.tournament.clock import LevelClock, Period
from backend.tournament.prizes import payouts
from backend.tournament.structures import Level, Structure


class Status(StrEnum):
    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"


class Spec(BaseModel):
    """What the host chose; fixed once the tournament starts."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=60)
    max_players: int = Field(ge=2, le=10_000)
    seats_per_table: int = Field(default=9, ge=2, le=10)
    buy_in: int = Field(default=100, ge=0)  # points into the prize pool per entrant
    structure: Structure
    prize_shares: list[int] = Field(min_length=1)  # best place first
    # Hand-for-hand from this many players above the money down to the money (0: never).
    hand_for_hand_margin: int = Field(default=1, ge=0)
    # Late registration: open while the clock is in the first this many levels (0: none).
    late_registration_levels: int = Field(default=0, ge=0)
    # A start time (epoch seconds): then bots fill the seats nobody took. None: when full.
    start_at: float | None = None


class Entrant(BaseModel):
    player_id: str
    name: str
    is_bot: bool = False
    chips: int = 0
    table_id: str | None = None
    place: int | None = None
    prize: int = 0


class Elimination(BaseModel):
    player_id: str
    name: str
    place: int
    prize: int


class State(BaseModel):
    tournament_id: str
    spec: Spec
    status: Status = Status.REGISTERING
    seed: int = 0
    entrants: dict[str, Entrant] = Field(default_factory=dict)
    tables: dict[str, balancing.TableSeats] = Field(default_factory=dict)
    table_level: dict[str, int] = Field(default_factory=dict)  # the level each table plays
    hands: dict[str, int] = Field(default_factory=dict)  # hands finished per table
    busy: list[str] = Field(default_factory=list)  # tables with a hand in progress
    held: list[str] = Field(default_factory=list)  # tables paused by the director
    round_busts: list[tuple[str, int]] = Field(default_factory=list)  # hand-for-hand
    played: float = 0.0  # the level clock's banked play seconds
    running_since: float | None = None
    eliminations: list[Elimination] = Field(default_factory=list)
    moves: int = 0
    started_at: float | None = None
    finished_at: float | None = None


class OrderKind(StrEnum):
    OPEN = "open"  # a new table (its stakes: `level`)
    SEAT = "seat"  # seat_player: `player_id` in `seat` with `chips`
    REMOVE = "remove"  # the player leaves the table (busted, or moved: `chips` go along)
    STAKES = "stakes"  # table_settings: the level's blinds and antes from the next hand
    PAUSE = "pause"
    RESUME = "resume"
    CLOSE = "close"


@dataclass(frozen=True, slots=True)
class Order:
    kind: OrderKind
    table_id: str
    player_id: str | None = None
    name: str | None = None
    seat: int | None = None
    chips: int = 0
    is_bot: bool = False
    level: Level | None = None


class TournamentError(ValueError):
    """A request the tournament refuses; nothing changed."""


class Director:
    def __init__(self, state: State) -> None:
        self.state = state
        self._clock = LevelClock(state.spec.structure, state.played, state.running_since)

    # -- registration ------------------------------------------------------------------

    def register(self, player_id: str, name: str, *, is_bot: bool = False) -> None:
        s = self.state
        if s.status is not Status.REGISTERING:
            raise TournamentError("registration is closed")
        if player_id in s.entrants:
            raise TournamentError("already registered")
        if len(s.entrants) >= s.spec.max_players:
            raise TournamentError("the tournament is full")
        s.entrants[player_id] = Entrant(player_id=player_id, name=name, is_bot=is_bot)

    def unregister(self, player_id: str) -> None:
        s = self.state
        if s.status is not Status.REGISTERING:
            raise TournamentError("the tournament has started: no unregistering")
        if s.entrants.pop(player_id, None) is None:
            raise TournamentError("not registered")

    def late_register(
        self, player_id: str, name: str, now: float, *, is_bot: bool = False
    ) -> list[Order]:
        """Registering after the start: seated with the starting chips at the table with
        the fewest players (a new table if every one is full)."""
        s = self.state
        if s.status is not Status.RUNNING:
            raise TournamentError("late registration: the tournament is not running")
        if self._clock_period(now).level >= s.spec.late_registration_levels:
            raise TournamentError("late registration is closed")
        if player_id in s.entrants:
            raise TournamentError("already registered")
        if len(s.entrants) >= s.spec.max_players:
            raise TournamentError("the tournament is full")
        if s.round_busts or self.hand_for_hand:
            raise TournamentError("late registration is closed at the bubble")
        entrant = Entrant(player_id=player_id, name=name, is_bot=is_bot)
        entrant.chips = s.spec.structure.starting_chips
        orders: list[Order] = []
        open_tables = [t for t in s.tables.values() if t.empty()]
        if open_tables:
            table = min(open_tables, key=lambda t: len(t.seats))
        else:
            number = 1 + max(int(tid.rsplit("-", 1)[1]) for tid in s.hands)
            table_id = f"{s.tournament_id}-{number}"
            table = balancing.TableSeats(table_id=table_id, size=s.spec.seats_per_table)
            s.tables[table_id] = table
            level = self._clock_period(now).level
            s.table_level[table_id] = level
            s.hands[table_id] = 0
            orders.append(Order(OrderKind.OPEN, table_id, level=s.spec.structure.levels[level]))
        seat = random.Random(s.seed + len(s.entrants)).choice(table.empty())
        table.seats[seat] = player_id
        entrant.table_id = table.table_id
        s.entrants[player_id] = entrant
        orders.append(self._seat_order(table.table_id, seat, entrant))
        return orders

    def due(self, now: float) -> bool:
        """Its start time has come while it still waits for players."""
        start_at = self.state.spec.start_at
        return self.state.status is Status.REGISTERING and start_at is not None and now >= start_at

    @property
    def full(self) -> bool:
        return len(self.state.entrants) >= self.state.spec.max_players

    @property
    def pool(self) -> int:
        return self.state.spec.buy_in * len(self.state.entrants)

    @property
    def prizes(self) -> list[int]:
        shares = self.state.spec.prize_shares[: max(1, len(self.state.entrants) - 1)]
        return payouts(self.pool, shares)

    # -- the start: the draw -----------------------------------------------------------

    def start(self, now: float) -> list[Order]:
        s = self.state
        if s.status is not Status.REGISTERING:
            raise TournamentError("the tournament has started already")
        if len(s.entrants) < 2:
            raise TournamentError("a tournament needs two or more players")
        s.status = Status.RUNNING
        s.started_at = now
        rng = random.Random(s.seed)
        size = s.spec.seats_per_table
        count = balancing.tables_needed(len(s.entrants), size)
        drawn = list(s.entrants.values())
        rng.shuffle(drawn)
        level = s.spec.structure.levels[0]
        orders: list[Order] = []
        for i in range(count):
            table_id = f"{s.tournament_id}-{i + 1}"
            s.tables[table_id] = balancing.TableSeats(table_id=table_id, size=size)
            s.table_level[table_id] = 0
            s.hands[table_id] = 0
            orders.append(Order(OrderKind.OPEN, table_id, level=level))
        # Dealt round the tables, so their counts differ by one at most.
        for i, entrant in enumerate(drawn):
            table = s.tables[f"{s.tournament_id}-{i % count + 1}"]
            seat = rng.choice(table.empty())
            table.seats[seat] = entrant.player_id
            entrant.chips = s.spec.structure.starting_chips
            entrant.table_id = table.table_id
            orders.append(self._seat_order(table.table_id, seat, entrant))
        self._clock.start(now)
        self._save_clock()
        return orders

    # -- events from the tables --------------------------------------------------------

    def hand_started(self, table_id: str) -> None:
        if table_id not in self.state.busy:
            self.state.busy.append(table_id)

    def hand_finished(
        self,
        table_id: str,
        now: float,
        button: int | None,
        stacks: dict[str, int],
        starting: dict[str, int],
    ) -> list[Order]:
        """`stacks`: every seated player's chips now; `starting`: as the hand began."""
        s = self.state
        if s.status is not Status.RUNNING or table_id not in s.tables:
            return []
        self._bank(now)
        table = s.tables[table_id]
        table.button = button
        if table_id in s.busy:
            s.busy.remove(table_id)
        s.hands[table_id] = s.hands.get(table_id, 0) + 1
        for player_id, chips in stacks.items():
            if player_id in s.entrants:
                s.entrants[player_id].chips = chips
        busted = [
            (pid, starting.get(pid, 0)) for pid in table.seats.values() if stacks.get(pid, 1) == 0
        ]
        orders: list[Order] = []
        for player_id, _ in busted:
            number = next(n for n, p in table.seats.items() if p == player_id)
            del table.seats[number]
            s.entrants[player_id].table_id = None
            orders.append(Order(OrderKind.REMOVE, table_id, player_id=player_id))
        # A round's busts stay pending until its last table is done, even if a table
        # broke meanwhile and the field now fits fewer tables.
        if self.hand_for_hand or s.round_busts:
            s.round_busts += busted
            orders += self._hold(table_id)
            if not s.busy:  # the round is complete: its busts are simultaneous
                round_busts, s.round_busts = s.round_busts, []
                orders += self._eliminate(round_busts, now)
                orders += self._release_all(now)
        else:
            orders += self._eliminate(busted, now)
        if s.status is Status.RUNNING:
            orders += self._rebalance(table_id)
            orders += self._stakes(table_id, now)
            if self._clock_period(now).on_break and table_id in s.tables:
                orders += self._hold(table_id)
        return orders

    def tick(self, now: float) -> list[Order]:
        """The clock: after a break, the tables go on together."""
        s = self.state
        if s.status is not Status.RUNNING:
            return []
        self._bank(now)
        if self._clock_period(now).on_break:
            return []
        if s.held and (not self.hand_for_hand or not s.busy):
            return self._release_all(now)
        return []

    def resync(self, table_id: str, stacks: dict[str, int]) -> None:
        """After a restart: the table's stored stacks (a voided hand gave its chips back)
        are what counts; the hand that was in progress is over."""
        s = self.state
        if table_id in s.busy:
            s.busy.remove(table_id)
        for player_id, chips in stacks.items():
            if player_id in s.entrants:
                s.entrants[player_id].chips = chips

    def restarted(self, now: float) -> None:
        """Loaded after a stop: the clock goes on from the play time last stored (the
        time the server was down is not played)."""
        if self._clock.running_since is not None:
            self._clock.running_since = now
            self._save_clock()

    def pause_clock(self, now: float) -> None:
        self._clock.stop(now)
        self._save_clock()

    def resume_clock(self, now: float) -> None:
        self._clock.start(now)
        self._save_clock()

    # -- what everyone sees ------------------------------------------------------------

    def period(self, now: float) -> Period:
        return self._clock_period(now)

    def level(self, now: float) -> Level:
        return self.state.spec.structure.levels[self._clock_period(now).level]

    @property
    def players_left(self) -> list[Entrant]:
        return [e for e in self.state.entrants.values() if e.place is None]

    @property
    def hand_for_hand(self) -> bool:
        s = self.state
        paid = len(self.prizes)
        left = len(self.players_left)
        live_tables = sum(1 for t in s.tables.values() if t.seats)
        margin = s.spec.hand_for_hand_margin
        return margin > 0 and live_tables > 1 and paid < left <= paid + margin

    @property
    def final_table(self) -> bool:
        return self.state.status is Status.RUNNING and len(self.state.tables) == 1

    def standings(self) -> list[Entrant]:
        """Players left by chips, then the eliminated by place."""
        left = sorted(self.players_left, key=lambda e: -e.chips)
        out = sorted(
            (e for e in self.state.entrants.values() if e.place is not None),
            key=lambda e: e.place or 0,
        )
        return left + out

    def chips_total(self) -> int:
        return sum(e.chips for e in self.state.entrants.values())

    def table_stacks(self, table_id: str) -> dict[str, int]:
        """The hook for tournament-aware AI (ICM): the stacks at one table."""
        table = self.state.tables[table_id]
        return {p: self.state.entrants[p].chips for p in table.seats.values()}

    def situation(self) -> tuple[dict[str, int], list[int], int]:
        """For ICM: every stack left, the prizes still to be paid (best first), and how
        many places are left (the coordinator wires this into DecisionQuery.tournament)."""
        left = self.players_left
        prizes = self.prizes[: len(left)]
        return {e.player_id: e.chips for e in left}, prizes, len(left)

    # -- inside ------------------------------------------------------------------------

    def _clock_period(self, now: float) -> Period:
        hands = max(self.state.hands.values(), default=0)
        return self._clock.period(now, hands)

    def _bank(self, now: float) -> None:
        """The play time so far goes into the stored state (what a restart goes on from)."""
        if self._clock.running_since is not None:
            self._clock.stop(now)
            self._clock.start(now)
        self._save_clock()

    def _save_clock(self) -> None:
        self.state.played = self._clock.played
        self.state.running_since = self._clock.running_since

    def _seat_order(self, table_id: str, seat: int, entrant: Entrant) -> Order:
        return Order(
            OrderKind.SEAT,
            table_id,
            player_id=entrant.player_id,
            name=entrant.name,
            seat=seat,
            chips=entrant.chips,
            is_bot=entrant.is_bot,
        )

    def _eliminate(self, busted: list[tuple[str, int]], now: float) -> list[Order]:
        s = self.state
        if not busted:
            return []
        left = len(self.players_left)
        for result in places.finish(busted, left, self.prizes):
            entrant = s.entrants[result.player_id]
            entrant.place, entrant.prize, entrant.chips = result.place, result.prize, 0
            s.eliminations.append(
                Elimination(
                    player_id=entrant.player_id,
                    name=entrant.name,
                    place=result.place,
                    prize=result.prize,
                )
            )
        remaining = self.players_left
        if len(remaining) > 1:
            return []
        orders: list[Order] = []
        if len(remaining) == 1:
            winner = remaining[0]
            winner.place, winner.prize = 1, self.prizes[0]
        s.status = Status.FINISHED
        s.finished_at = now
        self._clock.stop(now)
        self._save_clock()
        for table_id in list(s.tables):
            orders.append(Order(OrderKind.CLOSE, table_id))
        s.tables.clear()
        s.held.clear()
        return orders

    def _rebalance(self, table_id: str) -> list[Order]:
        s = self.state
        if table_id not in s.tables:
            return []
        rng = random.Random(s.seed * 1_000_003 + sum(s.hands.values()))
        orders: list[Order] = []
        for move in balancing.plan(s.tables, table_id, rng):
            entrant = s.entrants[move.player_id]
            entrant.table_id = move.to_table
            s.moves += 1
            orders.append(
                Order(
                    OrderKind.REMOVE, move.from_table, player_id=move.player_id, chips=entrant.chips
                )
            )
            orders.append(self._seat_order(move.to_table, move.to_seat, entrant))
        for tid in [tid for tid, t in s.tables.items() if not t.seats]:
            del s.tables[tid]
            if tid in s.held:
                s.held.remove(tid)
            if tid in s.busy:
                s.busy.remove(tid)
            orders.append(Order(OrderKind.CLOSE, tid))
        return orders

    def _stakes(self, table_id: str, now: float) -> list[Order]:
        s = self.state
        if table_id not in s.tables:
            return []
        level = self._clock_period(now).level
        if s.table_level.get(table_id) == level:
            return []
        s.table_level[table_id] = level
        return [Order(OrderKind.STAKES, table_id, level=s.spec.structure.levels[level])]

    def _hold(self, table_id: str) -> list[Order]:
        s = self.state
        if table_id in s.held or table_id not in s.tables:
            return []
        s.held.append(table_id)
        return [Order(OrderKind.PAUSE, table_id)]

    def _release_all(self, now: float) -> list[Order]:
        s = self.state
        if self._clock_period(now).on_break:
            return []
        orders = [Order(OrderKind.RESUME, tid) for tid in s.held if tid in s.tables]
        s.held.clear()
        return orders
