"""Every enum a message or a stored model carries is a `WireEnum`.

A plain `StrEnum` field still works, but pydantic then writes it by calling back into
Python for each member's value: in a table's state message that was a third of the
rendering. This walks every pydantic model of the packages and names the fields whose
enum would be written the slow way.
"""

from __future__ import annotations

import enum
import importlib
import pkgutil
import typing
from collections.abc import Iterator

from pydantic import BaseModel

from holdem.wire_enum import WireEnum

PACKAGES = ("holdem", "protocol", "backend")


def _models() -> Iterator[type[BaseModel]]:
    for package_name in PACKAGES:
        package = importlib.import_module(package_name)
        for _, name, _ in pkgutil.walk_packages(package.__path__, f"{package_name}."):
            if name.endswith(".__main__"):  # a command: importing it runs it
                continue
            module = importlib.import_module(name)
            for value in vars(module).values():
                if (
                    isinstance(value, type)
                    and issubclass(value, BaseModel)
                    and value.__module__ == name
                ):
                    yield value


def _enums(annotation: object) -> Iterator[type[enum.Enum]]:
    """The enum classes inside a field's type (through unions, tuples, dicts, literals)."""
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        yield annotation
    if typing.get_origin(annotation) is typing.Literal:
        return
    for argument in typing.get_args(annotation):
        yield from _enums(argument)


def test_the_walk_finds_the_state_messages_enums() -> None:
    # Without this the test below could pass by finding nothing.
    from holdem.actions import EventKind, Street
    from holdem.views import SeatState

    found = {
        found_enum
        for model in _models()
        for field in model.model_fields.values()
        for found_enum in _enums(field.annotation)
    }
    assert {EventKind, Street, SeatState} <= found


def test_every_string_enum_in_a_model_is_a_wire_enum() -> None:
    slow = sorted(
        f"{model.__module__}.{model.__name__}.{field_name}: {found_enum.__name__}"
        for model in _models()
        for field_name, field in model.model_fields.items()
        for found_enum in _enums(field.annotation)
        if issubclass(found_enum, str) and not issubclass(found_enum, WireEnum)
    )
    assert slow == []


def test_a_wire_enum_is_written_as_its_value_and_read_back_as_its_member() -> None:
    from holdem.actions import EventKind, HandEvent, Street

    event = HandEvent(kind=EventKind.RAISE, street=Street.TURN, seat=2, amount=40)
    text = event.model_dump_json()
    assert '"kind":"raise"' in text and '"street":"turn"' in text
    back = HandEvent.model_validate_json(text)
    assert back.kind is EventKind.RAISE and back.street is Street.TURN
    assert event.model_dump()["kind"] is EventKind.RAISE
