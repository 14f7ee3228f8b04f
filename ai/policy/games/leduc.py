"""Leduc hold'em (Southey et al., 2005): six cards (J, Q, K in two suits), ante 1 each.

One private card each, a betting round, one public card, a second round. Bets are 2 in
the first round and 4 in the second, at most two bets a round (a bet and a raise);
player 0 acts first in both. A pair with the public card wins, else the higher card;
equal ranks split. Actions: 0 = fold, 1 = check/call, 2 = bet/raise.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ai.policy.games import CHANCE, TERMINAL

FOLD, CALL, RAISE = 0, 1, 2
RANKS = "JQK"
BET_SIZE = (2, 4)
MAX_BETS = 2


def rank(card: int) -> int:
    return card // 2  # cards 0..5: J J Q Q K K


@dataclass(frozen=True, slots=True)
class LeducState:
    cards: tuple[int, ...] = ()  # private 0, private 1, then the public card
    rounds: tuple[str, ...] = ("",)  # "c"/"r"/"f" per action, one string per round

    @property
    def _round(self) -> int:
        return len(self.rounds) - 1

    def _round_over(self, h: str) -> bool:
        return h in ("cc",) or (len(h) >= 2 and h.endswith("rc"))

    def current_player(self) -> int:
        if len(self.cards) < 2 or (len(self.cards) == 2 and self._round == 1):
            return CHANCE
        h = self.rounds[-1]
        if h.endswith("f") or (self._round == 1 and self._round_over(h)):
            return TERMINAL
        return len(h) % 2

    def legal_actions(self) -> Sequence[int]:
        h = self.rounds[-1]
        facing = h.endswith("r")
        bets = h.count("r")
        actions = [FOLD] if facing else []
        actions.append(CALL)
        if bets < MAX_BETS:
            actions.append(RAISE)
        return actions

    def chance_outcomes(self) -> Sequence[tuple[int, float]]:
        left = [c for c in range(6) if c not in self.cards]
        return [(c, 1.0 / len(left)) for c in left]

    def child(self, action: int) -> LeducState:
        if self.current_player() == CHANCE:
            return LeducState((*self.cards, action), self.rounds)
        h = self.rounds[-1] + "fcr"[action]
        rounds = (*self.rounds[:-1], h)
        if self._round == 0 and self._round_over(h):
            rounds = (*rounds, "")
        return LeducState(self.cards, rounds)

    def information_set(self) -> str:
        player = len(self.rounds[-1]) % 2
        public = RANKS[rank(self.cards[2])] if len(self.cards) > 2 else ""
        return f"{RANKS[rank(self.cards[player])]}{public}:{'/'.join(self.rounds)}"

    def _contributions(self) -> list[int]:
        put = [1, 1]
        for r, h in enumerate(self.rounds):
            street = [0, 0]
            for i, a in enumerate(h):
                p = i % 2
                if a == "c":
                    street[p] = street[1 - p]
                elif a == "r":
                    street[p] = street[1 - p] + BET_SIZE[r]
            put[0] += street[0]
            put[1] += street[1]
        return put

    def returns(self) -> float:
        put = self._contributions()
        h = self.rounds[-1]
        if h.endswith("f"):
            folder = (len(h) - 1) % 2
            return float(-put[0] if folder == 0 else put[1])
        a, b, pub = rank(self.cards[0]), rank(self.cards[1]), rank(self.cards[2])
        score_a = 10 + a if a == pub else a
        score_b = 10 + b if b == pub else b
        if score_a == score_b:
            return 0.0
        return float(put[1] if score_a > score_b else -put[0])


class LeducPoker:
    name = "leduc"

    def initial_state(self) -> LeducState:
        return LeducState()

    def action_name(self, action: int) -> str:
        return ("fold", "call", "raise")[action]
