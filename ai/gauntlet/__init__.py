"""The gauntlet: our bots against opponents written outside this project.

The agents that public poker packages ship (rlcard, texasholdem) play through
adapters (`ai.gauntlet.rlcard_agents`, `ai.gauntlet.texasholdem_agents`): each
turns one seat's Observation into that package's own observation format, asks
its agent, and maps the answer back to a legal action of ours. Our rules core
deals and referees every hand, so every match can be duplicate.
`ai.gauntlet.run` plays a line-up of our bots against each of them on the same
deals; `showdown gauntlet` is its command.

Exploitability (a Local Best Response) is to live here too, as `lbr`.
"""

from ai.gauntlet.opponents import OPPONENTS, Opponent, make_player
from ai.gauntlet.run import Cell, Difference, GauntletConfig, GauntletResult, play_gauntlet

__all__ = [
    "OPPONENTS",
    "Cell",
    "Difference",
    "GauntletConfig",
    "GauntletResult",
    "Opponent",
    "make_player",
    "play_gauntlet",
]
