"""The seven personalities of DOMAIN.md §5: fold/call/raise from p, pot, to-call, already-in.

p is the win probability against random hands of the active opponents
(`WinProbability`). The rational core: calling costs `to_call` and wins
p * (pot + to_call) on average, so it calls when that is positive and raises
when p clearly beats its fair share 1/(players). Aggressive inflates p (plays
weak hands), cautious deflates it (plays only strong hands); both keep the
same core so the difference is only temperament.
"""

from __future__ import annotations

import random

from ai.bots.base import Bot
from ai.bots.settings import PLAIN, BotSettings
from ai.bots.sizing import ALL_IN, HALF_POT, NL_SIZES, POT, aggressive, fold, passive
from ai.game.observation import Decision, Observation
from ai.math.random_equity import WinProbability


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


class EquityBot(Bot):
    """Rational: call when p pays for the call, raise when the hand is clearly strong."""

    style = "rational"
    shift = 0.0  # added to the per-opponent strength e (inflate > 0, deflate < 0)
    raise_at = 0.72  # raise when e' >= this (pot-sized above raise_big)
    raise_big = 0.85
    call_margin = 0.0  # share of the call a call must win on top of breaking even
    # Already-in: once this share of the stack is in, a call at break-even is enough.
    committed_share = 0.6

    def __init__(self, seed: int = 0, settings: BotSettings = PLAIN) -> None:
        super().__init__(seed, settings)
        self.win_probability = WinProbability(seed=seed)

    def decide(self, obs: Observation) -> Decision:
        opponents = max(obs.n_opponents, 1)
        p = self.win_probability(obs.hole, obs.board, opponents)
        # e = p^(1/n) is about the equity against one random hand, whatever the table size,
        # so one set of thresholds serves heads-up and 10-handed; the temperament shifts it.
        e = min(1.0, max(0.0, p ** (1.0 / opponents) + self.shift))
        q = e**opponents
        legal = obs.legal
        explain = self.explain  # reasons cost time; only advice needs them
        if e >= self.raise_at and legal.raise_kind is not None:
            size = ALL_IN if e >= 0.95 else (POT if e >= self.raise_big else HALF_POT)
            whom = "a random hand" if opponents == 1 else f"{opponents} random hands"
            why = f"Raise: {_pct(p)} to win against {whom}" if explain else ""
            return aggressive(obs, size, why, p)
        call = legal.call_amount
        if call == 0:
            why = f"Check: {_pct(p)} to win does not justify a bet" if explain else ""
            return passive(legal, why, p)
        # The pot at showdown if everyone still in matches the current bet: what p wins.
        final = obs.pot + call + self.callers_to_come(obs)
        invested = obs.invested(obs.index)
        committed = invested >= self.committed_share * (invested + legal.stack)
        margin = 0.0 if committed else self.call_margin
        if q * final >= call * (1 + margin):
            why = f"Call: {_pct(p)} to win, pot odds {_pct(call / final)}" if explain else ""
            return passive(legal, why, p)
        why = f"Fold: {_pct(p)} to win does not pay {call} into {final}" if explain else ""
        return fold(legal, why, p)

    @staticmethod
    def callers_to_come(obs: Observation) -> int:
        """Chips the other players still in would add by calling the current bet."""
        top = obs.legal.committed + obs.legal.call_amount
        extra = 0
        me = obs.index
        for i, (bet, stack, live) in enumerate(zip(obs.bets, obs.stacks, obs.in_hand, strict=True)):
            if live and stack and bet < top and i != me:
                extra += min(top - bet, stack)
        return extra


class AggressiveBot(EquityBot):
    """Inflates p: plays and raises weak hands."""

    style = "aggressive"
    shift = 0.07
    raise_at = 0.62


class CautiousBot(EquityBot):
    """Deflates p: plays only strong hands."""

    style = "cautious"
    shift = -0.05
    raise_at = 0.78
    call_margin = 0.1


class AlwaysRaiseBot(Bot):
    style = "always-raise"

    def decide(self, obs: Observation) -> Decision:
        return aggressive(obs, POT, "Raise: always")


class CallingStationBot(Bot):
    style = "calling-station"

    def decide(self, obs: Observation) -> Decision:
        return passive(obs.legal, "Call: always")


class AlwaysFoldBot(Bot):
    style = "always-fold"

    def decide(self, obs: Observation) -> Decision:
        return fold(obs.legal, "Fold: always (check when free)")


class RandomBot(Bot):
    """A uniform choice among the legal kinds; No-Limit sizes drawn from the pot-relative set."""

    style = "random"

    def __init__(self, seed: int = 0, settings: BotSettings = PLAIN) -> None:
        super().__init__(seed, settings)
        self.rng = random.Random(seed)

    def decide(self, obs: Observation) -> Decision:
        legal = obs.legal
        kind = self.rng.choice(legal.kinds)
        if kind == legal.raise_kind:
            return aggressive(obs, self.rng.choice(NL_SIZES), "Random")
        return Decision(kind, reason="Random")
