"""Text people show each other, names and chat: one rule, and look-alike names.

Normalised: names by Unicode NFKC (full-width and compatibility forms folded);
names and chat alike: any run of whitespace made one space, trimmed.
Restricted, both alike: no control, format (zero-width, bidirectional overrides
and isolates), surrogate, private-use or unassigned characters; something
visible (not only blanks such as U+3164 HANGUL FILLER or U+2800 BRAILLE PATTERN
BLANK); a length within bounds after normalising. Names are compared
case-insensitively by `name_key`, and for look-alikes by `lookalike_keys`
(backend.confusables: Unicode's confusables skeleton).
"""

from __future__ import annotations

import unicodedata

from backend.confusables import is_default_ignorable, skeleton

_REFUSED = {
    "Cc": "a control character",
    "Cf": "an invisible formatting character (zero-width or bidirectional)",
    "Cs": "a surrogate",
    "Co": "a private-use character",
    "Cn": "an unassigned character",
}
# Letters, digits, punctuation and symbols show ink; marks only on a base character.
_INKED = ("L", "N", "P", "S")
# Graphic characters that show nothing, though they are not default-ignorable.
_BLANK = frozenset("\u2800\U0001d159\U00016fe4")


def _check(text: str, what: str) -> None:
    for char in text:
        category = unicodedata.category(char)
        if category in _REFUSED:
            raise ValueError(
                f"the {what} contains {_REFUSED[category]} (U+{ord(char):04X}): "
                "use letters, digits, punctuation and spaces"
            )
    if not text:
        raise ValueError(f"the {what} is empty")
    if not any(_visible(char) for char in text):
        blank = next(char for char in text if not char.isspace())
        name = unicodedata.name(blank, "a blank character")
        raise ValueError(
            f"the {what} shows nothing: U+{ord(blank):04X} ({name}) looks blank; "
            "use letters, digits, punctuation or symbols"
        )


def _visible(char: str) -> bool:
    return (
        unicodedata.category(char)[0] in _INKED
        and char not in _BLANK
        and not is_default_ignorable(char)
    )


def _bounded(text: str, max_length: int, what: str) -> str:
    if len(text) > max_length:
        raise ValueError(f"the {what} is {len(text)} characters long: at most {max_length}")
    return text


def normalise_name(raw: str, max_length: int, what: str = "name") -> str:
    """The normalised name, or ValueError saying what is wrong with it."""
    text = " ".join(unicodedata.normalize("NFKC", raw).split())
    _check(text, what)
    return _bounded(text, max_length, what)


def normalise_chat(raw: str, max_length: int) -> str:
    """A chat line by the names' rule (but not NFKC-folded: "½" stays); or ValueError."""
    text = " ".join(raw.split())
    _check(text, "message")
    return _bounded(text, max_length, "message")


def name_key(name: str) -> str:
    """What two names must differ in: their case-folded normal form."""
    return unicodedata.normalize("NFKC", name.casefold())


def lookalike_keys(name: str) -> list[str]:
    """Two names look alike if they share a key: the confusables skeleton of the
    case-folded name (Cyrillic "Р" and Latin "P" both fold and map to "p"), and the
    case-folded skeleton (capital "I" maps to "l" before case folding loses it)."""
    folded = name_key(name)
    return sorted({skeleton(folded), skeleton(name).casefold()})
