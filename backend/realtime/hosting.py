"""The host's controls: only the table's host may give them (anyone else: not_host, and
nothing changes); each is an event everyone sees. The role passes on by itself when the
host leaves (no seat and no connection)."""

from __future__ import annotations

import logging

from backend.bot_names import bot_name
from backend.db.codec import config_to_doc
from backend.realtime import host_commands
from backend.realtime.core import RuntimeCore
from backend.realtime.inbox import Client, CommandError
from holdem.config import TableConfig
from protocol.messages import (
    ActedBy,
    AddBotCommand,
    AdjustCommand,
    ApproveCommand,
    BombPotCommand,
    BotStyleCommand,
    Change,
    ChangeKind,
    ErrorCode,
    HandOverCommand,
    HostCommand,
    HostState,
    PauseCommand,
    RejectCommand,
    RemoveCommand,
    ResumeCommand,
    SeatRequest,
    SitCommand,
    TableSettingsCommand,
)

log = logging.getLogger(__name__)


class Hosting(RuntimeCore):
    @property
    def host_paused(self) -> bool:
        return self.options.host_paused

    def _host_state(self) -> HostState:
        return HostState(
            host_id=self.host_id,
            paused=self.options.host_paused,
            approve_seats=self.options.approve_seats,
            seat_requests=list(self._seat_requests.values()),
        )

    def _set_options(self, **changes: object) -> None:
        self.options = self.options.model_copy(update=changes)
        self._spawn(self._repos.tables.set_options(self.table_id, self.options.model_dump()))

    # -- seat requests ---------------------------------------------------------------

    def _needs_approval(self, player_id: str) -> bool:
        return self.options.approve_seats and player_id != self.host_id

    def _request_seat(self, client: Client, message: SitCommand) -> None:
        """The seat is asked for, not taken: checked by the rules now, taken on approval."""
        self.table.verify_sit(message.seat, client.player_id, message.buy_in)
        request = SeatRequest(
            player_id=client.player_id, name=client.name, seat=message.seat, buy_in=message.buy_in
        )
        self._seat_requests[client.player_id] = request
        self._store_access()
        self._changed(
            Change(
                kind=ChangeKind.SEAT_REQUEST,
                seat=message.seat,
                player_id=client.player_id,
                amount=message.buy_in,
            ),
            False,
        )

    def _request_withdrawn(self, player_id: str) -> None:
        """Who asked for a seat and left is not seated on approval: the request goes."""
        request = self._seat_requests.pop(player_id, None)
        if request is None:
            return
        self._store_access()
        change = Change(
            kind=ChangeKind.SEAT_REJECTED,
            seat=request.seat,
            player_id=player_id,
            by=ActedBy.TABLE,
            note="left the table",
        )
        self._changed(change, False)

    # -- the commands -------------------------------------------------------------------

    def _host_command(self, client: Client, message: HostCommand) -> None:
        host_commands.check_host(self.host_id, client.player_id, message.type)
        table = self.table
        if isinstance(message, PauseCommand | ResumeCommand):
            paused = self.options.host_paused
            if isinstance(message, PauseCommand):
                change = host_commands.pause(table, paused)
                self._cancel_timer("deal")
            else:
                change = host_commands.resume(table, paused)
            self._set_options(host_paused=isinstance(message, PauseCommand))
            self._changed(change, False)
        elif isinstance(message, RemoveCommand):
            seat = table.seats.get(message.seat)
            if seat is not None and seat.player_id == client.player_id:
                raise CommandError(ErrorCode.BAD_MESSAGE, "to leave your own seat, stand up")
            self._apply(host_commands.remove(table, message.seat))
        elif isinstance(message, AdjustCommand):
            self._apply(host_commands.adjust(table, message.seat, message.amount))
        elif isinstance(message, AddBotCommand):
            name = bot_name(message.style, (s.name for s in table.seats.values()))
            self._apply(host_commands.add_bot(table, message.seat, message.style, name))
        elif isinstance(message, BotStyleCommand):
            self._apply(host_commands.bot_style(table, message.seat, message.style))
        elif isinstance(message, TableSettingsCommand):
            self._settings_command(message)
        elif isinstance(message, ApproveCommand):
            outcome = host_commands.approve(table, self._seat_requests, message.player_id)
            del self._seat_requests[message.player_id]
            self._store_access()
            self._banks.forget(message.player_id)
            self._apply(outcome)
        elif isinstance(message, RejectCommand):
            change = host_commands.reject(self._seat_requests, message.player_id)
            del self._seat_requests[message.player_id]
            self._store_access()
            self._changed(change, False)
        elif isinstance(message, BombPotCommand):
            self._call_bomb_pot()
        elif isinstance(message, HandOverCommand):
            change = host_commands.hand_over(
                table, client.player_id, message.player_id, self._clients
            )
            self._pass_host(change)

    def _settings_command(self, message: TableSettingsCommand) -> None:
        old = self._next_config or self.table.config
        config = host_commands.new_config(old, message)
        host_commands.refuse_with_bots(self.table, config)
        note = host_commands.settings_note(old, config, message)
        if not note:
            raise CommandError(ErrorCode.BAD_MESSAGE, "nothing to change")
        if config is not old:
            self._next_config = config
        options: dict[str, object] = {}
        if message.time_bank is not None:
            options["time_bank"] = message.time_bank
        if message.advice_allowed is not None:
            options["advice_allowed"] = message.advice_allowed
        if message.approve_seats is not None:
            options["approve_seats"] = message.approve_seats
        self._next_options.update(options)
        if message.approve_seats is False:
            self._seat_requests.clear()  # asked under the old rule: sit now, freely
            self._store_access()
        self._apply_next_settings()
        change = Change(
            kind=ChangeKind.SETTINGS, by=ActedBy.HOST, note=note + " from the next hand"
        )
        self._changed(change, False)

    def _apply_next_settings(self) -> None:
        """The host's new stakes and settings, once no hand is in progress."""
        hand = self.table.hand
        if hand is not None and not hand.is_over:
            return
        if self._next_config is not None:
            config: TableConfig = self._next_config
            self.table.config = config
            self._next_config = None
            self._spawn(self._repos.tables.set_config(self.table_id, config_to_doc(config)))
        if self._next_options:
            options, self._next_options = self._next_options, {}
            self._set_options(**options)
            self._banks.initial = self.options.time_bank

    # -- the role -----------------------------------------------------------------------

    def _pass_host(self, change: Change) -> None:
        """The role moves as `change` (a host_commands.host_change) says."""
        assert change.player_id is not None
        self._set_options(host=change.player_id)
        log.info("host changed", extra={"host": change.player_id, "by": change.by.value})
        self._changed(change, False)

    def _host_gone(self, player_id: str) -> None:
        """The host has no seat and no connection: a seated player (connected first) takes
        the role, else one watching; with nobody else here it stays."""
        if player_id != self.host_id:
            return
        if player_id in self._clients or self.table.find_seat(player_id) is not None:
            return
        humans = [s for s in sorted(self.table.seats.values(), key=lambda s: s.number)]
        seated = [s.player_id for s in humans if not s.is_bot and s.player_id != player_id]
        connected = [p for p in seated if p in self._clients]
        watching = [p for p in self._clients if p != player_id]
        for candidates in (connected, seated, watching):
            if candidates:
                self._pass_host(host_commands.host_change(self.table, candidates[0], ActedBy.TABLE))
                return
