"""The protocol models: the committed JSON Schema is current, and messages parse as documented."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from holdem.protocol import (
    ActCommand,
    DecisionAnswer,
    WorkerHello,
    main,
    parse_client_message,
    parse_worker_message,
    protocol_schema,
    schema_text,
)

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "docs" / "protocol.schema.json"


def test_the_committed_schema_matches_the_models() -> None:
    assert SCHEMA.read_text(encoding="utf-8") == schema_text(), (
        "docs/protocol.schema.json is stale: run "
        "python -m holdem.protocol --write docs/protocol.schema.json"
    )
    assert main(["--check", str(SCHEMA)]) == 0


def test_the_schema_names_every_direction_and_message() -> None:
    schema = protocol_schema()
    assert set(schema["properties"]) == {"client", "server", "worker", "gateway"}
    defs = schema["$defs"]
    for name in ("SitCommand", "ActCommand", "StateMessage", "DecisionQuery", "Advice"):
        assert name in defs
    client_types = {
        defs[ref["$ref"].split("/")[-1]]["properties"]["type"]["const"]
        for ref in defs["ClientMessage"]["oneOf"]
    }
    assert client_types == {
        "auth", "sit", "stand", "sit_out", "sit_back", "rebuy", "act", "advice",
        "ai_decide", "chat", "sync", "ping",
    }  # fmt: skip


def test_the_documented_examples_parse(tmp_path: Path) -> None:
    act = parse_client_message('{"type": "act", "action": "raise", "amount": 600}')
    assert isinstance(act, ActCommand) and act.to_action().amount == 600
    hello = parse_worker_message('{"type": "hello", "secret": "s", "capacity": 2}')
    assert isinstance(hello, WorkerHello) and hello.capacity == 2
    answer = parse_worker_message(
        json.dumps(
            {
                "type": "decision",
                "request_id": "r",
                "action": "call",
                "advice": {"action": "call", "equity": 0.5, "reason": "pot odds"},
            }
        )
    )
    assert isinstance(answer, DecisionAnswer) and answer.advice is not None
    with pytest.raises(ValidationError):
        parse_client_message('{"type": "act", "action": "call", "surprise": 1}')
    stale = tmp_path / "schema.json"
    stale.write_text("{}")
    assert main(["--check", str(stale)]) == 1


def test_every_setting_is_documented() -> None:
    from backend.settings import Settings

    text = (ROOT / "docs" / "settings.md").read_text(encoding="utf-8")
    for name in Settings.model_fields:
        assert f"`{name.upper()}`" in text, f"docs/settings.md does not describe {name.upper()}"
