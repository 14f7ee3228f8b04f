"""Kuhn poker: three cards (J, Q, K), one each, ante 1, one bet of 1, one betting round.

Actions: 0 = pass (check/fold), 1 = bet (bet/call). The equilibrium value for the first
player is -1/18 (Kuhn, 1950), a standard check for a solver.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ai.policy.games import CHANCE, TERMINAL

PASS, BET = 0, 1
CARDS = "JQK"
GAME_VALUE = -1.0 / 18.0  # player 0's value at any equilibrium


@dataclass(frozen=True, slots=True)
class KuhnState:
    cards: tuple[int, ...] = ()
    history: str = ""  # "p" / "b" per action

    def current_player(self) -> int:
        if len(self.cards) < 2:
            return CHANCE
        if self._terminal():
            return TERMINAL
        return len(self.history) % 2

    def _terminal(self) -> bool:
        return self.history in ("pp", "bp", "bb", "pbp", "pbb")

    def legal_actions(self) -> Sequence[int]:
        return (PASS, BET)

    def chance_outcomes(self) -> Sequence[tuple[int, float]]:
        left = [c for c in range(3) if c not in self.cards]
        return [(c, 1.0 / len(left)) for c in left]

    def child(self, action: int) -> KuhnState:
        if len(self.cards) < 2:
            return KuhnState((*self.cards, action), self.history)
        return KuhnState(self.cards, self.history + "pb"[action])

    def information_set(self) -> str:
        return f"{CARDS[self.cards[len(self.history) % 2]]}{self.history}"

    def returns(self) -> float:
        h = self.history
        if h == "bp":
            return 1.0
        if h == "pbp":
            return -1.0
        stake = 2.0 if "b" in h else 1.0
        return stake if self.cards[0] > self.cards[1] else -stake


class KuhnPoker:
    name = "kuhn"

    def initial_state(self) -> KuhnState:
        return KuhnState()

    def action_name(self, action: int) -> str:
        return ("pass", "bet")[action]
