"""Which home-game rules the AI can play: the bots and "Let AI decide" search with the
simulator in ai/sim, which deals each hand under the rules it was dealt with
(`ai.sim.rules.Rules.of_hand`): a live straddle (UTG or button), a bomb pot (the ante
from every seat, no blinds, the preflop checked through) and the big-blind ante, each
checked hand for hand against the rules core (tests/ai/test_sim_differential.py).
Run it twice and the rabbit hunt change no decision (the AI agrees to every run: the
same expectation). A rule the simulator did not model would be refused here, at a
table with bots and for the AI, saying why; today every table option is played.

>>> from holdem.config import AnteMode, TableConfig, Variant, Straddle
>>> bot_refusal(TableConfig(variant=Variant.NO_LIMIT, seats=6, small_blind=1, big_blind=2,
...     straddle=Straddle.UTG, bomb_pot_ante=5, ante=2, ante_mode=AnteMode.BIG_BLIND))
"""

from __future__ import annotations

from collections.abc import Callable

from holdem.config import TableConfig

# (does the table use it, why the AI cannot play it): rules the simulator does not model.
# Empty: the straddle, bomb pots and the big-blind ante joined the simulator (#34).
UNMODELLED: tuple[tuple[Callable[[TableConfig], bool], str], ...] = ()


def bot_refusal(config: TableConfig) -> str | None:
    """Why bots (and the AI deciding for a player) cannot play under `config`; None: they can."""
    reasons = [why for uses, why in UNMODELLED if uses(config)]
    if not reasons:
        return None
    return f"bots cannot play at a table with {' and '.join(reasons)}"
