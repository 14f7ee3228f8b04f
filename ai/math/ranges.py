"""Hand ranges in the usual notation, expanded to combo indices.

Comma-separated parts: a holding ("AhKh"), a class ("AA", "AKs", "AKo", "AK" = both),
a class and all better kickers or pairs ("QQ+", "ATs+", "K9o+"), a span with the
same first card ("JJ-88", "A5s-A2s"), or "random"/"any"/"*" for every holding.

>>> len(parse_range("QQ+,AKs,ATs+,KQo"))  # 18 + 16 + 12
46
>>> len(parse_range("AA")), len(parse_range("AK")), len(parse_range("22+"))
(6, 16, 78)
>>> [combo_name(c) for c in parse_range("AhKh")]
['AhKh']
"""

from __future__ import annotations

import re

from ai.math.combos import (
    COMBO_CLASS,
    N_COMBOS,
    class_combos,
    class_index,
    combo_index,
    combo_name,
)
from holdem.cards import RANKS, is_card

__all__ = ["RangeError", "combo_name", "parse_range"]

_CLASS_RE = re.compile(r"([2-9TJQKA])([2-9TJQKA])([so]?)(\+?)")
_SPAN_RE = re.compile(r"([2-9TJQKA])([2-9TJQKA])([so]?)-([2-9TJQKA])([2-9TJQKA])([so]?)")


class RangeError(ValueError):
    """A range that cannot be read."""


def _classes(hi: str, lo: str, kind: str) -> list[str]:
    if hi == lo:
        if kind:
            raise RangeError(f"a pair cannot be suited or offsuit: {hi}{lo}{kind}")
        return [hi + lo]
    if RANKS.index(hi) < RANKS.index(lo):
        hi, lo = lo, hi
    return [hi + lo + k for k in ((kind,) if kind else ("s", "o"))]


def _plus(hi: str, lo: str, kind: str) -> list[str]:
    """QQ+ -> QQ..AA; ATs+ -> ATs..AKs (the kicker climbs up to below the top card)."""
    h, lo_i = RANKS.index(hi), RANKS.index(lo)
    if h == lo_i:
        return [r + r for r in RANKS[h:]] if not kind else _classes(hi, lo, kind)
    if h < lo_i:
        h, lo_i = lo_i, h
    return [name for k in range(lo_i, h) for name in _classes(RANKS[h], RANKS[k], kind)]


def _span(m: re.Match[str]) -> list[str]:
    a1, a2, ak, b1, b2, bk = m.groups()
    if ak != bk:
        raise RangeError(f"both ends of {m.group(0)!r} must be of the same kind")
    if a1 == a2 and b1 == b2:  # pairs: JJ-88
        lo_i, hi_i = sorted((RANKS.index(a1), RANKS.index(b1)))
        return [r + r for r in RANKS[lo_i : hi_i + 1]]
    if a1 != b1 or a1 == a2 or b1 == b2:
        raise RangeError(f"a span keeps its first card: {m.group(0)!r} (e.g. A5s-A2s)")
    top = RANKS.index(a1)
    lo_i, hi_i = sorted((RANKS.index(a2), RANKS.index(b2)))
    if hi_i >= top:
        raise RangeError(f"the second card must be below the first in {m.group(0)!r}")
    return [n for k in range(lo_i, hi_i + 1) for n in _classes(a1, RANKS[k], ak)]


def _part(part: str) -> set[int]:
    token = part.strip()
    if token.lower() in ("random", "any", "*"):
        return set(range(N_COMBOS))
    norm = token[:2].upper() + token[2:] if len(token) >= 2 else token.upper()
    if (
        len(token) == 4
        and is_card(token[0].upper() + token[1].lower())
        and is_card(token[2].upper() + token[3].lower())
    ):
        a, b = token[0].upper() + token[1].lower(), token[2].upper() + token[3].lower()
        if a == b:
            raise RangeError(f"a card appears twice in {token!r}")
        return {combo_index(a, b)}
    names: list[str]
    if m := _SPAN_RE.fullmatch(norm.replace("S", "s").replace("O", "o")):
        names = _span(m)
    elif m := _CLASS_RE.fullmatch(norm[:2] + norm[2:].lower()):
        hi, lo, kind, plus = m.groups()
        names = _plus(hi, lo, kind) if plus else _classes(hi, lo, kind)
    else:
        raise RangeError(f"cannot read {token!r} (use e.g. AhKh, QQ+, AKs, ATs+, KQo, 99-66)")
    combos: set[int] = set()
    for name in names:
        combos.update(int(c) for c in class_combos(class_index(name)))
    return combos


def parse_range(text: str) -> tuple[int, ...]:
    """Sorted combo indices of a range; raises RangeError on anything unreadable."""
    parts = [p for p in text.split(",") if p.strip()]
    if not parts:
        raise RangeError("empty range")
    combos: set[int] = set()
    for part in parts:
        combos |= _part(part)
    return tuple(sorted(combos))


def range_classes(combos: tuple[int, ...]) -> set[int]:
    """The classes a set of combos touches (for display)."""
    return {int(COMBO_CLASS[c]) for c in combos}
