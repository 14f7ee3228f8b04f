"""The host's controls: only the table's host may give them (anyone else: not_host, and
nothing changes); each is an event everyone sees. The role passes on by itself when the
host leaves (no seat and no connection)."""

from __future__ import annotations

import logging

from backend.bot_names import bot_name
from backend.db.codec import config_to_doc
from backend.realtime import host_commands, table_commands
from backend.realtime.core import RuntimeCore
from backend.realtime.inbox import Client, CommandError
from backend.realtime.table_commands import Outcome
from holdem.config import TableConfig
from holdem.errors import SeatError
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

# For the refusal: "only the table's host may ...".
_WHAT = {
    "pause": "pause the game",
    "resume": "resume the game",
    "remove": "remove a player or a bot",
    "adjust": "adjust a stack",
    "add_bot": "add a bot",
    "bot_style": "change a bot's style",
    "table_settings": "change the stakes and settings",
    "approve": "approve a seat request",
    "reject": "reject a seat request",
    "hand_over": "hand the host's role on",
    "bomb_pot": "call a bomb pot",
}


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
        if client.player_id != self.host_id:
            raise CommandError(
                ErrorCode.NOT_HOST, f"only the table's host may {_WHAT[message.type]}"
            )
        table = self.table
        if isinstance(message, PauseCommand | ResumeCommand):
            pause = isinstance(message, PauseCommand)
            if pause == self.options.host_paused:
                raise CommandError(
                    ErrorCode.BAD_MESSAGE, "the game is " + ("paused" if pause else "not paused")
                )
            self._set_options(host_paused=pause)
            if pause:
                self._cancel_timer("deal")
            hand = table.hand
            live = hand is not None and not hand.is_over
            note = "after this hand" if pause and live else ""
            kind = ChangeKind.PAUSE if pause else ChangeKind.RESUME
            self._changed(Change(kind=kind, by=ActedBy.HOST, note=note), False)
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
        elif isinstance(message, ApproveCommand | RejectCommand):
            request = self._seat_requests.get(message.player_id)
            if request is None:
                raise CommandError(ErrorCode.NO_SUCH_REQUEST, "that player asked for no seat")
            if isinstance(message, ApproveCommand):
                outcome = table_commands.sit(
                    table, request.player_id, request.name, request.seat, request.buy_in
                )
                del self._seat_requests[message.player_id]
                self._store_access()
                self._banks.forget(request.player_id)
                change = outcome.change.model_copy(update={"by": ActedBy.HOST, "note": "approved"})
                self._apply(Outcome(change, outcome.seats_changed, outcome.ledger))
            else:
                del self._seat_requests[message.player_id]
                self._store_access()
                self._changed(
                    Change(
                        kind=ChangeKind.SEAT_REJECTED,
                        seat=request.seat,
                        player_id=request.player_id,
                        by=ActedBy.HOST,
                    ),
                    False,
                )
        elif isinstance(message, BombPotCommand):
            self._call_bomb_pot()
        elif isinstance(message, HandOverCommand):
            target = message.player_id
            seat = table.find_seat(target)
            if target == client.player_id:
                raise CommandError(ErrorCode.BAD_MESSAGE, "you are the host already")
            if (seat is None or seat.is_bot) and target not in self._clients:
                raise SeatError("hand the role to a player at this table (seated or watching)")
            self._pass_host(target, ActedBy.HOST)

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

    def _pass_host(self, player_id: str, by: ActedBy) -> None:
        self._set_options(host=player_id)
        seat = self.table.find_seat(player_id)
        log.info("host changed", extra={"host": player_id, "by": by.value})
        self._changed(
            Change(
                kind=ChangeKind.HOST,
                seat=seat.number if seat is not None else None,
                player_id=player_id,
                by=by,
                note="the host left" if by is ActedBy.TABLE else "",
            ),
            False,
        )

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
                self._pass_host(candidates[0], ActedBy.TABLE)
                return
