"""Print the project's runtime requirements for the given extras, one per line.

Used by the Dockerfiles to install dependencies in their own cached layer, before
the source is copied in, so that editing the code does not reinstall PyTorch:

    python requirements.py pyproject.toml server > requirements.txt

Only the standard library is used (the image's Python runs it before anything
is installed).
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path


def requirements(pyproject: Path, extras: list[str]) -> list[str]:
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    optional: dict[str, list[str]] = project.get("optional-dependencies", {})
    unknown = sorted(set(extras) - set(optional))
    if unknown:
        raise SystemExit(f"unknown extra(s) {unknown}; known: {sorted(optional)}")
    result: list[str] = list(project.get("dependencies", []))
    for extra in extras:
        result.extend(req for req in optional[extra] if req not in result)
    return result


def main(argv: list[str]) -> int:
    if len(argv) < 1:
        raise SystemExit("usage: requirements.py PYPROJECT [EXTRA ...]")
    print("\n".join(requirements(Path(argv[0]), argv[1:])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
