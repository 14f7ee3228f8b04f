"""A tournament table's seats as it reports them to its director between hands (on a
cluster, after a takeover): every stack, the button, and its last hand's number and
starting stacks, so the busts of a hand whose report was lost are placed by them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from backend.realtime.runtime import TableRuntime


@dataclass(frozen=True, slots=True)
class Seats:
    stacks: dict[str, int]  # player -> chips (a hand in progress voided)
    button: int | None = None
    hand_no: int | None = None  # the table's last finished hand (None: none known)
    starting: dict[str, int] = field(default_factory=dict)  # its players' chips as it began

    @classmethod
    def of(cls, runtime: TableRuntime) -> Seats:
        """The last hand as this process saw it end or, for a table restored from the
        store since, as it was filed (read at the load)."""
        table = runtime.table
        stacks = {seat.player_id: seat.stack for seat in table.snapshot().seats}
        record = table.last_record
        if record is not None:
            starting = {s.player_id: s.starting_stack for s in record.seats}
            return cls(stacks, table.button, record.hand_no, starting)
        if runtime.stored_last_hand is not None:
            hand_no, starting = runtime.stored_last_hand
            return cls(stacks, table.button, hand_no, dict(starting))
        return cls(stacks, table.button)

    def doc(self) -> dict[str, Any]:
        return {
            "seats": self.stacks,
            "button": self.button,
            "hand_no": self.hand_no,
            "starting": self.starting,
        }

    @classmethod
    def from_doc(cls, body: dict[str, Any]) -> Seats:
        """As `doc` wrote it (a report from a node without the last hand: stacks only)."""
        return cls(
            chips(body["seats"]),
            int_or_none(body.get("button")),
            int_or_none(body.get("hand_no")),
            chips(body.get("starting") or {}),
        )


def chips(doc: dict[str, Any]) -> dict[str, int]:
    return {str(k): int(v) for k, v in doc.items()}


def int_or_none(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
