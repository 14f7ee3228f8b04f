"""The external opponents by name, and the one factory a gauntlet match builds players with.

Each opponent is an agent a public package ships, behind an adapter of this
package; the package comes with the `gauntlet` extra (`pip install -e '.[gauntlet]'`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ai.bots import Bot, make_bot
from holdem.config import Variant


@dataclass(frozen=True, slots=True)
class Opponent:
    name: str
    package: str  # the PyPI distribution, pinned in the gauntlet extra
    agent: str  # the agent as that package names it
    summary: str
    games: tuple[Variant, ...]
    make: Callable[[int], Bot]

    def plays(self, game: Variant) -> bool:
        return game in self.games


def _rlcard_limit_rule(seed: int) -> Bot:
    from ai.gauntlet.rlcard_agents import RlcardLimitRuleAgent

    return RlcardLimitRuleAgent(seed)


def _rlcard_random(seed: int) -> Bot:
    from ai.gauntlet.rlcard_agents import RlcardRandomAgent

    return RlcardRandomAgent(seed)


def _texasholdem_random(seed: int) -> Bot:
    from ai.gauntlet.texasholdem_agents import TexasholdemRandomAgent

    return TexasholdemRandomAgent(seed)


def _texasholdem_call(seed: int) -> Bot:
    from ai.gauntlet.texasholdem_agents import TexasholdemCallAgent

    return TexasholdemCallAgent(seed)


_BOTH = (Variant.LIMIT, Variant.NO_LIMIT)
OPPONENTS: dict[str, Opponent] = {
    o.name: o
    for o in (
        Opponent(
            "rlcard-limit-rule",
            "rlcard",
            "limit-holdem-rule-v1 (LimitholdemRuleAgentV1)",
            "hand rules: raises pairs, AK-AT, suited aces and two Broadway cards, "
            "later raises when the board connects, else calls or folds",
            (Variant.LIMIT,),
            _rlcard_limit_rule,
        ),
        Opponent(
            "rlcard-random",
            "rlcard",
            "RandomAgent",
            "uniform over rlcard's legal actions (Limit: call/raise/fold/check; No-Limit: "
            "fold, check-call, half pot, pot, all-in)",
            _BOTH,
            _rlcard_random,
        ),
        Opponent(
            "texasholdem-random",
            "texasholdem",
            "agents.random_agent",
            "uniform over the action types (fold included), raises to a uniform total "
            "between the minimum raise and all-in",
            (Variant.NO_LIMIT,),
            _texasholdem_random,
        ),
        Opponent(
            "texasholdem-call",
            "texasholdem",
            "agents.call_agent",
            "calls every bet, checks otherwise",
            (Variant.NO_LIMIT,),
            _texasholdem_call,
        ),
    )
}


# Our styles a gauntlet may seat as opponents: the self-play blueprint (learned with no
# reference to any built-in bot) and the card-blind uniform `random`. Neither brings back
# the house bots the defaults were tuned on (issue #33's training set).
BASELINE_OPPONENTS: tuple[str, ...] = ("blueprint", "random")


def make_player(name: str, seed: int = 0) -> Bot:
    """An external opponent by its name here, else one of our styles (`make_bot`)."""
    opponent = OPPONENTS.get(name)
    return opponent.make(seed) if opponent is not None else make_bot(name, seed)
