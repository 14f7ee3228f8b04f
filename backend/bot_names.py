"""Bots' display names: each name belongs to one style, at every table.

A name that meant "rational" at one table and "mcts" at the next told a player
nothing (and a read learnt on "Ada" did not carry over); now the name says the
style. A style's names are used in order; past them a number tells its bots
apart ("Monty 2").
"""

from __future__ import annotations

from collections.abc import Iterable

from protocol.messages import BOT_STYLES, BotStyle

NAMES: dict[BotStyle, tuple[str, ...]] = {
    "mcts": ("Monty", "Carlo", "Simone"),
    "aggressive": ("Rex", "Blaze", "Dash"),
    "cautious": ("Prue", "Hedda", "Tim"),
    "rational": ("Ada", "Pascal", "Emmy"),
    "always-raise": ("Max", "Raisa"),
    "calling-station": ("Cal", "Stan"),
    "always-fold": ("Mouse", "Fay"),
    "random": ("Dice", "Rando"),
    "loki": ("Loki", "Lola"),
    "poki": ("Poki", "Pia"),
    "blueprint": ("Nash", "Cepheus"),
}
assert set(NAMES) == set(BOT_STYLES), "every bot style has its names"


def bot_name(style: BotStyle, taken: Iterable[str]) -> str:
    """The first of the style's names not `taken` at the table, else the first numbered."""
    used = set(taken)
    names = NAMES[style]
    for name in names:
        if name not in used:
            return name
    number = 2
    while f"{names[0]} {number}" in used:
        number += 1
    return f"{names[0]} {number}"
