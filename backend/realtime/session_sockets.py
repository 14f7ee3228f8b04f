"""The open table sockets of each sign-in session, so that signing out closes them."""

from __future__ import annotations

import asyncio

from backend.realtime.outbox import Outbox
from protocol.messages import CloseCode, ErrorCode, ErrorMessage


class SessionSockets:
    def __init__(self) -> None:
        self._open: dict[str, set[Outbox]] = {}

    def add(self, session_id: str, outbox: Outbox) -> None:
        self._open.setdefault(session_id, set()).add(outbox)

    def discard(self, session_id: str, outbox: Outbox) -> None:
        outboxes = self._open.get(session_id)
        if outboxes is not None:
            outboxes.discard(outbox)
            if not outboxes:
                del self._open[session_id]

    async def close(self, session_id: str) -> int:
        """Close the session's sockets (1008, after an `unauthorized` error); how many."""
        outboxes = list(self._open.pop(session_id, ()))
        error = ErrorMessage(code=ErrorCode.UNAUTHORIZED, message="signed out").model_dump_json()
        for outbox in outboxes:
            outbox.put(error)
        await asyncio.gather(
            *(o.close(CloseCode.POLICY, "signed out", flush=True) for o in outboxes)
        )
        return len(outboxes)
