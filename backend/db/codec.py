"""Converting holdem objects to and from MongoDB documents."""

from __future__ import annotations

import dataclasses
from typing import Any

from holdem.config import TableConfig
from holdem.history import HandRecord
from holdem.table import Seat, TableSnapshot

Document = dict[str, Any]


def hand_id(table_id: str, hand_no: int) -> str:
    return f"{table_id}-{hand_no}"


def config_to_doc(config: TableConfig) -> Document:
    return config.model_dump(mode="json")


def config_from_doc(doc: Document) -> TableConfig:
    return TableConfig.model_validate(doc)


def snapshot_to_doc(snapshot: TableSnapshot) -> Document:
    """Seats, stacks and the button; the config is stored once, beside it."""
    return {
        "seats": [dataclasses.asdict(seat) for seat in snapshot.seats],
        "button": snapshot.button,
        "hand_no": snapshot.hand_no,
    }


def snapshot_from_doc(table_id: str, config: TableConfig, doc: Document) -> TableSnapshot:
    fields = {f.name for f in dataclasses.fields(Seat)}
    seats = [Seat(**{k: v for k, v in seat.items() if k in fields}) for seat in doc["seats"]]
    return TableSnapshot(table_id, config, seats, doc.get("button"), int(doc.get("hand_no", 0)))


def record_to_doc(record: HandRecord) -> Document:
    return record.model_dump(mode="json")


def record_from_doc(doc: Document) -> HandRecord:
    return HandRecord.model_validate(doc)
