"""One table in real time: its own asyncio task owning a holdem Table.

Everything that touches the table (client commands, timers, AI answers,
connects and disconnects) arrives in the task's inbox and is handled one item
at a time, synchronously: the table is never seen half-changed and nothing
here waits on the network or the database (sends go to bounded per-client
queues, writes to the table's Persister, AI queries to their own tasks).

After every change each client gets a StateMessage with its own view from
`holdem.views.observe` and the next sequence number.

This module is the actor loop and the orchestration of a command; each other job
has its own module: presence (clients), publishing, storage_gate, ai_turns,
hand_cycle, chat, and table_commands (the commands as functions of the table).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging

from backend.db.codec import Document
from backend.logging import log_context
from backend.realtime import table_commands
from backend.realtime.access import Access
from backend.realtime.ai_turns import AITurns
from backend.realtime.hand_cycle import HandCycle
from backend.realtime.home_games import HomeGames
from backend.realtime.hosting import Hosting
from backend.realtime.inbox import (
    AIDone,
    Client,
    Command,
    CommandError,
    InboxItem,
    Join,
    Leave,
    Orders,
    StatsCounted,
    Stop,
    TimerFired,
)
from backend.realtime.persister import Persister
from backend.realtime.presence import Presence
from backend.realtime.publishing import Publishing
from backend.realtime.storage_gate import StorageGate
from backend.realtime.timers import Turn, now_ms
from backend.realtime.tournament_orders import TournamentOrders
from backend.schemas import TableDetail, TableSummary
from holdem.errors import RuleError
from holdem.views import observe
from protocol.messages import (
    ActCommand,
    AdviceRequest,
    AIDecideCommand,
    AuthMessage,
    Change,
    ChangeKind,
    ChatCommand,
    ClientCommand,
    CloseCode,
    ErrorCode,
    HostCommand,
    PingMessage,
    PongMessage,
    QueryPurpose,
    RabbitHuntCommand,
    RebuyCommand,
    RunoutsCommand,
    ShowCommand,
    ShowUncalledCommand,
    SitBackCommand,
    SitCommand,
    SitOutCommand,
    StandCommand,
    StraddleCommand,
    SyncRequest,
)

# Re-exported: the endpoint, the manager and tests post these to a runtime.
__all__ = ["AIDone", "Client", "Command", "Join", "Leave", "StatsCounted", "TableRuntime"]

log = logging.getLogger(__name__)


class TableRuntime(
    TournamentOrders,
    Access,
    Hosting,
    HomeGames,
    Presence,
    Publishing,
    StorageGate,
    AITurns,
    HandCycle,
):
    @property
    def persister(self) -> Persister:
        return self._persist

    @property
    def connections(self) -> int:
        return len(self._clients)

    def start(self, cause: Change | None = None) -> None:
        self._task = asyncio.create_task(self._run(cause), name=f"table-{self.table_id}")

    async def stop(self) -> None:
        if self._task is not None:
            self.post(Stop())
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for handle in self._timers.values():
            handle.cancel()
        for task in list(self._ai_tasks):
            task.cancel()
        await asyncio.gather(*self._ai_tasks, return_exceptions=True)
        for client in list(self._clients.values()):
            await client.outbox.close(CloseCode.GOING_AWAY, "server shutting down")
        await self._persist.close()

    # -- REST views -------------------------------------------------------------

    def summary(self) -> TableSummary:
        config, seats = self.table.config, self.table.seats.values()
        hand = self.table.hand
        return TableSummary(
            table_id=self.table_id,
            name=self.options.name,
            variant=config.variant,
            small_blind=config.small_blind,
            big_blind=config.big_blind,
            ante=config.ante,
            seats=config.seats,
            seats_taken=len(self.table.seats),
            sitting_out=sum(1 for s in seats if s.sitting_out),
            bots=sum(1 for s in seats if s.is_bot),
            players=sum(1 for s in seats if not s.is_bot),
            min_buy_in=config.min_buy_in,
            max_buy_in=config.max_buy_in,
            action_timeout=self.options.action_timeout,
            time_bank=self.options.time_bank,
            advice_allowed=self.options.advice_allowed,
            hand_no=self.table.hand_no,
            hand_in_progress=hand is not None and not hand.is_over,
            private=self.options.private,
            host_id=self.host_id,
            paused=self.options.host_paused,
        )

    def detail(self, viewer: str | None = None) -> TableDetail:
        """As a spectator sees it; the host of a private table also gets the invite."""
        invite = self.options.invite if viewer is not None and viewer == self.host_id else None
        return TableDetail(
            **self.summary().model_dump(), view=observe(self.table, None), invite=invite
        )

    def ledger_sources(self) -> tuple[list[Document], dict[str, int], dict[str, str]]:
        """For the players' ledger: the entries booked since this start (some maybe not
        stored yet), each seat's chips (in a live hand: as dealt, what a crash returns),
        and the seated players' names."""
        hand = self.table.hand
        live = hand is not None and not hand.is_over
        on_table: dict[str, int] = {}
        names: dict[str, str] = {}
        for seat in self.table.seats.values():
            dealt = hand.starting_stacks.get(seat.number) if hand is not None and live else None
            on_table[seat.player_id] = seat.stack if dealt is None else dealt
            names[seat.player_id] = seat.name
        return list(self._booked), on_table, names

    # -- the loop ------------------------------------------------------------------

    async def _run(self, cause: Change | None) -> None:
        with log_context(table_id=self.table_id):
            self._grace_for_absent_players()
            self._schedule()
            if cause is not None:
                for client, text in self._publish(cause):
                    self._send(client, text)
            while True:
                item = self._deferred.popleft() if self._deferred else await self._inbox.get()
                if isinstance(item, Stop):
                    return
                # The last hand's stacks and record are stored before the next deal:
                # a crash from now on voids the new hand back to exactly those stacks.
                deal = isinstance(item, TimerFired) and item.kind == "deal"
                if deal and not await self._await_storage():
                    return
                try:
                    with log_context(hand_no=self.table.hand_no or None):
                        self._handle(item)
                except Exception:
                    log.exception("table runtime error", extra={"item": type(item).__name__})
                if self._unpublished:
                    causes, self._unpublished = self._unpublished, []
                    # A deal, a hand's end or a seat change is shown to no one before it
                    # is stored (a crash must not take back what players saw). A plain
                    # action is: spectators get it at once, a crash voids the hand anyway.
                    storing = self._persist.unconfirmed() is not None
                    held: list[tuple[Client, str]] = []
                    for cause, at in causes:
                        held += self._publish(cause, at, hold_all=storing)
                    # Sent in the step the write is confirmed, a turn of the busy loop
                    # before this task resumes; below if confirmed already, or paused
                    # meanwhile (the players hear it is over first).
                    if storing:
                        self._persist.on_stored(functools.partial(self._held_stored, held))
                    if storing and not await self._await_storage():
                        held.clear()  # stopping: what was never stored is never shown
                        return
                    self._send_held(held)
                # Let the send tasks run between items, so a burst of inbox items
                # cannot overflow the clients' queues all by itself (with none waiting,
                # the next get() yields anyway).
                if not self._inbox.empty():
                    await asyncio.sleep(0)

    def _held_stored(self, held: list[tuple[Client, str]]) -> None:
        if not self.paused:
            self._send_held(held)

    def _handle(self, item: InboxItem) -> None:
        if isinstance(item, Command):
            try:
                self._command(item.client, item.message)
            except RuleError as error:
                self._error(item.client, error.code, error.message, _ref(item.message))
            except CommandError as error:
                self._error(item.client, error.code, error.message, _ref(item.message))
        elif isinstance(item, Join):
            self._join(item.client, item.last_seq)
        elif isinstance(item, Leave):
            if self._clients.get(item.client.player_id) is item.client:
                self._remove_client(item.client)
        elif isinstance(item, TimerFired):
            self._timer(item)
        elif isinstance(item, AIDone):
            self._ai_done(item)
        elif isinstance(item, StatsCounted):
            self._stats_counted(item)
        elif isinstance(item, Orders):
            self._orders(item)

    def _timer(self, fired: TimerFired) -> None:
        if fired.kind == "deal":
            self._timers.pop("deal", None)
            self._deal()
        elif fired.kind == "rebuy":
            self._timers.pop("rebuy", None)
            self._rebuy_bot()
        elif fired.kind in ("runout", "runout_bots"):
            self._runout_timer(fired)
        elif fired.kind == "grace" and isinstance(fired.key, str):
            self._timers.pop(f"grace:{fired.key}", None)
            self._grace_expired(fired.key)
        elif fired.kind == "away" and isinstance(fired.key, str):
            self._timers.pop(f"away:{fired.key}", None)
            self._away_expired(fired.key)
        elif isinstance(fired.key, Turn) and self._clock and self._clock.turn == fired.key:
            if fired.kind == "turn":
                self._timeout(self._clock)
            elif fired.kind == "bot":
                self._ask_ai(QueryPurpose.BOT, fired.key, self._clock.player_id, None)

    # -- commands ----------------------------------------------------------------------

    def _command(self, client: Client, message: ClientCommand) -> None:
        table, pid = self.table, client.player_id
        if table.tournament and isinstance(message, SitCommand | StandCommand | RebuyCommand):
            # The director seats and moves a tournament's players; chips never leave.
            raise CommandError(
                ErrorCode.BAD_MESSAGE,
                "a tournament seats its players: no sitting down, standing up or adding chips",
            )
        if isinstance(message, HostCommand):
            self._host_command(client, message)
        elif isinstance(message, SitCommand) and self._needs_approval(pid):
            self._request_seat(client, message)
        elif isinstance(message, SitCommand):
            outcome = table_commands.sit(table, pid, client.name, message.seat, message.buy_in)
            self._banks.forget(pid)
            self._apply(outcome)
        elif isinstance(message, StandCommand):
            self._apply(table_commands.stand(table, pid))
        elif isinstance(message, SitOutCommand):
            self._apply(table_commands.sit_out(table, pid))
        elif isinstance(message, SitBackCommand):
            outcome = table_commands.sit_back(table, pid)
            self._banks.reset_timeouts(pid)
            self._apply(outcome)
        elif isinstance(message, RebuyCommand):
            self._apply(table_commands.rebuy(table, pid, message.amount))
        elif isinstance(message, ShowCommand):
            event = table.show_uncalled(pid)
            self._persist.file_show(table.hand_no, event)
            self._changed(Change(kind=ChangeKind.SHOW, seat=event.seat, player_id=pid), False)
        elif isinstance(message, ShowUncalledCommand):
            if message.enabled:
                self._show_uncalled.add(pid)
            else:
                self._show_uncalled.discard(pid)
        elif isinstance(message, ActCommand):
            self._act(client, message)
        elif isinstance(message, RunoutsCommand | RabbitHuntCommand | StraddleCommand):
            self._home_command(client, message)
        elif isinstance(message, AdviceRequest | AIDecideCommand):
            self._ai_request(client, message)
        elif isinstance(message, ChatCommand):
            chatter = table.find_seat(pid)
            number = chatter.number if chatter else None
            said = self._chat.say(self.seq, pid, client.name, number, message.text)
            self._broadcast(said.model_dump_json())
        elif isinstance(message, SyncRequest):
            viewer = table.find_seat(pid)
            self._send(client, self._state_text(viewer.number if viewer else None, None, now_ms()))
        elif isinstance(message, PingMessage):
            self._send(client, PongMessage(ref=message.ref, at=now_ms()).model_dump_json())
        elif isinstance(message, AuthMessage):
            raise CommandError(ErrorCode.BAD_MESSAGE, "already signed in on this connection")

    def _act(self, client: Client, message: ActCommand) -> None:
        seat = self._own_seat(client)
        if message.seat is not None and message.seat != seat.number:
            raise CommandError(
                ErrorCode.NOT_YOUR_SEAT,
                f"you sit in seat {seat.number}: you cannot act for seat {message.seat}",
            )
        current = self.table.hand_no
        if message.hand_no is not None and message.hand_no != current:
            when = "is over" if message.hand_no < current else "has not been dealt"
            raise CommandError(
                ErrorCode.STALE, f"hand {message.hand_no} {when} (this is hand {current})"
            )
        action = message.to_action()
        clock = self._clock
        self.table.act(seat.number, action)
        if clock is not None and clock.turn.seat == seat.number:
            self._banks.spent(clock, asyncio.get_running_loop().time() - clock.started)
        self._changed(
            Change(
                kind=ChangeKind.ACT, seat=seat.number, player_id=client.player_id, action=action
            ),
            False,
        )


def _ref(message: ClientCommand) -> str | None:
    return getattr(message, "ref", None)
