"""Bots: named playing styles behind one interface.

>>> bot = make_bot("calling-station", seed=1)
>>> bot.style
'calling-station'

`Bot.decide(Observation) -> Decision`; observations come from the simulator
(`observe`) or from a seat's TableView (`observation_from_view`).
"""

from ai.bots.base import Bot
from ai.bots.from_view import ReplayError, observation_from_view
from ai.bots.registry import ADVISOR_STYLE, SIMPLE_STYLES, STYLES, canonical_style, make_bot
from ai.game.observation import ActionRecord, Decision, Observation
from ai.game.observe import apply, observe
from ai.game.summary import HandSummary

__all__ = [
    "ADVISOR_STYLE",
    "SIMPLE_STYLES",
    "STYLES",
    "ActionRecord",
    "Bot",
    "Decision",
    "HandSummary",
    "Observation",
    "ReplayError",
    "apply",
    "canonical_style",
    "make_bot",
    "observation_from_view",
    "observe",
]
