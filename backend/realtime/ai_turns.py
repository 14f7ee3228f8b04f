"""The AI at a table: bots' turns, "Let AI decide", advice and its budget."""

from __future__ import annotations

import asyncio
import logging
import math
from dataclasses import replace

from backend.fallback_policy import fallback_action
from backend.home_rules import bot_refusal
from backend.realtime.core import RuntimeCore
from backend.realtime.inbox import AIDone, Client, CommandError
from backend.realtime.timers import Turn
from holdem.actions import Action
from holdem.errors import RuleError
from holdem.table import Seat
from protocol.messages import (
    ActedBy,
    AdviceMessage,
    AdviceRequest,
    AIDecideCommand,
    Change,
    ChangeKind,
    ErrorCode,
    QueryPurpose,
    TournamentSituation,
)

log = logging.getLogger(__name__)


class AITurns(RuntimeCore):
    def _own_seat(self, client: Client) -> Seat:
        seat = self.table.find_seat(client.player_id)
        if seat is None:
            raise CommandError(ErrorCode.NOT_SEATED, "you are not seated at this table")
        return seat

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
        refusal = bot_refusal(self.table.config)
        if refusal is not None:  # the AI's simulator does not model this table's rules
            what = "advise" if advice_only else "decide"
            raise CommandError(
                ErrorCode.BAD_MESSAGE,
                f"the AI cannot {what} here: it " + refusal.removeprefix("bots "),
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
                tournament=self._tournament_situation(),
            )
            self.post(AIDone(turn, purpose, player_id, ref, decision))

        self._spawn(ask())

    def _tournament_situation(self) -> TournamentSituation | None:
        """The prizes and the other tables' stacks for the AI at a tournament table (ICM),
        from its director; None at a cash table."""
        if self.tournament is None:
            return None
        here = {seat.player_id for seat in self.table.seats.values()}
        return self.tournament.situation(self.table_id, here)

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
