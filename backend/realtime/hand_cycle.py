"""A table's hand cycle: dealing, each decision's clock, the end of a hand (filing it,
cash-outs, the uncalled show), bots' rebuys, and the pause before the next deal."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from datetime import UTC, datetime

from backend.db.codec import snapshot_to_doc
from backend.logging import log_context
from backend.realtime import table_commands
from backend.realtime.core import RuntimeCore
from backend.realtime.inbox import TimerFired
from backend.realtime.table_commands import LedgerLine, Outcome
from backend.realtime.timers import Clock, Turn, now_ms
from holdem.errors import RuleError
from holdem.table import Cashout, Seat
from protocol.messages import ActedBy, Change, ChangeKind

log = logging.getLogger(__name__)


class HandCycle(RuntimeCore):
    def _may_deal(self) -> bool:
        table = self.table
        if not table.can_start_hand():
            return False
        if self.options.host_paused or self.draining:
            return False
        if self._settings.bots_play_alone or self.options.tournament_id is not None:
            return True
        return any(
            not s.is_bot and s.stack > 0 and not s.sitting_out and not s.leaving
            for s in table.seats.values()
        )

    def _deal(self) -> None:
        self._apply_next_settings()
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
        if self.tournament is not None:
            self.tournament.hand_started(self.table_id, table.hand_no)
        self._changed(Change(kind=ChangeKind.HAND_START, by=ActedBy.TABLE), False)

    def _chips_after_hand(self) -> list[Change]:
        """A tournament table's chips bought during the hand (TournamentOrders)."""
        return []

    def _apply(self, outcome: Outcome) -> None:
        """A table command's outcome: its chips booked, then stored, scheduled, told."""
        self._book(outcome.ledger)
        self._changed(outcome.change, outcome.seats_changed)

    def _book(self, lines: list[LedgerLine]) -> None:
        """Chips in or out go to the ledger, stored with the next snapshot of the stacks."""
        for line in lines:
            entry = self._persist.ledger(line.player_id, line.kind, line.amount, line.seat)
            self._booked.append(entry)  # the players' ledger sees it before it is stored

    def _changed(self, cause: Change, seats_changed: bool) -> None:
        """After every change: book chips, queue writes, reschedule, tell everyone."""
        table = self.table
        cashouts = self._settle_cashouts()
        record = table.last_record
        hand = table.hand
        live = hand is not None and not hand.is_over
        bought: list[Change] = []
        if record is not None and record.hand_no > self._recorded_hand_no:
            self._recorded_hand_no = record.hand_no
            self.hands_played += 1
            self._banks.hand_played(seat.player_id for seat in record.seats)
            cashouts += self._settle_cashouts()
            bought = self._chips_after_hand()
            self._apply_next_settings()  # the lobby shows the new stakes at once
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
                record.model_copy(
                    update={
                        "played_at": datetime.now(UTC),
                        "tournament_id": self.options.tournament_id,
                    }
                ),
            )
            if self.tournament is not None:
                stacks = {s.player_id: s.stack for s in table.seats.values()}
                starting = {s.player_id: s.starting_stack for s in record.seats}
                self.tournament.hand_finished(
                    self.table_id, table.button, stacks, starting, record.hand_no
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
        self._unpublished += [(change, at) for change in bought]
        for cashout in cashouts:  # after its stand: the host who left hands the role on
            self._host_gone(cashout.player_id)

    def _settle_cashouts(self) -> list[Cashout]:
        cashouts = self.table.cashouts[self._cashouts_seen :]
        for cashout in cashouts:
            self._book([LedgerLine(cashout.player_id, "cashout", cashout.amount, cashout.seat)])
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

    def _bots_to_rebuy(self) -> list[Seat]:
        """Bots short of a big blind between hands: they never leave broke."""
        hand = self.table.hand
        if (hand is not None and not hand.is_over) or self.table.tournament:
            return []  # a tournament has no rebuys: a busted bot is out
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
        amount = self.table.config.max_buy_in - seat.stack
        try:
            outcome = table_commands.rebuy(self.table, seat.player_id, amount, ActedBy.BOT)
            if seat.sitting_out:
                self.table.sit_back(seat.player_id)
        except RuleError as error:
            log.warning("bot rebuy failed", extra={"error": error.message})
            self._rebuy_failed.add(seat.player_id)
            self._schedule()
            return
        self._book(outcome.ledger)
        self._changed(outcome.change, outcome.seats_changed)

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
            if seat.sitting_out and self.table.tournament:
                limit = 0.0  # a tournament seat sitting out is blinded off: no waiting
            self._clock = Clock(turn, seat.player_id, loop.time(), limit, timeout, bank)
            self._start_timer("turn", limit, TimerFired("turn", turn))
            if seat.is_bot:
                self._start_timer("bot", self._bot_delay(), TimerFired("bot", turn))
            return
        self._clock = None
        self._cancel_timer("turn")
        self._cancel_timer("bot")
        if self._schedule_runout_vote():
            return
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


def _with_cashouts(cause: Change, cashouts: list[Cashout]) -> list[Change]:
    """The causes to publish: everyone sees the chips a player left with. A stand between
    hands carries them (`stack`); one during a hand gets its own stand, after the change
    that ended the hand."""
    changes = [cause]
    for cashout in cashouts:
        own = cause.kind in (ChangeKind.STAND, ChangeKind.REMOVE)
        if own and cause.player_id == cashout.player_id:
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
