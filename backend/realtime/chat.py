"""A table's chat: the rule for a message's text and the last lines for those who join."""

from __future__ import annotations

from collections import deque

from backend.names import normalise_chat
from backend.realtime.inbox import CommandError
from backend.realtime.timers import now_ms
from protocol.messages import ChatMessage, ErrorCode

# Chat messages a table keeps (in memory only) for those who join later.
CHAT_HISTORY = 50
CHAT_MAX = 500  # characters of one chat message (the protocol's bound)


class ChatLog:
    def __init__(self) -> None:
        self._lines: deque[ChatMessage] = deque(maxlen=CHAT_HISTORY)

    def say(self, seq: int, player_id: str, name: str, seat: int | None, text: str) -> ChatMessage:
        """The message as everyone gets it, kept for later joiners; CommandError if bad."""
        try:  # the names' rule: no bidirectional overrides, controls or blank lines
            clean = normalise_chat(text, CHAT_MAX)
        except ValueError as error:
            raise CommandError(ErrorCode.BAD_MESSAGE, f"text: {error}") from error
        said = ChatMessage(
            seq=seq, at=now_ms(), player_id=player_id, name=name, seat=seat, text=clean
        )
        self._lines.append(said)
        return said

    def history(self) -> list[str]:
        """The kept lines, marked as history, for a client that just joined."""
        return [line.model_copy(update={"history": True}).model_dump_json() for line in self._lines]
