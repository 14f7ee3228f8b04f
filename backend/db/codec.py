"""Converting holdem objects to and from MongoDB documents."""

from __future__ import annotations

import dataclasses
from typing import Any

from holdem.config import TableConfig
from holdem.history import HandRecord
from holdem.table import Seat, TableSnapshot

Document = dict[str, Any]

# A seat's fields are all plain values: read directly, not through dataclasses.asdict,
# which deep-copies each one (a snapshot is written at the end of every hand).
_SEAT_FIELDS = tuple(f.name for f in dataclasses.fields(Seat))


def hand_id(table_id: str, hand_no: int) -> str:
    return f"{table_id}-{hand_no}"


def config_to_doc(config: TableConfig) -> Document:
    return config.model_dump(mode="json")


def config_from_doc(doc: Document) -> TableConfig:
    return TableConfig.model_validate(doc)


def snapshot_to_doc(snapshot: TableSnapshot) -> Document:
    """Seats, stacks and the button; the config is stored once, beside it."""
    return {
        "seats": [{name: getattr(seat, name) for name in _SEAT_FIELDS} for seat in snapshot.seats],
        "button": snapshot.button,
        "hand_no": snapshot.hand_no,
        "tournament": snapshot.tournament,
        "bomb_pot_called": snapshot.bomb_pot_called,
    }


def snapshot_from_doc(table_id: str, config: TableConfig, doc: Document) -> TableSnapshot:
    seats = [Seat(**{k: v for k, v in seat.items() if k in _SEAT_FIELDS}) for seat in doc["seats"]]
    return TableSnapshot(
        table_id,
        config,
        seats,
        doc.get("button"),
        int(doc.get("hand_no", 0)),
        bool(doc.get("tournament", False)),
        bool(doc.get("bomb_pot_called", False)),
    )


def record_to_doc(record: HandRecord) -> Document:
    return record.model_dump(mode="json")


def record_from_doc(doc: Document) -> HandRecord:
    return HandRecord.model_validate(doc)
