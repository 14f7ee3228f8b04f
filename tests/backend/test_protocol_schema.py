"""The protocol models: the committed JSON Schema is current, and messages parse as documented."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from protocol.messages import (
    ActCommand,
    ChangeKind,
    DecisionAnswer,
    ErrorCode,
    ErrorMessage,
    RebuyCommand,
    WorkerHello,
    parse_client_message,
    parse_worker_message,
    read_client_message,
)
from protocol.schema import main, protocol_schema, schema_text

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "docs" / "protocol.schema.json"


def test_the_committed_schema_matches_the_models() -> None:
    assert SCHEMA.read_text(encoding="utf-8") == schema_text(), (
        "docs/protocol.schema.json is stale: run "
        "python -m protocol --write docs/protocol.schema.json"
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
        "ai_decide", "chat", "show", "show_uncalled", "sync", "ping",
        # the host's
        "pause", "resume", "remove", "adjust", "add_bot", "bot_style", "table_settings",
        "approve", "reject", "hand_over", "bomb_pot",
        # home-game rules
        "runouts", "rabbit_hunt", "straddle",
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


@pytest.mark.parametrize("amount", ['"5000"', "true", "5000.0", "5e3"])
def test_integer_fields_take_json_integers_only(amount: str) -> None:
    """Strict types: a string, a boolean or a float is refused, naming the field, with the ref."""
    error = read_client_message(f'{{"type": "rebuy", "amount": {amount}, "ref": "r7"}}')
    assert isinstance(error, ErrorMessage)
    assert error.code == ErrorCode.BAD_MESSAGE and error.ref == "r7"
    shown = json.dumps(json.loads(amount))  # 5e3 is the float 5000.0
    assert error.message == f"amount: must be a JSON integer (like 5000), not {shown}"
    with pytest.raises(ValidationError):
        parse_worker_message(f'{{"type": "hello", "secret": "s", "capacity": {amount}}}')
    ok = read_client_message('{"type": "rebuy", "amount": 5000}')
    assert isinstance(ok, RebuyCommand) and ok.amount == 5000


def test_refusals_echo_a_valid_ref_only() -> None:
    cases = {
        '{"type": "dance", "ref": "a"}': (ErrorCode.UNKNOWN_TYPE, "a"),
        '{"ref": "b"}': (ErrorCode.BAD_MESSAGE, "b"),
        '{"type": "sit", "seat": 1, "ref": "c"}': (ErrorCode.BAD_MESSAGE, "c"),
        '{"type": "ping", "ref": 5}': (ErrorCode.BAD_MESSAGE, None),
        '{"type": "stand", "ref": "' + "x" * 65 + '"}': (ErrorCode.BAD_MESSAGE, None),
        '{"type": "stand", "ref": "d"': (ErrorCode.BAD_JSON, None),
        '["ref"]': (ErrorCode.BAD_MESSAGE, None),
    }
    for text, (code, ref) in cases.items():
        error = read_client_message(text)
        assert isinstance(error, ErrorMessage), text
        assert (error.code, error.ref) == (code, ref), (text, error)


def test_the_document_lists_what_the_server_sends() -> None:
    """Every error code, change kind and message field the models have is in docs/protocol.md."""
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    for code in ErrorCode:
        assert f"`{code.value}`" in text, f"error code {code.value} is not documented"
    kinds = text.split("`cause` says what changed: `kind` (", 1)[1].split(")", 1)[0]
    assert set(kinds.replace("`", "").replace(",", " ").split()) == {k.value for k in ChangeKind}
    defs = protocol_schema()["$defs"]
    server_to_browser = text.split("### Server to browser", 1)[1]
    for name, message in (("welcome", "WelcomeMessage"), ("state", "StateMessage"),
                          ("error", "ErrorMessage"), ("chat", "ChatMessage"),
                          ("advice", "AdviceMessage"), ("pong", "PongMessage")):  # fmt: skip
        rows = server_to_browser.splitlines()
        row = next(line for line in rows if line.startswith(f"| `{name}` | "))
        fields = set(defs[message]["properties"]) - {"type"}
        missing = {f for f in fields if f"`{f}`" not in row.split("|")[3]}
        assert not missing, f"docs/protocol.md: {name} does not list {missing}"


def test_the_web_client_generates_its_wire_types_from_the_schema() -> None:
    """The build, typecheck and tests regenerate the types with a pinned generator."""
    frontend = ROOT / "frontend"
    package = json.loads((frontend / "package.json").read_text(encoding="utf-8"))
    scripts = package["scripts"]
    # The socket types, then the REST types (tests/backend/test_openapi_doc.py).
    assert scripts["gen:protocol"] == (
        "node scripts/gen-protocol-types.mjs && node scripts/gen-rest-types.mjs"
    )
    for script in ("build", "typecheck", "test", "dev"):
        assert scripts[f"pre{script}"] == "npm run gen:protocol", script
    version = package["devDependencies"]["json-schema-to-typescript"]
    assert version[0].isdigit(), f"pin json-schema-to-typescript exactly, not {version!r}"
    generator = (frontend / "scripts" / "gen-protocol-types.mjs").read_text(encoding="utf-8")
    assert "docs/protocol.schema.json" in generator and "src/protocol/wire.gen.ts" in generator
    types = (frontend / "src" / "protocol" / "types.ts").read_text(encoding="utf-8")
    reexported = types.split("export type {", 1)[1].split('} from "./wire.gen";', 1)[0]
    for model in ("TableView", "TableConfig", "HandEvent", "LegalActions", "Advice", "TurnClock"):
        assert f"interface {model} " not in types, f"{model} is written by hand in types.ts"
        assert f"  {model},\n" in reexported, f"types.ts does not re-export the generated {model}"


def test_the_document_lists_every_command_and_its_fields() -> None:
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    table = text.split("### Browser to server", 1)[1].split("###", 1)[0]
    rows = [line.split("|") for line in table.splitlines() if line.startswith("| `")]
    defs = protocol_schema()["$defs"]
    for ref in defs["ClientMessage"]["oneOf"]:
        model = defs[ref["$ref"].split("/")[-1]]
        kind = model["properties"]["type"]["const"]
        fields = set(model["properties"]) - {"type", "ref"}
        if kind == "auth":  # the first message, described with the handshake
            assert all(f"`{field}`" in text or f'"{field}"' in text for field in fields)
            continue
        row = next((r for r in rows if f"`{kind}`" in r[1]), None)
        assert row is not None, f"docs/protocol.md does not list the {kind} command"
        missing = {field for field in fields if f"`{field}`" not in row[2]}
        assert not missing, f"docs/protocol.md: {kind} does not list {missing}"


def test_the_documented_worker_answer_is_valid() -> None:
    """The /ws/ai example in docs/protocol.md parses with the (strict) worker models."""
    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0] for b in text.split("```json\n")[1:]]
    decision = next(b for b in blocks if b.startswith('{"type": "decision"'))
    answer = parse_worker_message(decision)
    assert isinstance(answer, DecisionAnswer) and answer.advice is not None
    assert answer.amount == 600 and len(answer.advice.values) == 3
