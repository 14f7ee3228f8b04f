"""Bots by style name: `make_bot("loki", seed=7)`.

Names are the ones a table may ask for (`DecisionQuery.style`); a few aliases
cover the short names used in the lobby ("calling", "raising", ...).
"""

from __future__ import annotations

from collections.abc import Callable

from ai.bots.base import Bot
from ai.bots.settings import PLAIN, BotSettings
from ai.bots.simple import (
    AggressiveBot,
    AlwaysFoldBot,
    AlwaysRaiseBot,
    CallingStationBot,
    CautiousBot,
    EquityBot,
    RandomBot,
)

# A style's constructor: (seed, settings) -> bot.
Factory = Callable[[int, BotSettings], Bot]


def _mcts(profile: str) -> Factory:
    def make(seed: int, settings: BotSettings) -> Bot:
        from ai.bots.mcts import make_mcts

        return make_mcts(seed, profile, settings)

    return make


def _loki(seed: int, settings: BotSettings) -> Bot:
    from ai.bots.loki import LokiBot

    return LokiBot(seed, settings)


def _poki(seed: int, settings: BotSettings) -> Bot:
    from ai.bots.poki import PokiBot

    return PokiBot(seed, settings=settings)


def _blueprint(seed: int, settings: BotSettings) -> Bot:
    from ai.bots.blueprint import BlueprintBot

    return BlueprintBot(seed, settings=settings)


_FACTORIES: dict[str, Factory] = {
    "mcts": _mcts(""),
    "aggressive": AggressiveBot,
    "cautious": CautiousBot,
    "rational": EquityBot,
    "always-raise": AlwaysRaiseBot,
    "calling-station": CallingStationBot,
    "always-fold": AlwaysFoldBot,
    "random": RandomBot,
    "loki": _loki,
    "poki": _poki,
    "blueprint": _blueprint,
}

STYLES: tuple[str, ...] = tuple(_FACTORIES)
# The seven personalities that need no opponent model (the arena's fast set).
SIMPLE_STYLES: tuple[str, ...] = STYLES[1:8]
# The arena's mcts profiles other than the default (not offered at tables): the advisor
# and the ablations (`ai.search.profiles`; their names are spelled out here so that the
# registry does not import the search).
MCTS_PROFILES = ("advisor", "noblueprint", "generic", "frequency", "random", "uct", "puct", "best",
                 "noreuse")  # fmt: skip
ARENA_STYLES: dict[str, Factory] = {f"mcts-{name}": _mcts(name) for name in MCTS_PROFILES}

ALIASES: dict[str, str] = {
    "calling": "calling-station",
    "call": "calling-station",
    "caller": "calling-station",
    "station": "calling-station",
    "raising": "always-raise",
    "raise": "always-raise",
    "raiser": "always-raise",
    "folding": "always-fold",
    "fold": "always-fold",
    "folder": "always-fold",
    "tight": "cautious",
    "loose": "aggressive",
    "expert": "loki",
    "simulation": "poki",
    "search": "mcts",
}

# The style that answers advice queries and human seats ("Let AI decide"): the search on
# its advisor profile.
ADVISOR_STYLE = "mcts-advisor"


def canonical_style(style: str) -> str:
    """The registered name for `style` (aliases resolved); KeyError when unknown."""
    name = style.strip().lower().replace("_", "-")
    name = ALIASES.get(name, name)
    if name not in _FACTORIES and name not in ARENA_STYLES:
        known = ", ".join(STYLES)
        raise KeyError(f"unknown bot style {style!r} (known: {known})")
    return name


def make_bot(style: str, seed: int = 0, settings: BotSettings = PLAIN) -> Bot:
    """The bot of `style` (aliases resolved), built to run as `settings` say."""
    name = canonical_style(style)
    return (_FACTORIES.get(name) or ARENA_STYLES[name])(seed, settings)
