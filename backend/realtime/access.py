"""Who may see a table: a private table is unlisted, and only its players (seated, the
host, or admitted by the invite link) see it; the host runs the table."""

from __future__ import annotations

import logging
import secrets

from pydantic import ValidationError

from backend.realtime.core import RuntimeCore
from protocol.messages import SeatRequest

log = logging.getLogger(__name__)

INVITE_BYTES = 18  # 144 random bits: unguessable, and short enough for a link


def new_invite() -> str:
    return secrets.token_urlsafe(INVITE_BYTES)


class Access(RuntimeCore):
    @property
    def private(self) -> bool:
        return self.options.private

    @property
    def members(self) -> frozenset[str]:
        """Those the invite admitted (a cluster's lobby lists the table to them too)."""
        return frozenset(self._members)

    def visible_to(self, player_id: str | None) -> bool:
        """A public table to everyone; a private one to its host, its seated players and
        those the invite admitted (until it was revoked)."""
        if not self.options.private:
            return True
        if player_id is None:
            return False
        return (
            player_id == self.host_id
            or player_id in self._members
            or self.table.find_seat(player_id) is not None
        )

    def invite_valid(self, invite: str | None) -> bool:
        current = self.options.invite
        return (
            invite is not None
            and current is not None
            and secrets.compare_digest(invite.encode(), current.encode())
        )

    def admit(self, player_id: str, invite: str | None) -> bool:
        """May this player open the table? A valid invite makes them one of its players."""
        if self.visible_to(player_id):
            return True
        if self.invite_valid(invite):
            self._members.add(player_id)
            self._store_access()
            return True
        return False

    def rotate_invite(self) -> str:
        """A new invite token: the old link no longer admits anyone."""
        invite = new_invite()
        self._set_invite(invite)
        return invite

    def revoke_invite(self) -> None:
        """No link admits; those it admitted who have no seat lose sight of the table."""
        self._set_invite(None)

    def _set_invite(self, invite: str | None) -> None:
        self.options = self.options.model_copy(update={"invite": invite})
        self._members.clear()  # admitted by the old link: a seated player stays a player
        self._store_options()
        self._store_access()
        log.info("invite changed", extra={"revoked": invite is None})

    def restore_access(self, stored: object) -> None:
        """The stored members and seat requests of a table brought back by a restart
        (anything unreadable is left out: a request can be asked for again)."""
        if not isinstance(stored, dict):
            return
        members = stored.get("members")
        if isinstance(members, list):
            self._members = {m for m in members if isinstance(m, str)}
        for item in stored.get("seat_requests") or []:
            try:
                request = SeatRequest.model_validate(item)
            except ValidationError:
                log.warning("unreadable stored seat request left out", extra={"item": item})
                continue
            self._seat_requests[request.player_id] = request

    def _store_options(self) -> None:
        self._spawn(self._repos.tables.set_options(self.table_id, self.options.model_dump()))
