"""Arena: bot-vs-bot matches through the fast simulator, win rates, charts."""

from ai.arena.match import Match, MatchConfig, MatchResult
from ai.arena.play import play_match
from ai.arena.stats import WinRate, format_table, win_rates

__all__ = [
    "Match",
    "MatchConfig",
    "MatchResult",
    "WinRate",
    "format_table",
    "play_match",
    "win_rates",
]
