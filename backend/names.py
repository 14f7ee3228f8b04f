"""Display names of players and tables: normalised, then restricted.

Normalised: Unicode NFKC (full-width and compatibility forms folded), any run
of whitespace made one space, trimmed. Restricted: no control, format
(zero-width, bidirectional overrides and isolates), surrogate, private-use or
unassigned characters, and a length within bounds after normalising. Names are
compared case-insensitively by `name_key`.
"""

from __future__ import annotations

import unicodedata

_REFUSED = {
    "Cc": "a control character",
    "Cf": "an invisible formatting character (zero-width or bidirectional)",
    "Cs": "a surrogate",
    "Co": "a private-use character",
    "Cn": "an unassigned character",
}


def normalise_name(raw: str, max_length: int, what: str = "name") -> str:
    """The normalised name, or ValueError saying what is wrong with it."""
    text = " ".join(unicodedata.normalize("NFKC", raw).split())
    for char in text:
        category = unicodedata.category(char)
        if category in _REFUSED:
            raise ValueError(
                f"the {what} contains {_REFUSED[category]} (U+{ord(char):04X}): "
                "use letters, digits, punctuation and spaces"
            )
    if not text:
        raise ValueError(f"the {what} is empty")
    if len(text) > max_length:
        raise ValueError(f"the {what} is {len(text)} characters long: at most {max_length}")
    return text


def name_key(name: str) -> str:
    """What two names must differ in: their case-folded normal form."""
    return unicodedata.normalize("NFKC", name.casefold())
