"""The REST API's committed OpenAPI document is the routes', and the web client's REST
types are generated from it (as the socket types are from the protocol schema)."""

from __future__ import annotations

import json
from pathlib import Path

from backend.openapi_doc import main, openapi_document, openapi_text

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = ROOT / "docs" / "openapi.json"


def test_the_committed_document_matches_the_routes() -> None:
    assert DOCUMENT.read_text(encoding="utf-8") == openapi_text(), (
        "docs/openapi.json is stale: run python -m backend.openapi_doc --write docs/openapi.json"
    )
    assert main(["--check", str(DOCUMENT)]) == 0


def test_a_stale_document_is_refused(tmp_path: Path) -> None:
    stale = json.loads(DOCUMENT.read_text(encoding="utf-8"))
    del stale["paths"]["/api/tables"]
    path = tmp_path / "openapi.json"
    path.write_text(json.dumps(stale), encoding="utf-8")
    assert main(["--check", str(path)]) == 1


def test_the_document_names_the_bodies_the_client_decodes() -> None:
    schemas = openapi_document()["components"]["schemas"]
    for name in ("TokenResponse", "CreateTableRequest", "TableSummary", "TableDetail", "HandPage"):
        assert name in schemas
    generator = (ROOT / "frontend" / "scripts" / "gen-rest-types.mjs").read_text(encoding="utf-8")
    assert "docs/openapi.json" in generator and "src/protocol/rest.gen.ts" in generator
    types = (ROOT / "frontend" / "src" / "protocol" / "types.ts").read_text(encoding="utf-8")
    assert 'from "./rest.gen"' in types
