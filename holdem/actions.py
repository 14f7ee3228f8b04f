"""What a player may do, and the public record of what happened in a hand.

>>> Action.raise_to(600)
Action(kind=<ActionKind.RAISE: 'raise'>, amount=600)
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from holdem.wire_enum import WireEnum


class Street(WireEnum):
    PREFLOP = "preflop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"
    SHOWDOWN = "showdown"


STREETS_IN_ORDER: tuple[Street, ...] = tuple(Street)


class ActionKind(WireEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"


class Action(BaseModel):
    """A player's intention. For bet and raise, `amount` is the total to (this street)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: ActionKind
    amount: int | None = None

    @classmethod
    def fold(cls) -> Action:
        return cls(kind=ActionKind.FOLD)

    @classmethod
    def check(cls) -> Action:
        return cls(kind=ActionKind.CHECK)

    @classmethod
    def call(cls) -> Action:
        return cls(kind=ActionKind.CALL)

    @classmethod
    def bet(cls, to: int) -> Action:
        return cls(kind=ActionKind.BET, amount=to)

    @classmethod
    def raise_to(cls, to: int) -> Action:
        return cls(kind=ActionKind.RAISE, amount=to)


class LegalActions(BaseModel):
    """The actor's options with exact amounts. Amounts are street totals ("to")."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int
    can_fold: bool
    can_check: bool
    # Chips the call adds (may be less than the bet when it puts the caller all-in).
    call_amount: int
    can_call: bool
    # BET when nobody has bet this street, RAISE otherwise; None when no bet/raise is allowed.
    raise_kind: ActionKind | None
    min_to: int | None
    max_to: int | None
    # Chips already in front of the actor this street, so `to - committed` is what a raise adds.
    committed: int
    stack: int

    @property
    def kinds(self) -> tuple[ActionKind, ...]:
        kinds: list[ActionKind] = []
        if self.can_fold:
            kinds.append(ActionKind.FOLD)
        if self.can_check:
            kinds.append(ActionKind.CHECK)
        if self.can_call:
            kinds.append(ActionKind.CALL)
        if self.raise_kind is not None:
            kinds.append(self.raise_kind)
        return tuple(kinds)


class EventKind(WireEnum):
    ANTE = "ante"
    SMALL_BLIND = "small_blind"
    BIG_BLIND = "big_blind"
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    BOARD = "board"
    RETURN = "return"  # uncalled bet returned
    SHOW = "show"
    MUCK = "muck"
    WIN = "win"
    STRADDLE = "straddle"  # a live straddle, posted like a third blind
    RUNOUTS = "runouts"  # everyone all-in agreed: `amount` runs of the board


class HandEvent(BaseModel):
    """One public event of a hand. Never carries unrevealed hole cards.

    amount: chips posted/called/returned/won; for bet and raise, the street total "to".
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: EventKind
    street: Street
    seat: int | None = None
    amount: int | None = None
    cards: tuple[str, ...] = ()
    all_in: bool = False
    pot_index: int | None = None
    # Run it twice or three times: the run (0 first) a board card or a win belongs to.
    run: int | None = None
