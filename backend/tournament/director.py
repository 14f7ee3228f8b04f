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
from typing import Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from backend.tournament import balancing, places
from backend.tournament.clock import LevelClock, Period
from backend.tournament.prizes import payouts
from backend.tournament.structures import Level, Structure
from holdem.wire_enum import WireEnum


class Status(WireEnum):
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
    # Rebuys (see docs/tournaments.md): open while the clock is in the first this many
    # levels and the break right after them (0: a freezeout), each for the buy-in.
    rebuy_levels: int = Field(default=0, ge=0)
    rebuy_chips: int | None = Field(default=None, ge=1)  # None: the starting chips
    max_rebuys: int = Field(default=0, ge=0)  # per player (0: no limit)
    add_on: int = Field(default=0, ge=0)  # the add-on's chips, for the buy-in (0: none)

    @model_validator(mode="after")
    def _check_rebuys(self) -> Self:
        if self.rebuy_levels >= len(self.structure.levels):
            raise ValueError("rebuy_levels: the rebuy period must end before the last level")
        if self.rebuy_levels == 0 and (self.add_on or self.rebuy_chips or self.max_rebuys):
            raise ValueError("rebuy_levels: rebuys and an add-on need a rebuy period")
        return self


class Entrant(BaseModel):
    player_id: str
    name: str
    is_bot: bool = False
    chips: int = 0
    table_id: str | None = None
    place: int | None = None
    prize: int = 0
    rebuys: int = 0
    add_on: bool = False
    owed: int = 0  # bought during a hand at the player's table: added once it ends
    awaiting_rebuy: bool = False  # busted in the rebuy period: not seated, not yet out


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
    # The table's number of the last hand counted per table: a hand's end told twice (its
    # report, late, after a reconcile that counted it from the table's seats) counts once.
    counted: dict[str, int] = Field(default_factory=dict)
    busy: list[str] = Field(default_factory=list)  # tables with a hand in progress
    held: list[str] = Field(default_factory=list)  # tables paused by the director
    round_busts: list[tuple[str, int]] = Field(default_factory=list)  # hand-for-hand
    played: float = 0.0  # the level clock's banked play seconds
    running_since: float | None = None
    eliminations: list[Elimination] = Field(default_factory=list)
    moves: int = 0
    rebuys: int = 0
    add_ons: int = 0
    # Busted in the rebuy period, not rebought: (player, chips at the hand's start, the
    # bust's sequence); eliminated in that order once the period is over.
    rebuy_busts: list[tuple[str, int, int]] = Field(default_factory=list)
    started_at: float | None = None
    finished_at: float | None = None


