"""Two-player zero-sum games with chance and imperfect information, OpenSpiel style.

A game is only its rules: the solvers (`ai.policy.cfr`) see states through `State` and
never a game's internals, so a new game is a new `State` class and nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

CHANCE = -1  # current_player() at a chance node
TERMINAL = -2  # current_player() at a terminal node


class State(Protocol):
    """One history of the game; immutable (`child` returns a new state)."""

    def current_player(self) -> int:
        """0 or 1 to act, CHANCE, or TERMINAL."""
        ...

    def legal_actions(self) -> Sequence[int]:
        """The actions of the player to act (ints, the same set within an information set)."""
        ...

    def chance_outcomes(self) -> Sequence[tuple[int, float]]:
        """(outcome, probability) at a chance node."""
        ...

    def child(self, action: int) -> State: ...

    def information_set(self) -> str:
        """What the player to act knows: equal strings are one information set."""
        ...

    def returns(self) -> float:
        """Player 0's payoff at a terminal state (player 1 gets the negative)."""
        ...


class Game(Protocol):
    name: str

    def initial_state(self) -> State: ...

    def action_name(self, action: int) -> str: ...
