"""Telling a table's clients: each its own view of every change, notices and stats."""

from __future__ import annotations

from backend.logging import log_context
from backend.realtime.core import RuntimeCore
from backend.realtime.inbox import Client, StatsCounted
from backend.realtime.timers import now_ms
from holdem.views import TableView, as_seen_by, observe
from protocol.messages import Change, NoticeMessage, StateMessage, StatsMessage


class Publishing(RuntimeCore):
    def _state_text(self, seat: int | None, cause: Change | None, at: float) -> str:
        return StateMessage(
            seq=self.seq,
            at=at,
            table_id=self.table_id,
            view=self._view(seat),
            clock=self._clock.view() if self._clock is not None else None,
            cause=cause,
            host=self._host_state(),
            tournament=self.tournament.view(self.table_id) if self.tournament else None,
            runout_deadline=self._runout_deadline,
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
        seated = {seat.player_id: seat.number for seat in self.table.seats.values()}
        for client in list(self._clients.values()):
            number = seated.get(client.player_id)
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

    def _send_held(self, held: list[tuple[Client, str]]) -> None:
        """Send messages held until their change was stored, to clients still here;
        once: the list is emptied."""
        sending = held[:]
        held.clear()
        with log_context(table_id=self.table_id):
            for client, text in sending:
                if self._clients.get(client.player_id) is client:
                    self._send(client, text)

    def _broadcast(self, text: str) -> None:
        for client in list(self._clients.values()):
            self._send(client, text)

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
        self._broadcast(notice)

    def _stats_counted(self, counted: StatsCounted) -> None:
        text = StatsMessage(
            hand_no=counted.hand_no, player_ids=list(counted.player_ids), at=now_ms()
        ).model_dump_json()
        self._broadcast(text)
