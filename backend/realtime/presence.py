"""Who is connected to a table: joining, leaving, slow clients, and the seats of those
who are gone (a grace period while playing, then sitting out, then the seat freed)."""

from __future__ import annotations

import logging

from backend.realtime.core import RuntimeCore
from backend.realtime.inbox import Client, TimerFired
from backend.realtime.timers import now_ms
from protocol.messages import (
    ActedBy,
    Change,
    ChangeKind,
    CloseCode,
    ErrorMessage,
    Limits,
    WelcomeMessage,
)

log = logging.getLogger(__name__)


class Presence(RuntimeCore):
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
        for text in self._chat.history():
            self._send(client, text)
        log.info("client joined", extra={"player_id": client.player_id, "last_seq": last_seq})

    def _remove_client(self, client: Client) -> None:
        """The client is gone: a seated player keeps the seat for the grace period."""
        self._clients.pop(client.player_id, None)
        self._advised.pop(client.player_id, None)
        self._absent(client.player_id)
        log.info("client left", extra={"player_id": client.player_id})
        self._request_withdrawn(client.player_id)
        self._host_gone(client.player_id)

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
