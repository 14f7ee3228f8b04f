"""Which home-game rules the AI can play: the bots and "Let AI decide" search with the
simulator in ai/sim, which posts the blinds and an ante from every seat or from the big
blind alone (a tournament's big-blind ante). A table with bots refuses the rules it does
not model (a straddle, bomb pots), saying why; so does the AI.

>>> from holdem.config import TableConfig, Variant, Straddle
>>> bot_refusal(TableConfig(variant=Variant.NO_LIMIT, seats=6, small_blind=1, big_blind=2))
>>> print(bot_refusal(TableConfig(
...     variant=Variant.NO_LIMIT, seats=6, small_blind=1, big_blind=2, bomb_pot_ante=5)))
bots cannot play at a table with bomb pots: the AI's simulator posts only the blinds
"""

from __future__ import annotations

from holdem.config import Straddle, TableConfig

_WHY = "the AI's simulator posts only the blinds"


def bot_refusal(config: TableConfig) -> str | None:
    """Why bots (and the AI deciding for a player) cannot play under `config`; None: they can.

    Run it twice and the rabbit hunt change no decision (the AI agrees to every run:
    the same expectation), so bots play them.
    """
    reasons = []
    if config.straddle is not Straddle.OFF:
        reasons.append("a straddle")
    if config.bomb_pot_ante:
        reasons.append("bomb pots")
    if not reasons:
        return None
    return f"bots cannot play at a table with {' and '.join(reasons)}: {_WHY}"
