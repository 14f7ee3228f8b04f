"""The server's tournaments: each director, its tables (TableRuntimes in this process),
its stored state, and the clock task that starts breaks' ends and sit-and-gos.

The tables call in (a hand started, a hand finished) from their own tasks; the director's
answer, host commands as `Order`s, goes to each table's inbox, so every table still
changes only in its own task. The director's state is stored after every event; on a
restart it is read again and every table of a running tournament resynced from its own
stored seats (the hand in progress voided, as at every table).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import defaultdict
from typing import Any

from backend.realtime.inbox import Orders
from backend.realtime.manager import TableManager
from backend.tournament.clock import Clock, WallClock
from backend.tournament.director import (
    Director,
    Order,
    OrderKind,
    Spec,
    State,
    Status,
    TournamentError,
)
from backend.tournament.store import Document, TournamentStore
from backend.tournament.tables import table_config
from protocol.messages import TournamentElimination, TournamentSituation, TournamentView

log = logging.getLogger(__name__)

TICK_SECONDS = 1.0


class TournamentService:
    def __init__(
        self, store: TournamentStore, tables: TableManager, clock: Clock | None = None
    ) -> None:
        self._store = store
        self._tables = tables
        self.clock: Clock = clock or WallClock()  # tests drive it (a FakeClock)
        self._directors: dict[str, Director] = {}
        self._of_table: dict[str, str] = {}  # table id -> tournament id
        self._task: asyncio.Task[None] | None = None
        self._saves: dict[str, asyncio.Task[None]] = {}
        self._dirty: set[str] = set()
        self._background: set[asyncio.Task[None]] = set()

    # -- life --------------------------------------------------------------------------

    async def load_all(self) -> int:
        """After the tables are loaded: every tournament back, its tables reattached."""
        now = self.clock.now()
        for state in await self._store.all():
            director = Director(state)
            director.restarted(now)
            self._directors[state.tournament_id] = director
            for table_id in list(state.tables):
                self._attach(state.tournament_id, table_id)
            if state.status is Status.RUNNING:
                self._dispatch(state.tournament_id, self._reconcile(director))
            self._save(state.tournament_id)
        return len(self._directors)

    def _reconcile(self, director: Director) -> list[Order]:
        """After a restart, the tables' stored seats against the director's: a move cut
        short (removed at one table, not yet seated at the other, or the reverse) is
        completed; every stack comes from the player's own table, a voided hand's
        chips given back."""
        state = director.state
        orders: list[Order] = []
        seated: set[str] = set()
        for table_id in state.tables:
            runtime = self._tables.get(table_id)
            if runtime is None:
                continue
            stacks: dict[str, int] = {}
            for seat in runtime.table.snapshot().seats:
                entrant = state.entrants.get(seat.player_id)
                if entrant is None or entrant.table_id != table_id:
                    orders.append(Order(OrderKind.REMOVE, table_id, player_id=seat.player_id))
                    continue
                stacks[seat.player_id] = seat.stack
                seated.add(seat.player_id)
            orders += director.resync(table_id, stacks)
        for entrant in director.players_left:
            table = state.tables.get(entrant.table_id or "")
            if entrant.player_id in seated or table is None:
                continue
            number = next(n for n, p in table.seats.items() if p == entrant.player_id)
            orders.append(
                Order(
                    OrderKind.SEAT,
                    table.table_id,
                    player_id=entrant.player_id,
                    name=entrant.name,
                    seat=number,
                    chips=entrant.chips,
                    is_bot=entrant.is_bot,
                )
            )
        return orders

    def start_clock(self) -> None:
        self._task = asyncio.create_task(self._ticking(), name="tournament-clock")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await asyncio.gather(*self._saves.values(), *self._background, return_exceptions=True)

    async def _ticking(self) -> None:
        while True:
            await asyncio.sleep(TICK_SECONDS)
            now = self.clock.now()
            for tid, director in list(self._directors.items()):
                try:
                    if director.state.status is Status.RUNNING:
                        self._dispatch(tid, director.tick(now))
                        self._if_finished(director)  # the rebuy period's busts are out
                    elif director.due(now):
                        await self.start_now(tid)
                except Exception:  # one tournament's trouble does not stop the others' clock
                    log.exception("tournament clock", extra={"tournament_id": tid})

    # -- requests ----------------------------------------------------------------------

    async def create(self, spec: Spec, bots: int, created_by: str) -> Director:
        if bots > spec.max_players:
            raise TournamentError("more bots than seats in the tournament")
        tid = "T" + secrets.token_hex(4)
        director = Director(State(tournament_id=tid, spec=spec, seed=secrets.randbits(31)))
        for i in range(bots):
            director.register(f"bot-{tid}-{i + 1}", f"Bot {i + 1}", is_bot=True)
        self._directors[tid] = director
        await self._store.save(director.state)
        log.info("tournament created", extra={"tournament_id": tid, "by": created_by})
        if director.full:
            await self._start(director)
        return director

    def now(self) -> float:
        return self.clock.now()

    async def results_of(self, player_id: str) -> list[Document]:
        return await self._store.results_of(player_id)

    def get(self, tournament_id: str) -> Director | None:
        return self._directors.get(tournament_id)

    def all(self) -> list[Director]:
        return list(self._directors.values())

    async def register(self, tournament_id: str, player_id: str, name: str) -> Director:
        director = self._need(tournament_id)
        if director.state.status is Status.RUNNING:  # late registration
            orders = director.late_register(player_id, name, self.clock.now())
            await self._open(director, orders)
            await self._store.save(director.state)
            self._dispatch(tournament_id, [o for o in orders if o.kind is not OrderKind.OPEN])
            return director
        director.register(player_id, name)
        await self._store.save(director.state)
        if director.full:
            await self._start(director)
        return director

    async def rebuy(self, tournament_id: str, player_id: str) -> Director:
        director = self._need(tournament_id)
        await self._buy(director, director.rebuy(player_id, self.clock.now()))
        return director

    async def add_on(self, tournament_id: str, player_id: str) -> Director:
        director = self._need(tournament_id)
        await self._buy(director, director.add_on(player_id, self.clock.now()))
        return director

    async def _buy(self, director: Director, orders: list[Order]) -> None:
        """Chips onto a stack go to the table at once, with no await between the
        director's count and the order: the table's next report of a hand includes
        them (a busted player seated again needs no such care: a new table first)."""
        tid = director.state.tournament_id
        await self._open(director, orders)
        self._dispatch(tid, [o for o in orders if o.kind is not OrderKind.OPEN])
        await self._store.save(director.state)

    async def unregister(self, tournament_id: str, player_id: str) -> Director:
        director = self._need(tournament_id)
        director.unregister(player_id)
        await self._store.save(director.state)
        return director

    async def start_now(self, tournament_id: str) -> Director:
        """Bots fill the seats nobody took, and it starts. With late registration the
        seats stay open for it: bots only make up the two players a start needs."""
        director = self._need(tournament_id)
        spec = director.state.spec
        if director.state.status is not Status.REGISTERING:
            raise TournamentError("the tournament has started already")
        n = len(director.state.entrants)
        wanted = 2 if spec.late_registration_levels else spec.max_players
        while len(director.state.entrants) < wanted:
            n += 1
            director.register(f"bot-{tournament_id}-{n}", f"Bot {n}", is_bot=True)
        await self._start(director)
        return director

    def _need(self, tournament_id: str) -> Director:
        director = self._directors.get(tournament_id)
        if director is None:
            raise KeyError(tournament_id)
        return director

    async def _start(self, director: Director) -> None:
        tid = director.state.tournament_id
        orders = director.start(self.clock.now())
        await self._open(director, orders)
        await self._store.save(director.state)
        self._dispatch(tid, [o for o in orders if o.kind is not OrderKind.OPEN])

    async def _open(self, director: Director, orders: list[Order]) -> None:
        """The new tables among `orders`. They exist before the state that names them is
        stored: a restart between the two finds tables the director never knew (empty)."""
        tid = director.state.tournament_id
        spec = director.state.spec
        for order in orders:
            if order.kind is OrderKind.OPEN:
                assert order.level is not None
                number = order.table_id.rsplit("-", 1)[1]
                await self._tables.open_tournament_table(
                    order.table_id,
                    table_config(spec.seats_per_table, order.level),
                    f"{spec.name} #{number}"[:40],
                    tid,
                )
                self._attach(tid, order.table_id)

    def _attach(self, tournament_id: str, table_id: str) -> None:
        runtime = self._tables.get(table_id)
        if runtime is not None:
            runtime.tournament = self
            self._of_table[table_id] = tournament_id

    # -- the tables' events (called from the table's own task) ---------------------------

    def hand_started(self, table_id: str) -> None:
        director = self._of(table_id)
        if director is not None:
            director.hand_started(table_id)
            self._save(director.state.tournament_id)

    def hand_finished(
        self, table_id: str, button: int | None, stacks: dict[str, int], starting: dict[str, int]
    ) -> None:
        director = self._of(table_id)
        if director is None:
            return
        was = director.state.status
        orders = director.hand_finished(table_id, self.clock.now(), button, stacks, starting)
        self._dispatch(director.state.tournament_id, orders)
        if was is Status.RUNNING:
            self._if_finished(director)

    def _if_finished(self, director: Director) -> None:
        """Just finished (a hand's bust, or the rebuy period's end): results filed."""
        if director.state.status is Status.FINISHED:
            tid = director.state.tournament_id
            self._spawn(self._store.file_results(results(director)))
            log.info("tournament finished", extra={"tournament_id": tid})

    def view(self, table_id: str) -> TournamentView | None:
        director = self._of(table_id)
        return view_of(director, self.clock.now()) if director is not None else None

    def situation(self, table_id: str, at_table: set[str]) -> TournamentSituation | None:
        """For the AI at a tournament's table (ICM): the prizes still to be paid and the
        chips of everyone still in at the other tables (`at_table`: the players seated at
        this one, whose stacks the view has). Public: the tournament page shows them all.
        None at a cash table, before the start or after the end, and in a freeroll."""
        director = self._of(table_id)
        if director is None or director.state.status is not Status.RUNNING:
            return None
        stacks, prizes, _ = director.situation()
        if not any(prizes):  # nothing to win but chips: the AI plays them as chips
            return None
        return TournamentSituation.of(stacks, prizes, at_table)

    def _of(self, table_id: str) -> Director | None:
        tid = self._of_table.get(table_id)
        return self._directors.get(tid) if tid is not None else None

    def _dispatch(self, tournament_id: str, orders: list[Order]) -> None:
        by_table: dict[str, list[Order]] = defaultdict(list)
        for order in orders:
            by_table[order.table_id].append(order)
        for table_id, its in by_table.items():
            runtime = self._tables.get(table_id)
            if runtime is not None:
                runtime.post(Orders(tuple(its)))
        self._save(tournament_id)

    def _save(self, tournament_id: str) -> None:
        """One write at a time per tournament, always of its latest state."""
        self._dirty.add(tournament_id)
        if tournament_id not in self._saves:
            self._saves[tournament_id] = asyncio.create_task(self._saving(tournament_id))

    async def _saving(self, tournament_id: str) -> None:
        try:
            while tournament_id in self._dirty:
                self._dirty.discard(tournament_id)
                await self._store.save(self._directors[tournament_id].state)
        except Exception:
            log.exception("could not store the tournament", extra={"id": tournament_id})
        finally:
            self._saves.pop(tournament_id, None)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)


def view_of(director: Director, now: float) -> TournamentView:
    s = director.state
    period = director.period(now)
    level = director.level(now)
    left = director.players_left
    playing = [e for e in left if not e.awaiting_rebuy]
    return TournamentView(
        tournament_id=s.tournament_id,
        name=s.spec.name,
        status=s.status.value,
        level=period.level + 1,
        small_blind=level.small_blind,
        big_blind=level.big_blind,
        ante=level.ante,
        big_blind_ante=level.big_blind_ante,
        seconds_to_next=period.seconds_left,
        on_break=period.on_break,
        hand_for_hand=director.hand_for_hand,
        final_table=director.final_table,
        players_left=len(left),
        entrants=len(s.entrants),
        paid_places=len(director.prizes),
        average_stack=sum(e.chips for e in left) // len(playing) if playing else 0,
        eliminations=[TournamentElimination(**e.model_dump()) for e in s.eliminations[-5:]],
        rebuy_open=director.rebuy_open(now),
        add_on_open=director.add_on_open(now),
    )


def results(director: Director) -> list[Document]:
    """One per human player (bots have no profile)."""
    s = director.state
    return [
        {
            "_id": f"{s.tournament_id}-{e.player_id}",
            "player_id": e.player_id,
            "tournament_id": s.tournament_id,
            "name": s.spec.name,
            "place": e.place,
            "prize": e.prize,
            "buy_in": s.spec.buy_in * (1 + e.rebuys + int(e.add_on)),  # all paid: ROI
            "entrants": len(s.entrants),
            "finished_at": s.finished_at,
        }
        for e in s.entrants.values()
        if not e.is_bot
    ]
