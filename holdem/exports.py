"""Hand histories for other poker software: one format name, one hand or many.

Every format writes the hand as one player may see it (`observe_record` runs inside
each writer), so a caller cannot hand out another player's unshown cards by mistake.
"""

from __future__ import annotations

import json

from holdem.history import HandRecord
from holdem.ohh import to_ohh
from holdem.phh import to_phh
from holdem.pokerstars import to_pokerstars
from holdem.views import observe_record
from holdem.wire_enum import WireEnum


class ExportFormat(WireEnum):
    POKERSTARS = "pokerstars"  # text, what PokerTracker, Hold'em Manager and GTO Wizard import
    OHH = "ohh"  # Open Hand History JSON
    PHH = "phh"  # Poker Hand History (TOML), pokerkit's and the research datasets'


MEDIA_TYPE = {
    ExportFormat.POKERSTARS: "text/plain; charset=utf-8",
    ExportFormat.OHH: "application/json",
    ExportFormat.PHH: "text/plain; charset=utf-8",
}
# A file of many OHH hands is JSON documents apart by blank lines, not one JSON value.
MANY_MEDIA_TYPE = {**MEDIA_TYPE, ExportFormat.OHH: "text/plain; charset=utf-8"}
ONE_SUFFIX = {ExportFormat.POKERSTARS: "txt", ExportFormat.OHH: "ohh", ExportFormat.PHH: "phh"}
MANY_SUFFIX = {ExportFormat.POKERSTARS: "txt", ExportFormat.OHH: "ohh", ExportFormat.PHH: "phhs"}


def render(fmt: ExportFormat, record: HandRecord, hero: str, table_name: str | None) -> str:
    """One hand, as `hero` (a player id) may see it, ending in a newline."""
    if fmt is ExportFormat.POKERSTARS:
        return to_pokerstars(record, hero, table_name)
    if fmt is ExportFormat.OHH:
        return json.dumps(to_ohh(record, hero, table_name), ensure_ascii=False) + "\n"
    return to_phh(observe_record(record, hero))


def in_file(fmt: ExportFormat, text: str, index: int) -> str:
    """Hand number `index` (from 1) of a file of many: a blank line between hands (three
    line breaks in PokerStars' own files), a numbered table each in a .phhs file."""
    if fmt is ExportFormat.PHH:
        return f"{'' if index == 1 else chr(10)}[{index}]\n{text}"
    gap = {ExportFormat.POKERSTARS: "\n\n", ExportFormat.OHH: "\n"}[fmt]
    return text if index == 1 else gap + text
