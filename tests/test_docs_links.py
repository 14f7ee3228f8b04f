"""The documentation holds together: what the code and the docs cite exists.

A note in docs/experiments/ that the index does not list is a result nobody finds; a
link or a cited path that names no file sends a newcomer nowhere.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
EXPERIMENTS = DOCS / "experiments"

# A Markdown link's target, `[text](target)`, up to a fragment or a title (the text may
# itself hold brackets: confidence intervals).
_LINK = re.compile(r"\]\(([^)\s#]+)")
# A repository path to a document or figure, as code comments and docstrings cite them.
_CITED = re.compile(r"\bdocs/[\w./-]+\.(?:md|png|svg|json)\b")
_CODE_DIRS = ("ai", "backend", "showdown", "holdem", "tests")


def _relative_links(page: Path) -> list[str]:
    targets = _LINK.findall(page.read_text(encoding="utf-8"))
    return [t for t in targets if "://" not in t and not t.startswith("mailto:")]


def test_every_experiment_note_is_in_the_index() -> None:
    index = (EXPERIMENTS / "README.md").read_text(encoding="utf-8")
    listed = set(_LINK.findall(index))
    notes = {p.name for p in EXPERIMENTS.glob("*.md") if p.name != "README.md"}
    assert sorted(notes - listed) == []


def test_every_relative_link_in_the_docs_names_a_file() -> None:
    broken = [
        f"{page.relative_to(ROOT)} -> {target}"
        for page in sorted(DOCS.rglob("*.md"))
        for target in _relative_links(page)
        if not (page.parent / target).exists()
    ]
    assert broken == []


def test_every_document_the_code_cites_exists() -> None:
    missing = sorted(
        {
            f"{source.relative_to(ROOT)}: {cited}"
            for folder in _CODE_DIRS
            if (ROOT / folder).is_dir()
            for source in (ROOT / folder).rglob("*.py")
            for cited in _CITED.findall(source.read_text(encoding="utf-8"))
            if not (ROOT / cited).exists()
        }
    )
    assert missing == []
