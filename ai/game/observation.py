"""What a bot sees when it decides, and what it answers.

An `Observation` is one seat's knowledge at its turn: own cards, board, the
betting so far and its legal options. It is built either from the fast
simulator's state (arena, rollouts: `ai.bots.from_sim`) or from the TableView a
server sends (worker: `ai.bots.from_view`), so every bot runs unchanged in both.

Players are numbered by *index* as in ai.sim: 0 is the first seat left of the
button, the button is last (heads-up index 0 is the big blind). Cards are ints
(`holdem.cards.card_index`). Action kinds are ai.sim.rules' small ints.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ai.sim.rules import BET, CALL, CHECK, FOLD, KIND_TO_ACTION_KIND, RAISE, SimLegal
from ai.sim.state import SimState
from holdem.actions import Action, ActionKind

KIND_NAMES = ("fold", "check", "call", "bet", "raise")


class ActionRecord(NamedTuple):
    """One voluntary action of the hand, with what the actor faced before it."""

    player: int  # the actor's index
    street: int
    kind: int
    to: int  # street total after the action (bet/raise/call), 0 for fold/check
    to_call: int  # chips the actor had to add to call before acting
    pot: int  # chips in the middle before the action


@dataclass(slots=True)
class Observation:
    """Built once per decision; in the arena its sequences may alias the live simulator
    state (no copies on the hot path), so a bot must neither mutate nor keep them."""

    limit: bool
    big_blind: int
    index: int  # the deciding player's index
    seats: Sequence[int]  # table seat per index
    hole: tuple[int, int]
    board: tuple[int, ...]
    street: int  # ai.sim.rules PREFLOP..RIVER
    pot: int  # everything in the middle, this street's bets included
    legal: SimLegal
    stacks: Sequence[int]  # chips behind, per index
    bets: Sequence[int]  # this street's chips in front, per index
    collected: Sequence[int]  # chips of earlier streets already in the pot, per index
    in_hand: Sequence[bool]  # not folded, per index
    n_in_hand: int  # players not folded, the decider included
    history: Sequence[ActionRecord]
    # Bet size per street: Limit's small, small, big, big bets (No-Limit: the big blind).
    bet_units: tuple[int, int, int, int]
    # Identifies the hand for per-hand caches (opponent weight tables).
    hand_key: Hashable = 0
    # Stable per-index player ids, for opponent statistics across hands.
    players: Sequence[str] = ()
    # The simulator state behind this observation, for search bots (poki). Its hidden
    # cards are the arena's real ones or the worker's placeholders: a bot may only use
    # it after re-dealing everything it cannot see (SimState.set_cards).
    sim: SimState | None = None

    @property
    def n(self) -> int:
        return len(self.seats)

    @property
    def seat(self) -> int:
        return self.seats[self.index]

    @property
    def to_call(self) -> int:
        return self.legal.call_amount

    @property
    def bet_unit(self) -> int:
        return self.bet_units[self.street]

    @property
    def n_opponents(self) -> int:
        """Opponents still in the hand (all-in ones included)."""
        return self.n_in_hand - 1

    @property
    def opponents(self) -> tuple[int, ...]:
        """Indices of the other players still in the hand (all-in ones included)."""
        return tuple(i for i in range(self.n) if i != self.index and self.in_hand[i])

    @property
    def pot_odds(self) -> float:
        """to_call / (to_call + pot): the share of the final pot a call must win."""
        call = self.legal.call_amount
        return call / (call + self.pot) if call else 0.0

    def invested(self, index: int) -> int:
        """Chips `index` has put in this hand, this street's bet included."""
        return self.collected[index] + self.bets[index]

    def raises_this_street(self) -> int:
        """Bets and raises so far this street (preflop the big blind counts as the first bet)."""
        count = sum(1 for a in self.history if a.street == self.street and a.kind >= BET)
        return count + (1 if self.street == 0 else 0)

    def player_id(self, index: int) -> str:
        return self.players[index] if self.players else f"seat{self.seats[index]}"


@dataclass(slots=True)  # not frozen: built once per decision, frozen init costs more
class Decision:
    """A bot's answer: an action kind of ai.sim.rules and, for bet/raise, the street total.

    The optional fields carry the reasoning for advice: each candidate's value in
    big blinds, the equity/EHS used and a one-line reason a player understands.
    """

    kind: int
    to: int = 0
    reason: str = ""
    values: dict[str, float] | None = None
    equity: float | None = None
    ehs: float | None = None
    # Per value label, from a search: (standard error in big blinds, share of the iterations).
    spread: dict[str, tuple[float, float]] | None = None
    # Per value label, from a search: the share of its simulated hands every opponent
    # folded (the prize-equity valuation near the money spreads the value over it).
    folds: dict[str, float] | None = None

    def to_action(self) -> Action:
        kind: ActionKind = KIND_TO_ACTION_KIND[self.kind]
        return Action(kind=kind, amount=self.to if self.kind >= BET else None)

    @property
    def name(self) -> str:
        return KIND_NAMES[self.kind]

    def is_legal(self, legal: SimLegal) -> bool:
        if self.kind == FOLD:
            return legal.can_fold
        if self.kind == CHECK:
            return legal.can_check
        if self.kind == CALL:
            return legal.can_call
        if self.kind in (BET, RAISE):
            return legal.raise_kind == self.kind and legal.min_to <= self.to <= legal.max_to
        return False
