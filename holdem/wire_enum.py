"""`WireEnum`: a string enum that pydantic writes to JSON without calling back into Python.

pydantic-core writes a plain `StrEnum` field by reading each member's `.value`, a
Python-level property: a table's state message holds dozens of enum fields (every
event's kind and street, every seat's state), and those reads were about a third of
the cost of rendering it. A `WireEnum` member is a `str` whose text is its value, so
its JSON is written as a string by pydantic-core alone. Validation, the JSON schema and
`model_dump()` (which keeps the members) are those of a `StrEnum`.

>>> from pydantic import BaseModel
>>> class Suit(WireEnum):
...     SPADES = "s"
>>> class Card(BaseModel):
...     suit: Suit
>>> Card(suit="s").suit is Suit.SPADES
True
>>> Card(suit=Suit.SPADES).model_dump_json()
'{"suit":"s"}'
>>> Card.model_json_schema()["$defs"]["Suit"]["enum"]
['s']
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import GetCoreSchemaHandler
from pydantic_core import core_schema


class WireEnum(StrEnum):
    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        # The enum's own schema validates (and names the type in the JSON schema); the
        # step after it changes nothing and carries the serialiser: a str's, which
        # writes the member's text, its value. (A chain of the one step would do as
        # well but gives each field a title in the JSON schema.)
        return core_schema.no_info_after_validator_function(
            _unchanged, handler(source), serialization=core_schema.simple_ser_schema("str")
        )


def _unchanged(member: WireEnum) -> WireEnum:
    return member
