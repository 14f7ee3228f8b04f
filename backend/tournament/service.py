"""The server's tournaments: each director, its tables (TableRuntimes in this process),
its stored state, and the clock task that starts breaks' ends and sit-and-gos.

The tables call in (a hand started, a hand finished) from their own tasks; the director's
answer, host commands as `Order`s, goes to each table's inbox, so every table still
changes only in its own task. The director's state is stored after every event; on a
restart it is read again and every table of a running tournament, as it loads, waits
paused until it is reconciled from its own stored seats and last filed hand (the hand in
progress voided, as at every table; the hands whose director's writes were lost counted).

On a cluster (`link`, backend.cluster.tournaments) a director runs only on the node
holding its tournament's lease, and its writes carry the lease's token. Its tables may
be on any node: orders to another node's table and that table's reports cross the bus;
a table loaded by a node (a takeover) waits, paused, for its director to reconcile it.
A table's reports on the bus are kept until a stored state of its director counts them,
and told again to a director just taken over before the table's seats.
The other nodes keep a replica of each state (published after every write) for pages,
views and the AI's situation, and forward a player's requests to the director's node.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import defaultdict
from typing import Any, Protocol

from backend.cluster.fencing import StaleOwner
from backend.realtime.inbox import Orders
from backend.realtime.manager import TableManager
from backend.realtime.runtime import TableRuntime
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
from backend.tournament.seats import Seats, chips, int_or_none
from backend.tournament.store import Document, TournamentStore
from backend.tournament.tables import table_config
from holdem.config import TableConfig
from protocol.messages import TournamentElimination, TournamentSituation, TournamentView

log = logging.getLogger(__name__)

TICK_SECONDS = 1.0
IDLE_CHECK = 0.05  # seconds between looks at a table whose hand must end first


class NotDirector(TournamentError):
    """The write was refused: another node directs the tournament now (nothing changed)."""


class Link(Protocol):
    """A cluster's reach for the directors (backend.cluster.tournaments)."""

    async def claim(self, tournament_id: str) -> int | None: ...

    def send(self, table_id: str, orders: list[Order]) -> None: ...

    def report(self, tournament_id: str, body: dict[str, Any]) -> None: ...

    def ask_seats(self, table_id: str) -> None: ...

    async def open_table(
        self, table_id: str, config: TableConfig, name: str, tournament_id: str
    ) -> bool: ...

    def publish(self, state: State, counted: dict[str, int]) -> None: ...

    async def forward(self, tournament_id: str, body: dict[str, Any]) -> dict[str, Any]: ...

    async def close(self) -> None: ...


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
        self.link: Link | None = None  # on a cluster's node
        self._fence: dict[str, int] = {}  # the lease token of each director run here
        self._replicas: dict[str, Director] = {}  # others' directors, as last published
        # Per table here, its reports sent on the bus that no stored state has counted yet
        # (its director's node may die before storing them): told again to the next one.
        self._unacked: dict[str, list[dict[str, Any]]] = {}

    # -- life --------------------------------------------------------------------------

    async def load_all(self) -> int:
        """Before the tables are loaded: every stored tournament back. Each of its tables,
        once loaded (`table_loaded`), waits paused until its director reconciled it from
        its stored seats and its last filed hand (its hand number: the hands whose
        director's writes a kill lost are counted). On a cluster only replicas: a
        director runs where its lease is taken (`take`)."""
        if self.link is not None:
            for state in await self._store.all():
                self.replicate(state)
            return 0
        self._tables.tournament_loaded = self.table_loaded
        now = self.clock.now()
        for state in await self._store.all():
            director = Director(state)
            director.restarted(now)
            self._directors[state.tournament_id] = director
            self._save(state.tournament_id)
        return len(self._directors)

    def _reconcile_table(self, director: Director, table_id: str, seats: Seats) -> list[Order]:
        """One table's seats (between hands: after a restart or a takeover) against the
        director's: a move cut short completed (a stale copy removed, a player it misses
        seated), the stacks from the table (a voided hand's chips given back), the orders
        the table may have missed while it had no owner (its stakes, the pause or the
        resume; a table the director broke meanwhile closed), and the end of a hand whose
        report or director's write was lost (a bust stored by the table: out now, or a table of one
        player with chips would wait for ever)."""
        state = director.state
        orders: list[Order] = []
        stacks: dict[str, int] = {}
        for player_id, stack in seats.stacks.items():
            entrant = state.entrants.get(player_id)
            if entrant is None or entrant.table_id != table_id:
                orders.append(Order(OrderKind.REMOVE, table_id, player_id=player_id))
            else:
                stacks[player_id] = stack
        table = state.tables.get(table_id)
        if table is None:
            return [*orders, *director.resync(table_id, stacks), Order(OrderKind.CLOSE, table_id)]
        stood_up = [p for p in table.seats.values() if p not in stacks]
        if sum(stacks.values()) != sum(state.entrants[p].chips for p in table.seats.values()):
            stood_up = []  # (chips differ: a move cut short, seated again below)
        # The table holds every chip the director put there, so those it lacks lost theirs
        # in a hand whose report was lost, and it already stood them up: they are out, not
        # to be seated again with what they had (chips created).
        stacks.update(dict.fromkeys(stood_up, 0))
        for number, player_id in table.seats.items():
            entrant = state.entrants[player_id]
            if player_id not in stacks:
                orders.append(
                    Order(
                        OrderKind.SEAT,
                        table_id,
                        player_id=player_id,
                        name=entrant.name,
                        seat=number,
                        chips=entrant.chips,
                        is_bot=entrant.is_bot,
                    )
                )
        now = self.clock.now()
        # Hands whose reports were lost count from the table's number of its last hand
        # (a level by hands reads the count); the last one below if it has busts.
        missed = director.missed(table_id, seats.hand_no)
        busts = 0 in stacks.values()
        if seats.hand_no is not None and missed > int(busts):
            log.warning(
                "lost hands counted at the reconcile",
                extra={"table_id": table_id, "hands": missed, "hand_no": seats.hand_no},
            )
            lost = missed - int(busts)
            director.count_missed(table_id, lost, seats.hand_no - int(busts), now)
        if busts:
            # Busts of one lost report are placed by the chips they started the table's
            # last hand with (a bust of an earlier hand, not dealt in it, by none: worse).
            starting = {p: seats.starting.get(p, 0) for p in stacks}
            hand_no = seats.hand_no  # its late report, if any, then counts for nothing
            if hand_no is not None and hand_no <= state.counted.get(table_id, 0):
                hand_no = None  # (never expected) the busts counted rather than left seated
            log.warning(
                "a lost hand's busts counted at the reconcile",
                extra={
                    "table_id": table_id,
                    "hand_no": seats.hand_no,
                    "busts": {p: starting[p] for p, stack in stacks.items() if stack == 0},
                    "stood_up": stood_up,
                },
            )
            orders += director.hand_finished(table_id, now, seats.button, stacks, starting, hand_no)
            if table_id not in state.tables:
                return orders  # broken by it: its CLOSE is among the orders
        else:
            orders += director.resync(table_id, stacks)
        level = state.table_level.get(table_id)
        if level is not None:
            orders.append(
                Order(OrderKind.STAKES, table_id, level=state.spec.structure.levels[level])
            )
        held = table_id in state.held
        orders.append(Order(OrderKind.PAUSE if held else OrderKind.RESUME, table_id))
        return orders

    async def take(self, tournament_id: str, token: int) -> bool:
        """A cluster's node took the tournament's lease (its documents fenced with
        `token`): its director runs here from the stored state, as after a restart, and
        each table, wherever it is, reports its seats between hands to be reconciled."""
        state = await self._store.one(tournament_id)
        if state is None or state.status is Status.FINISHED:
            return False
        director = Director(state)
        director.restarted(self.clock.now())
        self._replicas.pop(tournament_id, None)
        self._directors[tournament_id] = director
        self._fence[tournament_id] = token
        for table_id in list(state.tables):
            self._attach(tournament_id, table_id)
            if self._tables.get(table_id) is not None:
                for body in self._unacked.get(table_id, []):  # sent while none directed
                    self.reported(tournament_id, body)
                self._spawn(self.seats_when_idle(table_id))
            elif self.link is not None:
                self.link.ask_seats(table_id)
        self._save(tournament_id)
        log.warning("tournament director taken", extra={"tournament_id": tournament_id})
        return True

    def drop(self, tournament_id: str) -> None:
        """The lease is lost (taken over, or a fenced write refused): stop directing at
        once; what it stored is the next director's start."""
        director = self._directors.pop(tournament_id, None)
        self._fence.pop(tournament_id, None)
        self._dirty.discard(tournament_id)
        if director is not None:  # its memory may hold what was refused: the store's
            self._spawn(self.refresh(tournament_id))
            log.warning("tournament director dropped", extra={"tournament_id": tournament_id})

    async def refresh(self, tournament_id: str) -> None:
        """The replica of a tournament directed elsewhere, as stored."""
        state = await self._store.one(tournament_id)
        if state is not None:
            self.replicate(state)

    async def saved(self) -> None:
        """Once the writes in flight are done (stored or refused)."""
        await asyncio.gather(*self._saves.values(), return_exceptions=True)

    def holds(self, tournament_id: str) -> bool:
        return tournament_id in self._directors

    def directing(self) -> list[str]:
        return list(self._directors)

    async def release(self, tournament_id: str) -> None:
        """Stop directing here (the node drains): the director's last state stored with
        its token, after the write in flight; then shown as a replica until the next
        director's first state. Its tables' events from now on are reported on the bus."""
        director = self._directors.pop(tournament_id, None)
        self._dirty.discard(tournament_id)
        if director is None:
            return
        saving = self._saves.get(tournament_id)
        if saving is not None:
            await asyncio.gather(saving, return_exceptions=True)
        try:
            await self._store.save(director.state, self._fence.get(tournament_id))
        except StaleOwner:
            log.warning(
                "tournament released after another node took it", extra={"id": tournament_id}
            )
        self._fence.pop(tournament_id, None)
        self.replicate(director.state)

    def replicate(self, state: State) -> None:
        """Another node's director stored this state (its page, views, the AI's data)."""
        if state.tournament_id not in self._directors:
            self._replicas[state.tournament_id] = Director(state)

    def acknowledged(self, tournament_id: str, counted: dict[str, int]) -> None:
        """The tournament's director stored a state that counted each table's hands up to
        `counted`: the reports of those hands are safe (a report is acknowledged by the
        stored state, not by its arrival: a director may die before storing it)."""
        for table_id in [t for t, tid in self._of_table.items() if tid == tournament_id]:
            reports = self._unacked.get(table_id)
            if reports:
                last = counted.get(table_id, 0)
                self._unacked[table_id] = [r for r in reports if r["hand_no"] > last]

    def unacknowledged(self, table_id: str) -> list[dict[str, Any]]:
        """The table's reports on the bus no stored state has counted yet."""
        return list(self._unacked.get(table_id, []))

    def resend(self, table_id: str) -> None:
        """A director just taken over asks the table for its seats: first, its reports
        that no stored state counted (sent while no node directed), in order. Counted
        already, one counts nothing: each carries its hand number."""
        tournament_id = self._of_table.get(table_id)
        if self.link is None or tournament_id is None:
            return
        for body in self._unacked.get(table_id, []):
            self.link.report(tournament_id, body)

    # -- a cluster's tables -------------------------------------------------------------

    def table_loaded(self, runtime: TableRuntime) -> None:
        """A tournament's table loaded by this process (a restart, a takeover; before it
        starts): it waits, paused, until its director has reconciled it (a move or a bust
        it missed while it had no owner would otherwise be dealt with stale seats)."""
        tournament_id = runtime.options.tournament_id
        if tournament_id is None:
            return
        runtime.options = runtime.options.model_copy(update={"host_paused": True})
        runtime.tournament = self
        self._of_table[runtime.table_id] = tournament_id
        seats = Seats.of(runtime)
        loop = asyncio.get_running_loop()
        loop.call_soon(self._seats, tournament_id, runtime.table_id, seats)

    def opened(self, runtime: TableRuntime) -> None:
        """A new table this node opened for another node's director (placed here): its
        hands are reported on the bus; the director seats its players by orders."""
        tournament_id = runtime.options.tournament_id
        if tournament_id is not None:
            runtime.tournament = self
            self._of_table[runtime.table_id] = tournament_id

    def adopt(self, runtime: TableRuntime) -> None:
        """A tournament's table loaded (and started) before the service was linked."""
        tournament_id = runtime.options.tournament_id
        if tournament_id is not None and runtime.tournament is None:
            runtime.tournament = self
            self._of_table[runtime.table_id] = tournament_id
            self._spawn(self.seats_when_idle(runtime.table_id))

    async def seats_when_idle(self, table_id: str) -> None:
        """A director asks for the table's seats: sent once no hand is in progress."""
        runtime = self._tables.get(table_id)
        tournament_id = self._of_table.get(table_id)
        if runtime is None or tournament_id is None:
            return
        while (hand := runtime.table.hand) is not None and not hand.is_over:
            await asyncio.sleep(IDLE_CHECK)  # a period: the hand ends when its players act
            if self._tables.get(table_id) is not runtime:
                return  # moved to another node meanwhile: it reports from there
        self._seats(tournament_id, table_id, Seats.of(runtime))

    def _seats(self, tournament_id: str, table_id: str, seats: Seats) -> None:
        director = self._directors.get(tournament_id)
        if director is not None:
            was = director.state.status
            orders = self._reconcile_table(director, table_id, seats)
            self._dispatch(tournament_id, orders)
            if was is Status.RUNNING:
                self._if_finished(director)
        elif self.link is not None:
            self.link.report(tournament_id, {"kind": "seats", "table": table_id, **seats.doc()})

    def reported(self, tournament_id: str, body: dict[str, Any]) -> None:
        """A table on another node reported to the director run here (in order)."""
        director = self._directors.get(tournament_id)
        table_id = str(body["table"])
        if director is None:
            return
        kind = body.get("kind")
        button = int_or_none(body.get("button"))
        if kind == "seats":
            self._seats(tournament_id, table_id, Seats.from_doc(body))
        elif kind == "started":
            director.hand_started(table_id, int_or_none(body.get("hand_no")))
            self._save(tournament_id)
        elif kind == "finished":
            self._finished(
                director,
                table_id,
                button,
                chips(body["stacks"]),
                chips(body["starting"]),
                int_or_none(body.get("hand_no")),
            )

    async def serve_request(self, tournament_id: str, body: dict[str, Any]) -> dict[str, Any]:
        """A player's request another node forwarded to this director's node."""
        op, player_id = str(body.get("op")), str(body.get("player_id"))
        try:
            if op == "register":
                director = await self.register(tournament_id, player_id, str(body.get("name")))
            elif op == "unregister":
                director = await self.unregister(tournament_id, player_id)
            elif op == "start":
                director = await self.start_now(tournament_id)
            elif op == "rebuy":
                director = await self.rebuy(tournament_id, player_id)
            elif op == "add_on":
                director = await self.add_on(tournament_id, player_id)
            else:
                return {"error": f"unknown request {op!r}", "kind": "bad"}
        except TournamentError as error:
            return {"error": str(error), "kind": "refused"}
        except KeyError:
            return {"error": f"no tournament {tournament_id!r}", "kind": "missing"}
        return {"state": director.state.model_dump(mode="json")}

    async def _forwarded(
        self, tournament_id: str, op: str, player_id: str, name: str = ""
    ) -> Director:
        """A request for a director another node runs, carried out there."""
        assert self.link is not None
        body = {"op": op, "player_id": player_id, "name": name}
        reply = await self.link.forward(tournament_id, body)
        if "state" in reply:
            state = State.model_validate(reply["state"])
            self.replicate(state)
            return self._replicas.get(state.tournament_id) or Director(state)
        if reply.get("kind") == "missing":
            raise KeyError(tournament_id)
        raise TournamentError(str(reply.get("error")))

    def _remote(self, tournament_id: str) -> bool:
        return self.link is not None and tournament_id not in self._directors

    def start_clock(self) -> None:
        self._task = asyncio.create_task(self._ticking(), name="tournament-clock")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await asyncio.gather(*self._saves.values(), *self._background, return_exceptions=True)
        if self.link is not None:
            await self.link.close()  # the leases released: another node directs at once

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
        if self.link is not None:
            token = await self.link.claim(tid)
            if token is None:
                raise RuntimeError(f"tournament {tid}: another node holds a new lease")
            self._fence[tid] = token
        self._directors[tid] = director
        await self._store_now(director)
        log.info("tournament created", extra={"tournament_id": tid, "by": created_by})
        if director.full:
            await self._start(director)
        return director

    def now(self) -> float:
        return self.clock.now()

    async def results_of(self, player_id: str) -> list[Document]:
        return await self._store.results_of(player_id)

    def get(self, tournament_id: str) -> Director | None:
        """Run here, or (on a cluster) another node's, as it last stored it."""
        return self._directors.get(tournament_id) or self._replicas.get(tournament_id)

    def all(self) -> list[Director]:
        replicas = [d for tid, d in self._replicas.items() if tid not in self._directors]
        return [*self._directors.values(), *replicas]

    async def _store_now(self, director: Director) -> None:
        """The state written now (fenced on a cluster: StaleOwner drops the director)."""
        tid = director.state.tournament_id
        counted = dict(director.state.counted)  # as stored (the state changes meanwhile)
        try:
            await self._store.save(director.state, self._fence.get(tid))
        except StaleOwner as error:
            self.drop(tid)
            raise NotDirector(
                "the tournament's director moved to another node: try again"
            ) from error
        if self.link is not None:
            self.acknowledged(tid, counted)
            self.link.publish(director.state, counted)

    async def register(self, tournament_id: str, player_id: str, name: str) -> Director:
        if self._remote(tournament_id):
            return await self._forwarded(tournament_id, "register", player_id, name)
        director = self._need(tournament_id)
        if director.state.status is Status.RUNNING:  # late registration
            orders = director.late_register(player_id, name, self.clock.now())
            await self._open(director, orders)
            await self._store_now(director)
            self._dispatch(tournament_id, [o for o in orders if o.kind is not OrderKind.OPEN])
            return director
        director.register(player_id, name)
        await self._store_now(director)
        if director.full:
            await self._start(director)
        return director

    async def rebuy(self, tournament_id: str, player_id: str) -> Director:
        if self._remote(tournament_id):
            return await self._forwarded(tournament_id, "rebuy", player_id)
        director = self._need(tournament_id)
        await self._buy(director, director.rebuy(player_id, self.clock.now()))
        return director

    async def add_on(self, tournament_id: str, player_id: str) -> Director:
        if self._remote(tournament_id):
            return await self._forwarded(tournament_id, "add_on", player_id)
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
        await self._store_now(director)

    async def unregister(self, tournament_id: str, player_id: str) -> Director:
        if self._remote(tournament_id):
            return await self._forwarded(tournament_id, "unregister", player_id)
        director = self._need(tournament_id)
        director.unregister(player_id)
        await self._store_now(director)
        return director

    async def start_now(self, tournament_id: str) -> Director:
        """Bots fill the seats nobody took, and it starts. With late registration the
        seats stay open for it: bots only make up the two players a start needs."""
        if self._remote(tournament_id):
            return await self._forwarded(tournament_id, "start", "")
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
        await self._store_now(director)
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
                config = table_config(spec.seats_per_table, order.level)
                name = f"{spec.name} #{number}"[:40]
                if self.link is not None and await self.link.open_table(
                    order.table_id, config, name, tid
                ):
                    continue  # on the least loaded node: orders and reports on the bus
                await self._tables.open_tournament_table(order.table_id, config, name, tid)
                self._attach(tid, order.table_id)

    def _attach(self, tournament_id: str, table_id: str) -> None:
        runtime = self._tables.get(table_id)
        if runtime is not None:
            runtime.tournament = self
            self._of_table[table_id] = tournament_id

    # -- the tables' events (called from the table's own task) ---------------------------

    def hand_started(self, table_id: str, hand_no: int | None = None) -> None:
        director = self._of(table_id)
        if director is not None:
            director.hand_started(table_id, hand_no)
            self._save(director.state.tournament_id)
        else:
            self._report(table_id, {"kind": "started", "hand_no": hand_no})

    def hand_finished(
        self,
        table_id: str,
        button: int | None,
        stacks: dict[str, int],
        starting: dict[str, int],
        hand_no: int | None = None,
    ) -> None:
        director = self._of(table_id)
        if director is None:
            body = {
                "kind": "finished",
                "button": button,
                "stacks": stacks,
                "starting": starting,
                "hand_no": hand_no,
            }
            self._report(table_id, body)
            return
        self._finished(director, table_id, button, stacks, starting, hand_no)

    def _report(self, table_id: str, body: dict[str, Any]) -> bool:
        """A table here whose director runs on another node: the report goes over the bus."""
        tournament_id = self._of_table.get(table_id)
        if self.link is None or tournament_id is None:
            return False
        report = {**body, "table": table_id}
        if isinstance(report.get("hand_no"), int):  # kept until a stored state counts it
            self._unacked.setdefault(table_id, []).append(report)
        self.link.report(tournament_id, report)
        return True

    def _finished(
        self,
        director: Director,
        table_id: str,
        button: int | None,
        stacks: dict[str, int],
        starting: dict[str, int],
        hand_no: int | None = None,
    ) -> None:
        if self.link is not None:
            # Only the players the director seats there: a stale copy of a moved player
            # (a table restored on another node before its reconcile) counts for nothing.
            entrants = director.state.entrants
            stacks = {
                p: c
                for p, c in stacks.items()
                if p in entrants and entrants[p].table_id == table_id
            }
        was = director.state.status
        now = self.clock.now()
        orders = director.hand_finished(table_id, now, button, stacks, starting, hand_no)
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
        director = self._of(table_id) or self._replica_of(table_id)
        return view_of(director, self.clock.now()) if director is not None else None

    def situation(self, table_id: str, at_table: set[str]) -> TournamentSituation | None:
        """For the AI at a tournament's table (ICM): the prizes still to be paid and the
        chips of everyone still in at the other tables (`at_table`: the players seated at
        this one, whose stacks the view has). Public: the tournament page shows them all.
        None at a cash table, before the start or after the end, and in a freeroll."""
        director = self._of(table_id) or self._replica_of(table_id)
        if director is None or director.state.status is not Status.RUNNING:
            return None
        stacks, prizes, _ = director.situation()
        if not any(prizes):  # nothing to win but chips: the AI plays them as chips
            return None
        return TournamentSituation.of(stacks, prizes, at_table)

    def _of(self, table_id: str) -> Director | None:
        tid = self._of_table.get(table_id)
        return self._directors.get(tid) if tid is not None else None

    def _replica_of(self, table_id: str) -> Director | None:
        tid = self._of_table.get(table_id)
        return self._replicas.get(tid) if tid is not None else None

    def _dispatch(self, tournament_id: str, orders: list[Order]) -> None:
        by_table: dict[str, list[Order]] = defaultdict(list)
        for order in orders:
            by_table[order.table_id].append(order)
        for table_id, its in by_table.items():
            runtime = self._tables.get(table_id)
            if runtime is not None:
                runtime.post(Orders(tuple(its)))
            elif self.link is not None:  # another node's table (its owner, on the bus)
                self.link.send(table_id, its)
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
                director = self._directors.get(tournament_id)
                if director is None:
                    break  # dropped: another node directs it now
                await self._store_now(director)
        except NotDirector:
            log.warning("tournament write refused: not its director", extra={"id": tournament_id})
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
