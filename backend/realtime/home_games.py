"""Home-game rules at a live table (#34): the run-it-twice vote with its countdown, the
rabbit hunt, each player's straddle choice and the host's bomb pot.

The rules themselves are holdem.table's; this part asks, times and tells.
"""

from __future__ import annotations

import logging

from backend.realtime.core import RuntimeCore
from backend.realtime.inbox import Client, CommandError, TimerFired
from backend.realtime.timers import now_ms
from protocol.messages import (
    ActedBy,
    Change,
    ChangeKind,
    ErrorCode,
    RabbitHuntCommand,
    RunoutsCommand,
    StraddleCommand,
)

log = logging.getLogger(__name__)

HomeCommand = RunoutsCommand | RabbitHuntCommand | StraddleCommand


class HomeGames(RuntimeCore):
    def _home_command(self, client: Client, message: HomeCommand) -> None:
        table, pid = self.table, client.player_id
        seat = table.find_seat(pid)
        if seat is None:
            raise CommandError(ErrorCode.NOT_SEATED, "you are not seated at this table")
        if isinstance(message, RunoutsCommand):
            table.vote_runouts(pid, message.runs)
            change = Change(
                kind=ChangeKind.RUNOUT_VOTE, seat=seat.number, player_id=pid, amount=message.runs
            )
            self._changed(change, False)
        elif isinstance(message, RabbitHuntCommand):
            cards = table.rabbit_hunt(pid)
            self._persist.file_rabbit(table.hand_no, cards)
            log.info("rabbit hunted", extra={"seat": seat.number, "cards": cards})
            note = " ".join(cards)
            self._changed(
                Change(kind=ChangeKind.RABBIT_HUNT, seat=seat.number, player_id=pid, note=note),
                False,
            )
        else:
            table.set_straddle(pid, message.enabled)
            change = Change(
                kind=ChangeKind.STRADDLE,
                seat=seat.number,
                player_id=pid,
                amount=int(message.enabled),
            )
            self._changed(change, True)  # a seat's choice is stored with the seats

    def _call_bomb_pot(self) -> None:
        """The host's bomb pot, stored with the seats: it survives a restart."""
        self.table.call_bomb_pot()
        self._changed(Change(kind=ChangeKind.BOMB_POT, by=ActedBy.HOST), True)

    # -- the run-it-twice vote -----------------------------------------------------------

    def _schedule_runout_vote(self) -> bool:
        """While all-in players choose the runs: bots answer at once (they agree to the
        most: the same expectation), the others have one decision's time. True: voting."""
        hand = self.table.hand
        if hand is None or hand.is_over or not hand.runout_voters:
            self._cancel_timer("runout")
            self._cancel_timer("runout_bots")
            self._runout_deadline = None
            return False
        if "runout" not in self._timers:
            timeout = self.options.action_timeout
            self._runout_deadline = now_ms() + 1000 * timeout
            self._start_timer("runout", timeout, TimerFired("runout", self.table.hand_no))
        bots = [s for s in hand.runout_voters if self.table.seats[s].is_bot]
        if bots and "runout_bots" not in self._timers:
            self._start_timer("runout_bots", 0.0, TimerFired("runout_bots", self.table.hand_no))
        return True

    def _runout_timer(self, fired: TimerFired) -> None:
        """The bots' votes, or the countdown's end: whoever did not answer runs it once."""
        self._timers.pop(fired.kind, None)
        hand = self.table.hand
        if hand is None or hand.is_over or fired.key != self.table.hand_no:
            return
        bots_only = fired.kind == "runout_bots"
        for number in hand.runout_voters:
            seat = self.table.seats[number]
            if bots_only and not seat.is_bot:
                continue
            runs = self.table.config.run_it_max if bots_only else 1
            self.table.vote_runouts(seat.player_id, runs)
            self._changed(
                Change(
                    kind=ChangeKind.RUNOUT_VOTE,
                    seat=number,
                    player_id=seat.player_id,
                    amount=runs,
                    by=ActedBy.BOT if bots_only else ActedBy.TIMER,
                ),
                False,
            )
            if hand.is_over:
                break

    def _runout_deadline_ms(self) -> float | None:
        return self._runout_deadline
