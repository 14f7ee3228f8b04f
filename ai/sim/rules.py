"""Per-table constants the simulator needs, and its compact action vocabulary.

Action kinds are small ints (not enums) because the simulator's hot loops compare
them millions of times; `KIND_TO_ACTION_KIND` converts at the edges.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from holdem.actions import Action, ActionKind, EventKind, HandEvent, LegalActions
from holdem.config import Straddle, TableConfig

FOLD, CHECK, CALL, BET, RAISE = 0, 1, 2, 3, 4
# SimLegal.kinds by (facing a bet, raise kind): built once, shared by every state.
KINDS_TABLE: dict[tuple[bool, int | None], tuple[int, ...]] = {
    (False, None): (CHECK,),
    (False, BET): (CHECK, BET),
    (False, RAISE): (CHECK, RAISE),
    (True, None): (FOLD, CALL),
    (True, BET): (FOLD, CALL, BET),
    (True, RAISE): (FOLD, CALL, RAISE),
}
KIND_TO_ACTION_KIND: tuple[ActionKind, ...] = (
    ActionKind.FOLD,
    ActionKind.CHECK,
    ActionKind.CALL,
    ActionKind.BET,
    ActionKind.RAISE,
)
ACTION_KIND_TO_KIND: dict[ActionKind, int] = {k: i for i, k in enumerate(KIND_TO_ACTION_KIND)}

PREFLOP, FLOP, TURN, RIVER, SHOWDOWN = 0, 1, 2, 3, 4
BOARD_SIZE_BY_STREET = (0, 3, 4, 5, 5)


class SimAction(NamedTuple):
    """`kind` is one of FOLD..RAISE; `to` is the street total for BET/RAISE (ignored otherwise)."""

    kind: int
    to: int = 0

    @classmethod
    def from_action(cls, action: Action) -> SimAction:
        return cls(ACTION_KIND_TO_KIND[action.kind], action.amount or 0)

    def to_action(self) -> Action:
        kind = KIND_TO_ACTION_KIND[self.kind]
        return Action(kind=kind, amount=self.to if self.kind >= BET else None)


@dataclass(frozen=True, slots=True)
class Rules:
    """The numbers of a TableConfig the betting needs, fetched once per table."""

    is_limit: bool
    small_blind: int
    big_blind: int
    ante: int
    # Smallest bet/raise increment per street (NL: the big blind; FL: small, small, big, big).
    min_increment: tuple[int, int, int, int]
    # Bets/raises allowed per street after the blinds, as pokerkit counts them; -1 = uncapped.
    max_raises: tuple[int, int, int, int]
    # The big blind posts `ante` alone, for the whole table (tournaments), never trimmed.
    big_blind_ante: bool = False
    # Home-game rules of one hand, as holdem.hand plays them: a live straddle of two big
    # blinds (UTG: index 2; BUTTON: the last index), the preflop raise then by at least
    # the straddle; a bomb pot: `ante` (the bomb pot's) from every seat, trimmed like a
    # uniform ante, no blinds, and the preflop checked through to the flop.
    straddle: Straddle = Straddle.OFF
    bomb_pot: bool = False

    @classmethod
    def of(cls, config: TableConfig, straddle: bool = False, bomb_pot: bool = False) -> Rules:
        """The table's rules; for a hand with a straddle or a bomb pot, that hand's."""
        return _rules(config, straddle, bomb_pot)

    @classmethod
    def of_hand(cls, config: TableConfig, events: Iterable[HandEvent]) -> Rules:
        """The rules a hand was dealt under, read from its public events: a straddle
        posted, or a bomb pot (antes and no blind or straddle at all). A missing big
        blind alone is no bomb pot: with a big-blind ante a short big blind can be all
        in on the ante, and a straddle is never posted in a bomb pot.

        >>> from holdem.actions import HandEvent
        >>> from holdem.config import Straddle, TableConfig, Variant
        >>> cfg = TableConfig(variant=Variant.NO_LIMIT, seats=6, small_blind=1, big_blind=2,
        ...                   straddle=Straddle.UTG, bomb_pot_ante=4, bomb_pot_every=3)
        >>> short_big_blind = [HandEvent(kind=k, street="preflop", seat=s, amount=2)
        ...                    for k, s in (("ante", 3), ("small_blind", 2), ("straddle", 4))]
        >>> rules = Rules.of_hand(cfg, short_big_blind)
        >>> rules.bomb_pot, rules.straddle is Straddle.UTG
        (False, True)
        >>> antes = [HandEvent(kind="ante", street="preflop", seat=s, amount=4) for s in (1, 2)]
        >>> Rules.of_hand(cfg, antes).bomb_pot
        True
        """
        kinds = {e.kind for e in events}
        posted = {EventKind.SMALL_BLIND, EventKind.BIG_BLIND, EventKind.STRADDLE}
        bomb_pot = bool(config.bomb_pot_ante) and EventKind.ANTE in kinds
        bomb_pot = bomb_pot and not kinds & posted
        return _rules(config, EventKind.STRADDLE in kinds, bomb_pot)


@lru_cache(maxsize=256)
def _rules(config: TableConfig, straddle: bool = False, bomb_pot: bool = False) -> Rules:
    if straddle and (bomb_pot or config.straddle is Straddle.OFF):
        raise ValueError("a straddle needs a straddle table and no bomb pot")
    if config.is_limit:
        small, big = config.small_bet, config.big_bet
        cap = config.raise_cap
        # The casino cap counts the big blind as the opening bet (see holdem.hand).
        preflop = -1 if cap is None else cap - 1
        later = -1 if cap is None else cap
    else:
        small = big = config.big_blind
        preflop = later = -1
    # A straddle is the biggest blind: a raise preflop is by at least the straddle.
    preflop_min = 2 * config.big_blind if straddle else small
    return Rules(
        is_limit=config.is_limit,
        small_blind=config.small_blind,
        big_blind=config.big_blind,
        ante=config.bomb_pot_ante if bomb_pot else config.ante,
        min_increment=(preflop_min, small, big, big),
        max_raises=(preflop, later, later, later),
        big_blind_ante=config.big_blind_ante and not bomb_pot,
        straddle=config.straddle if straddle else Straddle.OFF,
        bomb_pot=bomb_pot,
    )


class SimLegal(NamedTuple):
    """The actor's options with exact amounts; same meaning as holdem's LegalActions.

    `raise_kind` is BET, RAISE or None; `min_to`/`max_to` are street totals (0 when no
    bet/raise is allowed); `player` is the actor's index (0 = first seat left of the button);
    `kinds` lists the allowed kinds (FOLD..RAISE) in that order.
    """

    player: int
    seat: int
    can_fold: bool
    can_check: bool
    call_amount: int
    can_call: bool
    raise_kind: int | None
    min_to: int
    max_to: int
    committed: int
    stack: int
    kinds: tuple[int, ...]

    def to_legal_actions(self) -> LegalActions:
        kind = self.raise_kind
        can_raise = kind is not None
        return LegalActions(
            seat=self.seat,
            can_fold=self.can_fold,
            can_check=self.can_check,
            call_amount=self.call_amount,
            can_call=self.can_call,
            raise_kind=KIND_TO_ACTION_KIND[kind] if kind is not None else None,
            min_to=self.min_to if can_raise else None,
            max_to=self.max_to if can_raise else None,
            committed=self.committed,
            stack=self.stack,
        )
