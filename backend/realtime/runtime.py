"""One table in real time: its own asyncio task owning a holdem Table.

Everything that touches the table (client commands, timers, AI answers,
connects and disconnects) arrives in the task's inbox and is handled one item
at a time, synchronously: the table is never seen half-changed and nothing
here waits on the network or the database (sends go to bounded per-client
queues, writes to the table's Persister, AI queries to their own tasks).

After every change each client gets a StateMessage with its own view from
`holdem.views.observe` and the next sequence number.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
from collections import deque
from collections.abc import Coroutine
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from backend.ai_gateway import AIGateway, Decision
from backend.db.codec import snapshot_to_doc
from backend.db.repositories import Repositories
from backend.fallback_policy import fallback_action
from backend.logging import log_context
from backend.names import normalise_chat
from backend.quotas import Quota
from backend.realtime.outbox import Outbox
from backend.realtime.persister import Persister
from backend.realtime.timers import Clock, TimeBanks, Turn, now_ms
from backend.schemas import TableDetail, TableOptions, TableSummary
from backend.settings import Settings
from holdem.actions import Action
from holdem.errors import RuleError
from holdem.protocol import (
    ActCommand,
    ActedBy,
    AdviceMessage,
    AdviceRequest,
    AIDecideCommand,
    AuthMessage,
    Change,
    ChangeKind,
    ChatCommand,
    ChatMessage,
    ClientCommand,
    CloseCode,
    ErrorCode,
    ErrorMessage,
    Limits,
    NoticeMessage,
    PingMessage,
    PongMessage,
    QueryPurpose,
    RebuyCommand,
    ShowCommand,
    ShowUncalledCommand,
    SitBackCommand,
    SitCommand,
    SitOutCommand,
    StandCommand,
    StateMessage,
    StatsMessage,
    SyncRequest,
    WelcomeMessage,
)
from holdem.table import Cashout, Seat, Table
from holdem.views import TableView, as_seen_by, observe

log = logging.getLogger(__name__)

# A durable write not confirmed within this many seconds pauses the table, visibly.
PAUSE_NOTICE_AFTER = 0.5
# Chat messages a table keeps (in memory only) for those who join later.
CHAT_HISTORY = 50
CHAT_MAX = 500  # characters of one chat message (the protocol's bound)


@dataclass(eq=False)
class Client:
    """One WebSocket of one signed-in player (seated or watching)."""

    player_id: str
    name: str
    outbox: Outbox


# -- inbox items -------------------------------------------------------------------


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
    key: Turn | str | None = None


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


class _Stop:
    pass


InboxItem = Join | Leave | Command | TimerFired | AIDone | StatsCounted | _Stop


class CommandError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class TableRuntime:
    def __init__(
        self,
        table: Table,
        options: TableOptions,
        *,
        settings: Settings,
        repos: Repositories,
        gateway: AIGateway,
        seq: int,
        advice_budget: Quota | None = None,
    ) -> None:
        self.table = table
        self.options = options
        self.seq = seq
        self._settings = settings
        self._gateway = gateway
        self._persist = Persister(table.table_id, repos)
        self._banks = TimeBanks(options.time_bank, settings.time_bank_refill)
        self._inbox: asyncio.Queue[InboxItem] = asyncio.Queue()
        self._clients: dict[str, Client] = {}
        self._clock: Clock | None = None
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._ai_tasks: set[asyncio.Task[None]] = set()
        self._ai_pending: dict[tuple[str, QueryPurpose], Turn] = {}
        # Each player's last advice and its decision: asked again, it is sent again
        # rather than searched again (one search per decision).
        self._advised: dict[str, AIDone] = {}
        self._advice_budget = advice_budget
        self._ai_asked = False  # an AI worker was asked here: it is sent every finished hand
        self._recorded_hand_no = table.hand_no  # hands up to this one are filed
        self._events_persisted = 0
        self._cashouts_seen = len(table.cashouts)
        self._task: asyncio.Task[None] | None = None
        self._unpublished: list[tuple[Change, float]] = []
        self._deferred: deque[InboxItem] = deque()  # inbox items that waited out a pause
        self.paused = False  # the database has not confirmed this table's writes for a while
        # The spectator view, rendered once per change: every seat's view, the bots'
        # queries and each cause published for that change start from it.
        self._changes = 0
        self._public: tuple[int, TableView] | None = None
        self.messages_sent = 0
        self.hands_played = 0
        self._chat: deque[ChatMessage] = deque(maxlen=CHAT_HISTORY)
        self._show_uncalled: set[str] = set()  # players who show whenever they win uncalled
        self._rebuys_for_hand = -1  # bots rebuy after the result was shown for this long
        self._rebuy_failed: set[str] = set()  # bots whose rebuy the rules refused

    @property
    def table_id(self) -> str:
        return self.table.table_id

    @property
    def persister(self) -> Persister:
        return self._persist

    @property
    def connections(self) -> int:
        return len(self._clients)

    def start(self, cause: Change | None = None) -> None:
        self._task = asyncio.create_task(self._run(cause), name=f"table-{self.table_id}")

    def post(self, item: InboxItem) -> None:
        self._inbox.put_nowait(item)

    async def stop(self) -> None:
        if self._task is not None:
            self.post(_Stop())
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
        )

    def detail(self) -> TableDetail:
        return TableDetail(**self.summary().model_dump(), view=observe(self.table, None))

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
                if isinstance(item, _Stop):
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
                    if storing and not await self._await_storage():
                        return
                    for client, text in held:
                        if self._clients.get(client.player_id) is client:
                            self._send(client, text)
                # Let the send tasks run between items, so a burst of inbox items
                # cannot overflow the clients' queues all by itself (with none waiting,
                # the next get() yields anyway).
                if not self._inbox.empty():
                    await asyncio.sleep(0)

    async def _await_storage(self) -> bool:
        """Wait until the table's durable writes are stored; False if the table is stopping.

        Stored within PAUSE_NOTICE_AFTER, nobody notices. Else the table is paused
        and everyone is told why: until the database confirms, nothing is dealt or
        shown; pings are answered and every other inbox item waits its turn.
        """
        durable = self._persist.unconfirmed()
        if durable is None:
            return True
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(PAUSE_NOTICE_AFTER):
                await asyncio.shield(durable)
        if durable.done():
            return True
        self.paused = True
        log.warning("table paused: the database does not confirm its writes")
        self._notify(paused=True)
        stopping = False
        while not durable.done() and not stopping:
            getter = asyncio.ensure_future(self._inbox.get())
            waits: set[asyncio.Future[Any]] = {durable, getter}
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            if not getter.done():
                getter.cancel()
                continue
            item = getter.result()
            if isinstance(item, _Stop):
                stopping = True
            elif isinstance(item, Command) and isinstance(item.message, PingMessage):
                self._handle(item)
            else:
                self._deferred.append(item)  # handled in order once the write is stored
        if stopping:
            return False
        self.paused = False
        log.info("table resumed: the database confirmed its writes")
        self._notify(paused=False)
        return True

    def _notify(self, *, paused: bool) -> None:
        notice = NoticeMessage(
            paused=paused,
            reason="database" if paused else None,
            message=(
                "The database is not confirming writes: the table waits until it does."
                if paused
                else "The database is back: play goes on."
            ),
            at=now_ms(),
        ).model_dump_json()
        for client in list(self._clients.values()):
            self._send(client, notice)

    def _stats_counted(self, counted: StatsCounted) -> None:
        text = StatsMessage(
            hand_no=counted.hand_no, player_ids=list(counted.player_ids), at=now_ms()
        ).model_dump_json()
        for client in list(self._clients.values()):
            self._send(client, text)

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

    # -- clients ---------------------------------------------------------------------

    def _join(self, client: Client, last_seq: int | None) -> None:
        old = self._clients.get(client.player_id)
        if old is not None:
            self._close_client(old, CloseCode.REPLACED, "replaced by a newer connection")
        self._clients[client.player_id] = client
        self._cancel_timer(f"grace:{client.player_id}")
        self._cancel_timer(f"away:{client.player_id}")
        seat = self.table.find_seat(client.player_id)
        settings = self._settings
        welcome = WelcomeMessage(
            table_id=self.table_id,
            player_id=client.player_id,
            name=client.name,
            seat=seat.number if seat else None,
            seq=self.seq,
            resync=last_seq is not None,
            missed=max(0, self.seq - last_seq) if last_seq is not None else None,
            limits=Limits(
                max_message_bytes=settings.max_message_bytes,
                messages_per_second=settings.messages_per_second,
                burst=settings.message_burst,
            ),
        )
        self._send(client, welcome.model_dump_json())
        self._send(client, self._state_text(seat.number if seat else None, None, now_ms()))
        for chat in self._chat:
            self._send(client, chat.model_copy(update={"history": True}).model_dump_json())
        log.info("client joined", extra={"player_id": client.player_id, "last_seq": last_seq})

    def _remove_client(self, client: Client) -> None:
        """The client is gone: a seated player keeps the seat for the grace period."""
        self._clients.pop(client.player_id, None)
        self._advised.pop(client.player_id, None)
        self._absent(client.player_id)
        log.info("client left", extra={"player_id": client.player_id})

    def _absent(self, player_id: str) -> None:
        """A seated player is not connected: playing, they keep the seat for the grace
        period; sitting out, for AWAY_STAND_UP, then the seat is freed (a seat nobody
        comes back to must not hold a place in the lobby for ever)."""
        seat = self.table.find_seat(player_id)
        if seat is None or seat.is_bot:
            return
        if not seat.sitting_out:
            grace = self._settings.disconnect_grace
            self._start_timer(f"grace:{player_id}", grace, TimerFired("grace", player_id))
        elif self._settings.away_stand_up > 0:
            away = self._settings.away_stand_up
            self._start_timer(f"away:{player_id}", away, TimerFired("away", player_id))

    def _close_client(self, client: Client, code: int, reason: str) -> None:
        self._clients.pop(client.player_id, None)
        self._spawn(client.outbox.close(code, reason))

    def _send(self, client: Client, text: str) -> None:
        if client.outbox.put(text):
            self.messages_sent += 1
            return
        if self._clients.get(client.player_id) is not client:
            return
        self._remove_client(client)
        if not client.outbox.closing:  # else the socket is already going away
            log.warning("dropping a client that cannot keep up", extra={"player": client.player_id})
            self._spawn(client.outbox.close(CloseCode.TRY_AGAIN, "too slow: reconnect"))

    def _error(self, client: Client, code: str, message: str, ref: str | None) -> None:
        self._send(client, ErrorMessage(code=code, message=message, ref=ref).model_dump_json())

    def _grace_for_absent_players(self) -> None:
        """After a restart nobody is connected: seated players get the grace period."""
        for seat in list(self.table.seats.values()):
            if seat.player_id not in self._clients:
                self._absent(seat.player_id)

    # -- commands ----------------------------------------------------------------------

    def _command(self, client: Client, message: ClientCommand) -> None:
        table, pid = self.table, client.player_id
        if isinstance(message, SitCommand):
            table.sit(message.seat, pid, client.name, message.buy_in)
            self._persist.ledger(pid, "buy_in", message.buy_in, message.seat)
            self._banks.forget(pid)
            self._changed(Change(kind=ChangeKind.SIT, seat=message.seat, player_id=pid), True)
        elif isinstance(message, StandCommand):
            number = table.seat_of(pid).number
            table.stand(pid)
            self._changed(Change(kind=ChangeKind.STAND, seat=number, player_id=pid), True)
        elif isinstance(message, SitOutCommand):
            table.sit_out(pid)
            self._changed(self._seat_change(ChangeKind.SIT_OUT, pid), True)
        elif isinstance(message, SitBackCommand):
            table.sit_back(pid)
            self._banks.reset_timeouts(pid)
            self._changed(self._seat_change(ChangeKind.SIT_BACK, pid), True)
        elif isinstance(message, RebuyCommand):
            seat = table.seat_of(pid)
            before = seat.stack
            table.rebuy(pid, message.amount)
            self._persist.ledger(pid, "rebuy", message.amount, seat.number)
            self._changed(self._rebuy_change(seat, message.amount, before, ActedBy.PLAYER), True)
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
        elif isinstance(message, AdviceRequest | AIDecideCommand):
            self._ai_request(client, message)
        elif isinstance(message, ChatCommand):
            try:  # the names' rule: no bidirectional overrides, controls or blank lines
                text = normalise_chat(message.text, CHAT_MAX)
            except ValueError as error:
                raise CommandError(ErrorCode.BAD_MESSAGE, f"text: {error}") from error
            chatter = table.find_seat(pid)
            said = ChatMessage(
                seq=self.seq,
                at=now_ms(),
                player_id=pid,
                name=client.name,
                seat=chatter.number if chatter else None,
                text=text,
            )
            self._chat.append(said)
            chat = said.model_dump_json()
            for other in list(self._clients.values()):
                self._send(other, chat)
        elif isinstance(message, SyncRequest):
            viewer = table.find_seat(pid)
            self._send(client, self._state_text(viewer.number if viewer else None, None, now_ms()))
        elif isinstance(message, PingMessage):
            self._send(client, PongMessage(ref=message.ref, at=now_ms()).model_dump_json())
        elif isinstance(message, AuthMessage):
            raise CommandError(ErrorCode.BAD_MESSAGE, "already signed in on this connection")

    def _rebuy_change(self, seat: Seat, amount: int, before: int, by: ActedBy) -> Change:
        """A rebuy or top-up as a table event: who, how much, and the stack it made."""
        return Change(
            kind=ChangeKind.REBUY,
            seat=seat.number,
            player_id=seat.player_id,
            by=by,
            amount=amount,
            stack=seat.stack,
            top_up=before >= self.table.config.big_blind,
        )

    def _seat_change(self, kind: ChangeKind, player_id: str) -> Change:
        return Change(kind=kind, seat=self.table.seat_of(player_id).number, player_id=player_id)

    def _own_seat(self, client: Client) -> Seat:
        seat = self.table.find_seat(client.player_id)
        if seat is None:
            raise CommandError(ErrorCode.NOT_SEATED, "you are not seated at this table")
        return seat

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

    def _ai_request(self, client: Client, message: AdviceRequest | AIDecideCommand) -> None:
        seat = self._own_seat(client)
        advice_only = isinstance(message, AdviceRequest)
        if advice_only and not self.options.advice_allowed:
            raise CommandError(ErrorCode.ADVICE_DISABLED, "this table does not allow advice")
        clock = self._clock
        if clock is None or clock.turn.seat != seat.number:
            what = "advice" if advice_only else "the AI"
            raise CommandError(
                ErrorCode.NOT_YOUR_TURN, f"it is not your turn: ask {what} when you are to act"
            )
        purpose = QueryPurpose.ADVICE if advice_only else QueryPurpose.AI_DECIDE
        if self._ai_pending.get((client.player_id, purpose)) == clock.turn:
            raise CommandError(ErrorCode.AI_BUSY, "the AI is already working on this decision")
        if advice_only:
            given = self._advised.get(client.player_id)
            if given is not None and given.turn == clock.turn:
                self._send_advice(replace(given, ref=message.ref), applied=False)
                return
            self._take_advice_budget(client.player_id)
        self._ask_ai(purpose, clock.turn, client.player_id, message.ref)

    def _take_advice_budget(self, player_id: str) -> None:
        budget = self._advice_budget
        if budget is None:
            return
        wait = budget.retry_after(player_id)
        if wait > 0:
            raise CommandError(
                ErrorCode.ADVICE_LIMITED,
                f"advice is limited to {budget.burst} at once and {budget.rate * 3600:g} "
                f"an hour: the next one in {max(1, math.ceil(wait))} s "
                "(asking again for the same decision is free)",
            )

    # -- the AI ------------------------------------------------------------------------

    def _ask_ai(self, purpose: QueryPurpose, turn: Turn, player_id: str, ref: str | None) -> None:
        hand = self.table.hand
        legal = hand.legal_actions() if hand is not None else None
        if legal is None or self._clock is None:
            return
        self._ai_asked = True
        view = self._view(turn.seat)
        seat = self.table.seats[turn.seat]
        loop = asyncio.get_running_loop()
        remaining = self._clock.started + self._clock.limit - loop.time()
        timeout = max(0.05, min(self._settings.ai_deadline_ms / 1000, remaining - 0.05))
        gateway = self._gateway
        if purpose is QueryPurpose.BOT:
            decision = gateway.decide_now(view, legal)
            if decision is not None:  # no worker: the fallback policy acts at once
                self._ai_done(AIDone(turn, purpose, player_id, ref, decision))
                return
        self._ai_pending[(player_id, purpose)] = turn

        async def ask() -> None:
            decision = await gateway.decide(
                purpose=purpose,
                view=view,
                legal=legal,
                style=seat.bot_style if seat.is_bot else None,
                time_limit=timeout,
            )
            self.post(AIDone(turn, purpose, player_id, ref, decision))

        self._spawn(ask())

    def _ai_done(self, done: AIDone) -> None:
        key = (done.player_id, done.purpose)
        if self._ai_pending.get(key) == done.turn:
            del self._ai_pending[key]
        decision = done.decision
        current = self._clock is not None and self._clock.turn == done.turn
        if done.purpose is QueryPurpose.ADVICE and decision.advice is not None:
            self._advised[done.player_id] = done
        if done.purpose is QueryPurpose.ADVICE or not current:
            self._send_advice(done, applied=False)
            return
        clock = self._clock
        assert clock is not None
        action = decision.action
        try:
            self.table.act(done.turn.seat, action)
        except RuleError as error:
            log.warning("AI action refused by the rules", extra={"error": error.message})
            action = self._fallback_for(done.turn.seat)
            self.table.act(done.turn.seat, action)
        by = ActedBy.BOT
        if done.purpose is QueryPurpose.AI_DECIDE:
            by = ActedBy.AI
            self._banks.spent(clock, asyncio.get_running_loop().time() - clock.started)
            self._send_advice(done, applied=True)
        self._changed(
            Change(
                kind=ChangeKind.ACT,
                seat=done.turn.seat,
                player_id=done.player_id,
                action=action,
                by=by,
                note=f"AI ({decision.source.value})" if by is ActedBy.AI else "",
            ),
            False,
        )

    def _fallback_for(self, seat: int) -> Action:
        hand = self.table.hand
        legal = hand.legal_actions() if hand is not None else None
        if legal is None:
            return self.table.default_action()
        return fallback_action(self._view(seat), legal)

    def _send_advice(self, done: AIDone, applied: bool) -> None:
        if not self.options.advice_allowed:
            return  # "Let AI decide" still plays, but no advice leaves the server
        client = self._clients.get(done.player_id)
        advice = done.decision.advice
        if client is None or advice is None:
            return
        message = AdviceMessage(
            ref=done.ref,
            hand_no=done.turn.hand_no,
            seat=done.turn.seat,
            advice=advice,
            source=done.decision.source,
            applied=applied,
        )
        self._send(client, message.model_dump_json())

    # -- timers ------------------------------------------------------------------------

    def _start_timer(self, name: str, delay: float, item: TimerFired) -> None:
        self._cancel_timer(name)
        self._timers[name] = asyncio.get_running_loop().call_later(delay, self.post, item)

    def _cancel_timer(self, name: str) -> None:
        handle = self._timers.pop(name, None)
        if handle is not None:
            handle.cancel()

    def _timer(self, fired: TimerFired) -> None:
        if fired.kind == "deal":
            self._timers.pop("deal", None)
            self._deal()
        elif fired.kind == "rebuy":
            self._timers.pop("rebuy", None)
            self._rebuy_bot()
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

    def _timeout(self, clock: Clock) -> None:
        table = self.table
        action = table.default_action()
        table.act(clock.turn.seat, action)
        note = "time ran out"
        seat = table.seats.get(clock.turn.seat)
        seats_changed = False
        if seat is not None and not seat.is_bot:
            count = self._banks.timed_out(clock)
            if count >= self._settings.max_timeouts and not (
                seat.sitting_out or seat.wants_to_sit_out
            ):
                table.sit_out(seat.player_id)
                note = f"time ran out {count} times in a row: sitting out"
                seats_changed = True
        log.info("decision timed out", extra={"seat": clock.turn.seat, "note": note})
        self._changed(
            Change(
                kind=ChangeKind.ACT,
                seat=clock.turn.seat,
                player_id=clock.player_id,
                action=action,
                by=ActedBy.TIMER,
                note=note,
            ),
            seats_changed,
        )

    def _grace_expired(self, player_id: str) -> None:
        seat = self.table.find_seat(player_id)
        if player_id in self._clients or seat is None or seat.sitting_out:
            return
        if seat.wants_to_sit_out:
            return
        self.table.sit_out(player_id)
        log.info("disconnected player sat out", extra={"player_id": player_id})
        if self._settings.away_stand_up > 0:
            away = self._settings.away_stand_up
            self._start_timer(f"away:{player_id}", away, TimerFired("away", player_id))
        self._changed(
            Change(
                kind=ChangeKind.SIT_OUT,
                seat=seat.number,
                player_id=player_id,
                by=ActedBy.TABLE,
                note="disconnected",
            ),
            True,
        )

    def _away_expired(self, player_id: str) -> None:
        """Sitting out and gone for AWAY_STAND_UP: the seat is freed, its chips cashed out."""
        seat = self.table.find_seat(player_id)
        if player_id in self._clients or seat is None:
            return
        if not (seat.sitting_out or seat.wants_to_sit_out):
            return
        number = seat.number
        self.table.stand(player_id)
        log.info("absent player stood up", extra={"player_id": player_id})
        self._changed(
            Change(
                kind=ChangeKind.STAND,
                seat=number,
                player_id=player_id,
                by=ActedBy.TABLE,
                note="away",
            ),
            True,
        )

    # -- hands -------------------------------------------------------------------------

    def _may_deal(self) -> bool:
        table = self.table
        if not table.can_start_hand():
            return False
        if self._settings.bots_play_alone:
            return True
        return any(
            not s.is_bot and s.stack > 0 and not s.sitting_out and not s.leaving
            for s in table.seats.values()
        )

    def _deal(self) -> None:
        if not self._may_deal():
            return
        table = self.table
        hand = table.start_hand()
        with log_context(hand_no=table.hand_no):
            log.info("hand started", extra={"button": hand.button, "seats": list(hand.seats)})
        players = {
            str(n): {"player_id": table.seats[n].player_id, "name": table.seats[n].name}
            for n in hand.seats
        }
        # The seats and stacks stored at the last hand's end (or seat change) stay as
        # they are: a restart voids this hand back to them, so only the live hand is
        # written. Its hand number is what recovery carries over.
        self._persist.start_hand(table.hand_no, hand.button, dict(hand.starting_stacks), players)
        self._events_persisted = 0
        self._changed(Change(kind=ChangeKind.HAND_START, by=ActedBy.TABLE), False)

    def _changed(self, cause: Change, seats_changed: bool) -> None:
        """After every change: book chips, queue writes, reschedule, tell everyone."""
        table = self.table
        cashouts = self._settle_cashouts()
        record = table.last_record
        hand = table.hand
        live = hand is not None and not hand.is_over
        if record is not None and record.hand_no > self._recorded_hand_no:
            self._recorded_hand_no = record.hand_no
            self.hands_played += 1
            self._banks.hand_played(seat.player_id for seat in record.seats)
            cashouts += self._settle_cashouts()
            if self._show_if_chosen():
                record = table.last_record
                assert record is not None
            with log_context(hand_no=record.hand_no):
                log.info("hand finished", extra={"net": record.net})
            if self._ai_asked or any(seat.is_bot for seat in record.seats):
                # The workers' bots and advisors at this table learn from its end.
                self._gateway.hand_ended(record)
            self._persist.save_state(
                snapshot_to_doc(table.snapshot()),
                self.seq + 1,
                record.model_copy(update={"played_at": datetime.now(UTC)}),
            )
        else:
            if live and hand is not None and len(hand.events) > self._events_persisted:
                self._persist.push_events(table.hand_no, hand.events[self._events_persisted :])
                self._events_persisted = len(hand.events)
            if seats_changed:
                self._persist.save_state(snapshot_to_doc(table.snapshot()), self.seq + 1)
        self._schedule()
        self._changes += 1
        at = now_ms()
        self._unpublished += [(change, at) for change in _with_cashouts(cause, cashouts)]

    def _settle_cashouts(self) -> list[Cashout]:
        cashouts = self.table.cashouts[self._cashouts_seen :]
        for cashout in cashouts:
            self._persist.ledger(cashout.player_id, "cashout", cashout.amount, cashout.seat)
            self._banks.forget(cashout.player_id)
            self._cancel_timer(f"grace:{cashout.player_id}")
            self._cancel_timer(f"away:{cashout.player_id}")
            log.info("cashout", extra={"player_id": cashout.player_id, "amount": cashout.amount})
        self._cashouts_seen = len(self.table.cashouts)
        return cashouts

    def _show_if_chosen(self) -> bool:
        """The uncalled winner shows at once if that is their standing choice."""
        for player_id in self._show_uncalled:
            with contextlib.suppress(RuleError):  # not the uncalled winner
                event = self.table.show_uncalled(player_id)
                log.info("cards shown uncalled", extra={"seat": event.seat})
                return True
        return False

    def _bots_to_rebuy(self) -> list[Seat]:
        """Bots short of a big blind between hands: they never leave broke."""
        hand = self.table.hand
        if hand is not None and not hand.is_over:
            return []
        return [
            seat
            for seat in self.table.seats.values()
            if seat.is_bot
            and seat.stack < self.table.config.big_blind
            and not seat.leaving
            and seat.player_id not in self._rebuy_failed
        ]

    def _rebuy_bot(self) -> None:
        """One bot buys in again up to the maximum, as its own table event.

        Not at the hand's end but once its result was on show (the "rebuy" timer),
        so the result's stacks stay those the hand left; one bot per event, so each
        state's stacks add up with the events before it.
        """
        self._rebuys_for_hand = self.table.hand_no
        bots = self._bots_to_rebuy()
        if not bots:  # gone meanwhile: on to the next deal
            self._schedule()
            return
        seat = bots[0]
        before, amount = seat.stack, self.table.config.max_buy_in - seat.stack
        try:
            self.table.rebuy(seat.player_id, amount)
            if seat.sitting_out:
                self.table.sit_back(seat.player_id)
        except RuleError as error:
            log.warning("bot rebuy failed", extra={"error": error.message})
            self._rebuy_failed.add(seat.player_id)
            self._schedule()
            return
        self._persist.ledger(seat.player_id, "rebuy", amount, seat.number)
        self._changed(self._rebuy_change(seat, amount, before, ActedBy.BOT), True)

    def _schedule(self) -> None:
        """Start the clock for a new decision, or plan the next hand."""
        hand = self.table.hand
        loop = asyncio.get_running_loop()
        if hand is not None and not hand.is_over and hand.actor is not None:
            turn = Turn(self.table.hand_no, len(hand.events), hand.actor)
            if self._clock is not None and self._clock.turn == turn:
                return
            self._cancel_timer("bot")
            seat = self.table.seats[turn.seat]
            timeout = self.options.action_timeout
            # The bank is thinking time: a disconnected player's seat gets none, or it
            # burnt the timer plus the whole bank on every decision until sat out.
            away = seat.player_id not in self._clients
            bank = 0.0 if seat.is_bot or away else self._banks.bank(seat.player_id)
            limit = timeout + bank
            self._clock = Clock(turn, seat.player_id, loop.time(), limit, timeout, bank)
            self._start_timer("turn", limit, TimerFired("turn", turn))
            if seat.is_bot:
                self._start_timer("bot", self._bot_delay(), TimerFired("bot", turn))
            return
        self._clock = None
        self._cancel_timer("turn")
        self._cancel_timer("bot")
        if self._bots_to_rebuy():
            if "rebuy" not in self._timers:
                # The first waits half the pause (the result is on show), the rest follow.
                first = self._rebuys_for_hand != self.table.hand_no
                delay = self._settings.hand_pause_ms / 2000 if first else 0.0
                self._start_timer("rebuy", delay, TimerFired("rebuy"))
            return
        if "deal" not in self._timers and self._may_deal():
            self._start_timer("deal", self._settings.hand_pause_ms / 1000, TimerFired("deal"))

    def _bot_delay(self) -> float:
        mean = self._settings.bot_delay_ms / 1000
        return random.uniform(0.5 * mean, 1.5 * mean) if mean > 0 else 0.0

    # -- broadcasting ------------------------------------------------------------------

    def _state_text(self, seat: int | None, cause: Change | None, at: float) -> str:
        return StateMessage(
            seq=self.seq,
            at=at,
            table_id=self.table_id,
            view=self._view(seat),
            clock=self._clock.view() if self._clock is not None else None,
            cause=cause,
        ).model_dump_json()

    def _view(self, seat: int | None) -> TableView:
        """The table as `seat` (None: a spectator) sees it now."""
        if self._public is None or self._public[0] != self._changes:
            self._public = (self._changes, observe(self.table, None))
        public = self._public[1]
        return public if seat is None else as_seen_by(public, self.table, seat)

    def _publish(
        self, cause: Change | None, at: float | None = None, *, hold_all: bool = False
    ) -> list[tuple[Client, str]]:
        """Every client gets its own view; viewers of the same seat share one rendering.

        Spectators are sent theirs at once (unless `hold_all`); the seated players'
        messages are returned for the caller to send once the change is stored.
        `at` is when the change happened, so clients can measure the whole delay.
        """
        self.seq += 1
        at = now_ms() if at is None else at
        texts: dict[int | None, str] = {}
        held: list[tuple[Client, str]] = []
        for client in list(self._clients.values()):
            seat = self.table.find_seat(client.player_id)
            number = seat.number if seat is not None else None
            text = texts.get(number)
            if text is None:
                text = texts[number] = self._state_text(number, cause, at)
            if not hold_all and (
                number is None and (cause is None or cause.player_id != client.player_id)
            ):
                self._send(client, text)
            else:
                held.append((client, text))
        return held

    # -- background tasks ---------------------------------------------------------------

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coro)
        self._ai_tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self._ai_tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task failed", exc_info=task.exception())


def _with_cashouts(cause: Change, cashouts: list[Cashout]) -> list[Change]:
    """The causes to publish: everyone sees the chips a player left with. A stand between
    hands carries them (`stack`); one during a hand gets its own stand, after the change
    that ended the hand."""
    changes = [cause]
    for cashout in cashouts:
        if cause.kind is ChangeKind.STAND and cause.player_id == cashout.player_id:
            changes[0] = cause.model_copy(update={"stack": cashout.amount})
            continue
        left = Change(
            kind=ChangeKind.STAND,
            seat=cashout.seat,
            player_id=cashout.player_id,
            by=ActedBy.TABLE,
            note="left at the hand's end",
            stack=cashout.amount,
        )
        changes.append(left)
    return changes


def _ref(message: ClientCommand) -> str | None:
    return getattr(message, "ref", None)
