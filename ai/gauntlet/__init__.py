"""The gauntlet: our bots against opponents written outside this project.

The agents that public poker packages ship (rlcard, texasholdem) play through
adapters (`ai.gauntlet.rlcard_agents`, `ai.gauntlet.texasholdem_agents`): each
turns one seat's Observation into that package's own observation format, asks
its agent, and maps the answer back to a legal action of ours. Our rules core
deals and referees every hand, so every match can be duplicate.
`ai.gauntlet.run` plays a line-up of our bots against each of them on the same
deals; `showdown gauntlet` is its command. Beside them it may seat our
self-play `blueprint` (`BASELINE_OPPONENTS`), which no built-in bot was fitted to.

Exploitability: `ai.gauntlet.lbr` plays a Local Best Response against a
heads-up bot on the same match code (`showdown lbr`, docs/lbr.md).
"""

from ai.gauntlet.opponents import BASELINE_OPPONENTS, OPPONENTS, Opponent, make_player
from ai.gauntlet.run import Cell, Difference, GauntletConfig, GauntletResult, play_gauntlet

__all__ = [
    "BASELINE_OPPONENTS",
    "OPPONENTS",
    "Cell",
    "Difference",
    "GauntletConfig",
    "GauntletResult",
    "Opponent",
    "make_player",
    "play_gauntlet",
]
