"""A tournament table carries out its director's orders: the host's table commands
(seat a player with their chips, remove one, the level's stakes, pause, resume), each
an event everyone at the table sees, as when a host gives them."""

from __future__ import annotations

import logging
from dataclasses import replace

from backend.realtime import host_commands
from backend.realtime.hosting import Hosting
from backend.realtime.inbox import CommandError, Orders
from backend.realtime.table_commands import Outcome
from backend.tournament.director import Order, OrderKind
from backend.tournament.tables import stakes_command
from holdem.errors import RuleError
from protocol.messages import ActedBy, Change, ChangeKind, ErrorCode

log = logging.getLogger(__name__)

TOURNAMENT_BOT_STYLE = "rational"  # the bots that fill a tournament's seats


class TournamentOrders(Hosting):
    # Chips bought (ADD) that reached the table during a hand: added at its end.
    _adds_after_hand: list[Order] | None = None

    def _orders(self, item: Orders) -> None:
        for order in item.orders:
            try:
                self._order(order)
            except (RuleError, CommandError) as error:
                # The director's view and the table's differ (a restart between the two
                # writes): logged; the director resyncs from the table.
                log.warning(
                    "tournament order refused",
                    extra={"order": order.kind.value, "error": str(error)},
                )

    def _order(self, order: Order) -> None:
        table = self.table
        if order.kind is OrderKind.SEAT:
            assert order.player_id is not None and order.seat is not None
            style = TOURNAMENT_BOT_STYLE if order.is_bot else None
            name = order.name or order.player_id
            outcome = host_commands.seat_player(
                table, order.seat, order.player_id, name, order.chips, style
            )
            self._apply(outcome)
        elif order.kind is OrderKind.REMOVE:
            seat = table.find_seat(order.player_id or "")
            if seat is not None:
                self._apply(host_commands.remove(table, seat.number))
        elif order.kind is OrderKind.ADD:
            hand = table.hand
            if hand is not None and not hand.is_over:
                self._adds_after_hand = [*(self._adds_after_hand or []), order]
            else:
                self._apply(self._add(order))
        elif order.kind is OrderKind.STAKES:
            assert order.level is not None
            command = stakes_command(order.level)
            old = self._next_config or self.table.config
            if host_commands.settings_note(old, host_commands.new_config(old, command), command):
                self._settings_command(command)  # (a reconcile on a cluster repeats them)
        elif order.kind in (OrderKind.PAUSE, OrderKind.RESUME, OrderKind.CLOSE):
            pause = order.kind is not OrderKind.RESUME
            if pause == self.options.host_paused:
                return
            self._set_options(host_paused=pause)
            if pause:
                self._cancel_timer("deal")
            note = {"pause": "the tournament waits", "close": "the tournament is over"}
            kind = ChangeKind.PAUSE if pause else ChangeKind.RESUME
            change = Change(kind=kind, by=ActedBy.HOST, note=note.get(order.kind.value, ""))
            self._changed(change, False)

    def _add(self, order: Order) -> Outcome:
        """A rebuy or add-on: the host's stack adjustment, booked in the ledger."""
        seat = self.table.find_seat(order.player_id or "")
        if seat is None:
            raise CommandError(ErrorCode.BAD_MESSAGE, "chips bought: the player is not seated")
        outcome = host_commands.adjust(self.table, seat.number, order.chips)
        change = outcome.change.model_copy(update={"note": "tournament rebuy or add-on"})
        return replace(outcome, change=change)

    def _chips_after_hand(self) -> list[Change]:
        """At a hand's end, before the director hears of it: the chips bought during it
        (so the stacks it is told include them)."""
        adds, self._adds_after_hand = self._adds_after_hand or [], None
        changes: list[Change] = []
        for order in adds:
            try:
                outcome = self._add(order)
            except (RuleError, CommandError) as error:
                log.warning("tournament chips refused", extra={"error": str(error)})
                continue
            self._book(outcome.ledger)
            changes.append(outcome.change)
        return changes
