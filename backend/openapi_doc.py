"""The REST API's OpenAPI document, written to docs/openapi.json.

The web client's REST types are generated from the committed document
(frontend/scripts/gen-rest-types.mjs), as its socket types are from
docs/protocol.schema.json; a test fails when the document and the routes drift.

    python -m backend.openapi_doc --write docs/openapi.json
    python -m backend.openapi_doc --check docs/openapi.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from backend.app import create_app
from backend.settings import Settings


def openapi_document() -> dict[str, Any]:
    """The document FastAPI builds from the routes; no database is opened for it."""
    # The URL is never dialled: only the lifespan connects, and it does not run here.
    app = create_app(Settings(mongodb_url="mongodb://openapi.invalid", frontend_dir=None))
    return app.openapi()


def openapi_text() -> str:
    return json.dumps(openapi_document(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", type=Path, metavar="PATH", help="write the document")
    group.add_argument("--check", type=Path, metavar="PATH", help="fail if PATH is stale")
    args = parser.parse_args(argv)
    text = openapi_text()
    if args.write is not None:
        args.write.write_text(text, encoding="utf-8")
        return 0
    if args.check.read_text(encoding="utf-8") != text:
        print(f"{args.check} is stale: run python -m backend.openapi_doc --write {args.check}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