class OrderKind(WireEnum):
    OPEN = "open"  # a new table (its stakes: `level`)
    SEAT = "seat"  # seat_player: `player_id` in `seat` with `chips`
    ADD = "add"  # adjust: `chips` bought (a rebuy or the add-on) onto `player_id`'s stack
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
        s.entrants[player_id] = entrant
        return self._seat_anywhere(entrant, now)

    def _seat_anywhere(self, entrant: Entrant, now: float) -> list[Order]:
        """The entrant (with their chips) at the table with the fewest players, a new
        table if every one is full."""
        s = self.state
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
        rng = random.Random(s.seed + len(s.entrants) - 1 + 7919 * (s.rebuys + s.add_ons))
        seat = rng.choice(table.empty())
        table.seats[seat] = entrant.player_id
        entrant.table_id = table.table_id
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
        """Every buy-in, rebuy and add-on (each costs the buy-in)."""
        s = self.state
        return s.spec.buy_in * (len(s.entrants) + s.rebuys + s.add_ons)

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

    def hand_started(self, table_id: str, hand_no: int | None = None) -> None:
        """`hand_no`: the table's number of the hand; one counted already (its report
        told again after a takeover) starts nothing."""
        if hand_no is not None and hand_no <= self.state.counted.get(table_id, 0):
            return
        if table_id not in self.state.busy:
            self.state.busy.append(table_id)

    def hand_finished(
        self,
        table_id: str,
        now: float,
        button: int | None,
        stacks: dict[str, int],
        starting: dict[str, int],
        hand_no: int | None = None,
    ) -> list[Order]:
        """`stacks`: every seated player's chips now; `starting`: as the hand began;
        `hand_no`: the table's number of the hand (None: not known, counted anyway)."""
        s = self.state
        if s.status is not Status.RUNNING or table_id not in s.tables:
            return []
        if hand_no is not None:
            if hand_no <= s.counted.get(table_id, 0):
                return []  # counted already (a reconcile told it first): nothing new
            s.counted[table_id] = hand_no
        self._bank(now)
        table = s.tables[table_id]
        table.button = button
        if table_id in s.busy:
            s.busy.remove(table_id)
        s.hands[table_id] = s.hands.get(table_id, 0) + 1
        for player_id, chips in stacks.items():
            if player_id in s.entrants:
                s.entrants[player_id].chips = chips
        # A player who bought chips during the hand is not out: they are added now.
        orders: list[Order] = self._settle_owed(table_id)
        busted = [
            (pid, starting.get(pid, 0))
            for pid in table.seats.values()
            if stacks.get(pid, 1) == 0 and s.entrants[pid].chips == 0
        ]
        if busted and self.rebuy_open(now):
            orders += self._await_rebuy(table_id, busted)
            busted = []
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
        orders += self._close_rebuys(now)
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
        orders = self._close_rebuys(now)
        if s.status is not Status.RUNNING or self._clock_period(now).on_break:
            return orders
        if s.held and (not self.hand_for_hand or not s.busy):
            return orders + self._release_all(now)
        return orders

    def resync(self, table_id: str, stacks: dict[str, int]) -> list[Order]:
        """After a restart: the table's stored stacks (a voided hand gave its chips back)
        are what counts; the hand that was in progress is over, so the chips bought
        during it are added now."""
        s = self.state
        if table_id in s.busy:
            s.busy.remove(table_id)
        for player_id, chips in stacks.items():
            if player_id in s.entrants:
                s.entrants[player_id].chips = chips
        return self._settle_owed(table_id) if table_id in s.tables else []

    def missed(self, table_id: str, hand_no: int | None) -> int:
        """The hands a table finished (its last one `hand_no`, from its seats) that were
        never counted here: their reports were lost with a node. 0 when not known (no
        number, or a table counted before the numbers were kept)."""
        s = self.state
        if hand_no is None or table_id not in s.tables:
            return 0
        counted = s.counted.get(table_id)
        if counted is None:
            if s.hands.get(table_id, 0):
                return 0  # no baseline to count from: none rather than a guess
            counted = 0
        return max(0, hand_no - counted)

    def count_missed(self, table_id: str, hands: int, hand_no: int, now: float) -> None:
        """`hands` lost hands of the table, the last one `hand_no`, counted now (the
        clock's level by hands reads the count); the table's level follows it."""
        s = self.state
        s.hands[table_id] = s.hands.get(table_id, 0) + hands
        s.counted[table_id] = max(s.counted.get(table_id, 0), hand_no)
        self._stakes(table_id, now)  # (the reconcile gives the table its level's stakes)

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

    # -- rebuys and the add-on --------------------------------------------------------

    @property
    def rebuy_chips(self) -> int:
        return self.state.spec.rebuy_chips or self.state.spec.structure.starting_chips

    def rebuy_open(self, now: float) -> bool:
        """The rebuy period: the first `rebuy_levels` levels and the break after them."""
        s = self.state
        n = s.spec.rebuy_levels
        if n == 0 or s.status is not Status.RUNNING:
            return False
        period = self._clock_period(now)
        return period.level < n or (period.on_break and period.level == n)

    def add_on_open(self, now: float) -> bool:
        """The add-on: in the last level of the rebuy period and the break after it."""
        s = self.state
        if s.spec.add_on == 0 or not self.rebuy_open(now):
            return False
        period = self._clock_period(now)
        last = s.spec.rebuy_levels - 1
        return period.level > last or (period.level == last and not period.on_break)

    def rebuy_refusal(self, player_id: str, now: float) -> str | None:
        """Why the player may not rebuy now (None: they may). The rule: at or below the
        starting stack, or busted, while the period lasts, up to `max_rebuys`."""
        s = self.state
        spec = s.spec
        entrant = s.entrants.get(player_id)
        if spec.rebuy_levels == 0:
            return "this tournament has no rebuys"
        if entrant is None:
            return "not registered"
        if s.status is not Status.RUNNING:
            return "rebuys: the tournament is not running"
        if entrant.place is not None:
            return "out of the tournament"
        if not self.rebuy_open(now):
            return "the rebuy period is over"
        if spec.max_rebuys and entrant.rebuys >= spec.max_rebuys:
            return f"no rebuys left (at most {spec.max_rebuys})"
        start = spec.structure.starting_chips
        if not entrant.awaiting_rebuy and entrant.chips + entrant.owed > start:
            return f"a rebuy needs a stack at or below the starting {start} chips"
        return None

    def add_on_refusal(self, player_id: str, now: float) -> str | None:
        s = self.state
        entrant = s.entrants.get(player_id)
        if s.spec.add_on == 0:
            return "this tournament has no add-on"
        if entrant is None:
            return "not registered"
        if s.status is not Status.RUNNING:
            return "add-on: the tournament is not running"
        if entrant.place is not None:
            return "out of the tournament"
        if entrant.add_on:
            return "one add-on per player: taken already"
        if not self.rebuy_open(now):
            return "the add-on is over (it ends with the rebuy period)"
        if not self.add_on_open(now):
            return f"the add-on opens in level {s.spec.rebuy_levels}, the rebuy period's last"
        if entrant.awaiting_rebuy:
            return "busted: rebuy first, then take the add-on"
        return None

    def rebuy(self, player_id: str, now: float) -> list[Order]:
        """A rebuy: the chips onto the player's stack, or a busted player seated again
        with them; the pool grows by the buy-in."""
        why = self.rebuy_refusal(player_id, now)
        if why is not None:
            raise TournamentError(why)
        s = self.state
        entrant = s.entrants[player_id]
        entrant.rebuys += 1
        s.rebuys += 1
        if entrant.awaiting_rebuy:
            entrant.awaiting_rebuy = False
            s.rebuy_busts = [b for b in s.rebuy_busts if b[0] != player_id]
            entrant.chips = self.rebuy_chips
            return self._seat_anywhere(entrant, now)
        return self._add_chips(entrant, self.rebuy_chips)

    def add_on(self, player_id: str, now: float) -> list[Order]:
        why = self.add_on_refusal(player_id, now)
        if why is not None:
            raise TournamentError(why)
        s = self.state
        entrant = s.entrants[player_id]
        entrant.add_on = True
        s.add_ons += 1
        return self._add_chips(entrant, s.spec.add_on)

    def _add_chips(self, entrant: Entrant, chips: int) -> list[Order]:
        """Between hands at once; during one, owed until it ends (hand_finished), so the
        table's report of that hand never misses chips the director counted."""
        table_id = entrant.table_id
        if table_id is None or table_id not in self.state.tables:
            raise TournamentError("not seated at a table of this tournament")
        if table_id in self.state.busy:
            entrant.owed += chips
            return []
        entrant.chips += chips
        return [Order(OrderKind.ADD, table_id, player_id=entrant.player_id, chips=chips)]

    def _settle_owed(self, table_id: str) -> list[Order]:
        s = self.state
        orders: list[Order] = []
        for player_id in s.tables[table_id].seats.values():
            entrant = s.entrants[player_id]
            if entrant.owed:
                entrant.chips += entrant.owed
                orders.append(
                    Order(OrderKind.ADD, table_id, player_id=player_id, chips=entrant.owed)
                )
                entrant.owed = 0
        return orders

    def _await_rebuy(self, table_id: str, busted: list[tuple[str, int]]) -> list[Order]:
        """Busted in the rebuy period: off the table, still in until the period ends."""
        s = self.state
        table = s.tables[table_id]
        seq = sum(s.hands.values())
        orders: list[Order] = []
        for player_id, chips in busted:
            number = next(n for n, p in table.seats.items() if p == player_id)
            del table.seats[number]
            entrant = s.entrants[player_id]
            entrant.table_id, entrant.chips, entrant.awaiting_rebuy = None, 0, True
            s.rebuy_busts.append((player_id, chips, seq))
            orders.append(Order(OrderKind.REMOVE, table_id, player_id=player_id))
        return orders

    def _close_rebuys(self, now: float) -> list[Order]:
        """Who busted in the rebuy period and did not rebuy is out once it ends (or once
        fewer than two players are seated: nobody could play on), earliest bust first,
        so the later busts take the better places."""
        s = self.state
        if not s.rebuy_busts or s.status is not Status.RUNNING:
            return []
        seated = sum(len(t.seats) for t in s.tables.values())
        if self.rebuy_open(now) and seated >= 2:
            return []
        busts, s.rebuy_busts = sorted(s.rebuy_busts, key=lambda b: b[2]), []
        orders: list[Order] = []
        for seq in sorted({b[2] for b in busts}):
            group = [(pid, chips) for pid, chips, at in busts if at == seq]
            for player_id, _ in group:
                s.entrants[player_id].awaiting_rebuy = False
            orders += self._eliminate(group, now)
        return orders

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
        playing = [e for e in left if not e.awaiting_rebuy]
        return {e.player_id: e.chips for e in playing}, prizes, len(left)

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
        # Only a table between hands gives players up: the one whose hand just ended, and
        # one left with a single player (it deals no hand again, so if it is the table to
        # break, no hand of its own would ever break it, and the others would wait).
        alone = [
            tid
            for tid, t in s.tables.items()
            if tid != table_id and len(t.seats) == 1 and tid not in s.busy
        ]
        moves = [m for free in (table_id, *alone) for m in balancing.plan(s.tables, free, rng)]
        for move in moves:
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
