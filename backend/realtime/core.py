"""The state one table's runtime shares among its parts, and the hooks between them.

TableRuntime (backend.realtime.runtime) is put together from parts with one job each:
clients (presence), publishing, the storage gate, AI turns, the hand cycle and the
commands. They share this state; each part's methods are declared here so that the
others can call them.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Coroutine
from typing import Any, Protocol

from backend.ai_gateway import AIGateway
from backend.db.codec import Document
from backend.db.repositories import Repositories
from backend.quotas import Quota
from backend.realtime.chat import ChatLog
from backend.realtime.inbox import AIDone, Client, InboxItem, TimerFired
from backend.realtime.persister import Persister
from backend.realtime.table_commands import LedgerLine, Outcome
from backend.realtime.timers import Clock, TimeBanks, Turn
from backend.schemas import TableOptions
from backend.settings import Settings
from holdem.config import TableConfig
from holdem.table import Table
from holdem.views import TableView
from protocol.messages import (
    Change,
    HostState,
    QueryPurpose,
    SeatRequest,
    TournamentSituation,
    TournamentView,
)

log = logging.getLogger(__name__)


class TournamentHook(Protocol):
    """The tournament director's ears at a tournament table (backend.tournament.service)."""

    def hand_started(self, table_id: str, hand_no: int | None = None) -> None: ...

    def hand_finished(
        self,
        table_id: str,
        button: int | None,
        stacks: dict[str, int],
        starting: dict[str, int],
        hand_no: int | None = None,
    ) -> None: ...

    def view(self, table_id: str) -> TournamentView | None: ...

    def situation(self, table_id: str, at_table: set[str]) -> TournamentSituation | None: ...


class RuntimeCore:
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
        self._repos = repos
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
        self._chat = ChatLog()
        self._show_uncalled: set[str] = set()  # players who show whenever they win uncalled
        self._rebuys_for_hand = -1  # bots rebuy after the result was shown for this long
        self._rebuy_failed: set[str] = set()  # bots whose rebuy the rules refused
        self._booked: list[Document] = []  # ledger entries booked since this start
        self._members: set[str] = set()  # admitted to a private table by its invite
        self._seat_requests: dict[str, SeatRequest] = {}  # waiting for the host's approval
        # The host's new stakes and settings, applied once no hand is in progress.
        self._next_config: TableConfig | None = None
        self._next_options: dict[str, object] = {}
        self.tournament: TournamentHook | None = None  # set for a tournament's table
        self._runout_deadline: float | None = None  # the run-it-twice vote's countdown end
        self.draining = False  # its node hands it over: no new hand is dealt here
        # A tournament table loaded from the store: its last finished hand's number and
        # its players' chips as it began (the table itself keeps no record of it).
        self.stored_last_hand: tuple[int, dict[str, int]] | None = None

    @property
    def table_id(self) -> str:
        return self.table.table_id

    @property
    def host_id(self) -> str | None:
        """Who runs the table: the creator, or whom the role was handed to."""
        return self.options.host or self.options.created_by

    def post(self, item: InboxItem) -> None:
        self._inbox.put_nowait(item)

    # -- timers ------------------------------------------------------------------------

    def _start_timer(self, name: str, delay: float, item: TimerFired) -> None:
        self._cancel_timer(name)
        self._timers[name] = asyncio.get_running_loop().call_later(delay, self.post, item)

    def _cancel_timer(self, name: str) -> None:
        handle = self._timers.pop(name, None)
        if handle is not None:
            handle.cancel()

    # -- background tasks ---------------------------------------------------------------

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coro)
        self._ai_tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self._ai_tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task failed", exc_info=task.exception())

    def _store_access(self) -> None:
        """Who the invite admitted and who waits for the host's approval, stored whole
        each time either changes, so a restart keeps both (TableRuntime.restore_access)."""
        access = {
            "members": sorted(self._members),
            "seat_requests": [r.model_dump(mode="json") for r in self._seat_requests.values()],
        }
        self._spawn(self._repos.tables.set_access(self.table_id, access))

    # -- hooks: each part implements its own ----------------------------------------------

    def _send(self, client: Client, text: str) -> None:  # presence
        raise NotImplementedError

    def _absent(self, player_id: str) -> None:  # presence
        raise NotImplementedError

    def _view(self, seat: int | None) -> TableView:  # publishing
        raise NotImplementedError

    def _state_text(self, seat: int | None, cause: Change | None, at: float) -> str:  # publishing
        raise NotImplementedError

    def _notify(self, *, paused: bool) -> None:  # publishing
        raise NotImplementedError

    def _host_state(self) -> HostState:  # hosting
        raise NotImplementedError

    def _request_withdrawn(self, player_id: str) -> None:  # hosting
        raise NotImplementedError

    def _host_gone(self, player_id: str) -> None:  # hosting
        raise NotImplementedError

    def _apply_next_settings(self) -> None:  # hosting
        raise NotImplementedError

    def _apply(self, outcome: Outcome) -> None:  # hand cycle
        raise NotImplementedError

    def _changed(self, cause: Change, seats_changed: bool) -> None:  # hand cycle
        raise NotImplementedError

    def _book(self, lines: list[LedgerLine]) -> None:  # hand cycle
        raise NotImplementedError

    def _schedule(self) -> None:  # hand cycle
        raise NotImplementedError

    def _schedule_runout_vote(self) -> bool:  # home games
        raise NotImplementedError

    def _call_bomb_pot(self) -> None:  # home games
        raise NotImplementedError

    def _ask_ai(  # AI turns
        self, purpose: QueryPurpose, turn: Turn, player_id: str, ref: str | None
    ) -> None:
        raise NotImplementedError

    def _ai_done(self, done: AIDone) -> None:  # AI turns
        raise NotImplementedError

    def _handle(self, item: InboxItem) -> None:  # runtime
        raise NotImplementedError
