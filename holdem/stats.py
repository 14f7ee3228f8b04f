"""Player statistics from a finished hand's public record: pure and I/O-free.

Only what was public at the table counts: the hand's events (actions, board,
cards shown at showdown) and the stacks. A seat's `hole_cards` in the record is
never read, so a folded or mucked hand stays unknown.

`player_hands(record)` gives each dealt seat's counts for one hand; counts add
up across hands (`StatCounts.__add__`), and `ratios` turns a sum into the usual
figures. Definitions (as the popular trackers use them):

- hands: hands dealt. A walk counts as a hand, but not as a preflop decision.
- VPIP / PFR: share of hands with a preflop decision in which the player put
  chips in voluntarily (a call, bet or raise; posting a blind is not) / raised.
- 3-bet: raised when facing exactly one raise preflop, of the times they faced it.
  Fold to 3-bet: the opening raiser folded when re-raised, of the times they were.
- AF: postflop bets and raises per call; AFq: bets and raises of all postflop
  bets, raises, calls and folds (checks excluded).
- c-bet: the last preflop raiser bet the flop when checked to (or acting first),
  of the flops they saw with that chance. Fold to c-bet: folded facing it.
- WTSD: of the flops seen, went to showdown (two or more players left at the end).
  W$SD: of the showdowns, won chips at it.
- won: chips (final stack minus starting stack), split into showdown and
  non-showdown hands, and in big blinds. all-in EV: the winnings with every hand
  whose chips all went in before the river, shown down, replaced by the equity
  of that moment (`holdem.showdown_equity`).
"""

from __future__ import annotations

import dataclasses
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field

from holdem.actions import EventKind, Street
from holdem.config import TableConfig
from holdem.history import HandRecord
from holdem.showdown_equity import pot_shares

_VOLUNTARY = frozenset(
    {EventKind.FOLD, EventKind.CHECK, EventKind.CALL, EventKind.BET, EventKind.RAISE}
)
_PUT_IN = frozenset(
    {EventKind.ANTE, EventKind.SMALL_BLIND, EventKind.BIG_BLIND, EventKind.STRADDLE, EventKind.CALL}
)


@dataclass(frozen=True)
class GameKey:
    """A game type and stakes: statistics are kept per key."""

    variant: str
    small_blind: int
    big_blind: int
    ante: int = 0

    @classmethod
    def of(cls, config: TableConfig) -> GameKey:
        return cls(str(config.variant), config.small_blind, config.big_blind, config.ante)

    @property
    def stakes(self) -> str:
        blinds = f"{self.small_blind}/{self.big_blind}"
        return f"{blinds} ante {self.ante}" if self.ante else blinds

    @property
    def slug(self) -> str:
        return f"{self.variant}:{self.small_blind}:{self.big_blind}:{self.ante}"


@dataclass(frozen=True)
class StatCounts:
    """Counters that add up across hands (the float ones are chips or big blinds)."""

    hands: int = 0
    preflop_decisions: int = 0
    vpip: int = 0
    pfr: int = 0
    three_bet_chances: int = 0
    three_bets: int = 0
    fold_to_three_bet_chances: int = 0
    folds_to_three_bet: int = 0
    postflop_aggressive: int = 0
    postflop_calls: int = 0
    postflop_folds: int = 0
    cbet_chances: int = 0
    cbets: int = 0
    fold_to_cbet_chances: int = 0
    folds_to_cbet: int = 0
    saw_flop: int = 0
    showdowns: int = 0
    showdowns_won: int = 0
    won: int = 0
    won_showdown: int = 0
    won_no_showdown: int = 0
    allin_ev: float = 0.0
    won_bb: float = 0.0
    won_showdown_bb: float = 0.0
    won_no_showdown_bb: float = 0.0
    allin_ev_bb: float = 0.0

    def __add__(self, other: StatCounts) -> StatCounts:
        return StatCounts(
            **{f.name: getattr(self, f.name) + getattr(other, f.name) for f in _FIELDS}
        )

    def as_dict(self) -> dict[str, float]:
        return {f.name: getattr(self, f.name) for f in _FIELDS}

    @classmethod
    def from_mapping(cls, values: Mapping[str, object]) -> StatCounts:
        """From a stored document; missing counters are 0 and other keys are ignored."""
        kept: dict[str, float] = {}
        for f in _FIELDS:
            value = values.get(f.name, 0)
            if isinstance(value, int | float) and not isinstance(value, bool):
                kept[f.name] = int(value) if f.type == "int" else float(value)
        return cls(**kept)  # type: ignore[arg-type]


_FIELDS = dataclasses.fields(StatCounts)
COUNTER_NAMES: tuple[str, ...] = tuple(f.name for f in _FIELDS)


@dataclass(frozen=True)
class PlayerHand:
    """One seat's part of one hand."""

    player_id: str
    name: str
    is_bot: bool
    seat: int
    game: GameKey
    counts: StatCounts
    net: int
    showdown: bool
    allin_ev: float  # the net, or its expectation when the chips all went in before the river


def _share(part: float, whole: float) -> float | None:
    return part / whole if whole else None


def ratios(c: StatCounts) -> dict[str, float | None]:
    """The usual figures of summed counts; None where there was no chance yet."""
    return {
        "vpip": _share(c.vpip, c.preflop_decisions),
        "pfr": _share(c.pfr, c.preflop_decisions),
        "three_bet": _share(c.three_bets, c.three_bet_chances),
        "fold_to_three_bet": _share(c.folds_to_three_bet, c.fold_to_three_bet_chances),
        "aggression_factor": _share(c.postflop_aggressive, c.postflop_calls),
        "aggression_frequency": _share(
            c.postflop_aggressive, c.postflop_aggressive + c.postflop_calls + c.postflop_folds
        ),
        "cbet": _share(c.cbets, c.cbet_chances),
        "fold_to_cbet": _share(c.folds_to_cbet, c.fold_to_cbet_chances),
        "wtsd": _share(c.showdowns, c.saw_flop),
        "wsd": _share(c.showdowns_won, c.showdowns),
        "bb_per_100": _share(100 * c.won_bb, c.hands),
        "allin_ev_bb_per_100": _share(100 * c.allin_ev_bb, c.hands),
    }


@dataclass
class _Seat:
    """What one seat did in the hand, gathered while reading the events."""

    counts: dict[str, int] = field(default_factory=dict)
    contributed: int = 0
    street_put_in: int = 0
    acted_on_flop: bool = False
    answered_cbet: bool = False
    faced_three_bet: bool = False
    faced_open: bool = False

    def mark(self, name: str) -> None:
        self.counts[name] = 1

    def add(self, name: str) -> None:
        self.counts[name] = self.counts.get(name, 0) + 1


def player_hands(record: HandRecord) -> list[PlayerHand]:
    """Each dealt seat's counts for this hand, from its public events only."""
    seats = {s.seat: _Seat() for s in record.seats}
    folded: set[int] = set()
    level = 1  # bets on this street; preflop the big blind is the first
    street = Street.PREFLOP
    open_raiser: int | None = None
    preflop_aggressor: int | None = None
    cbet_made = False
    board: list[str] = []
    board_at_last_action = 0
    saw_flop: set[int] = set()
    shown: dict[int, tuple[str, ...]] = {}
    won_chips: dict[int, int] = {}
    for event in record.events:
        who = seats.get(event.seat) if event.seat is not None else None
        kind = event.kind
        if kind is EventKind.BOARD and event.run:
            continue  # run it twice: a later run's cards (the first run's board counts)
        if kind is EventKind.BOARD:
            if not board:
                saw_flop = set(seats) - folded
            board.extend(event.cards)
            street = event.street
            level = 0
            for s in seats.values():
                s.street_put_in = 0
            continue
        if kind is EventKind.SHOW and event.seat is not None:
            shown[event.seat] = event.cards
            continue
        if kind is EventKind.WIN and event.seat is not None:
            won_chips[event.seat] = won_chips.get(event.seat, 0) + (event.amount or 0)
            continue
        if who is None or event.seat is None:
            continue
        amount = event.amount or 0
        if kind in _PUT_IN:
            who.contributed += amount
            if kind is not EventKind.ANTE:
                who.street_put_in += amount
        elif kind in (EventKind.BET, EventKind.RAISE):
            who.contributed += amount - who.street_put_in
            who.street_put_in = amount
        elif kind is EventKind.RETURN:
            who.contributed -= amount
        if kind not in _VOLUNTARY:
            continue
        board_at_last_action = len(board)
        aggressive = kind in (EventKind.BET, EventKind.RAISE)
        if kind is EventKind.FOLD:
            folded.add(event.seat)
        if street is Street.PREFLOP:
            who.mark("preflop_decisions")
            if kind in (EventKind.CALL, EventKind.RAISE, EventKind.BET):
                who.mark("vpip")
            if aggressive:
                who.mark("pfr")
            if level == 2 and not who.faced_open:
                who.faced_open = True
                who.mark("three_bet_chances")
                if aggressive:
                    who.mark("three_bets")
            if level == 3 and event.seat == open_raiser and not who.faced_three_bet:
                who.faced_three_bet = True
                who.mark("fold_to_three_bet_chances")
                if kind is EventKind.FOLD:
                    who.mark("folds_to_three_bet")
            if aggressive:
                level += 1
                preflop_aggressor = event.seat
                if level == 2:
                    open_raiser = event.seat
            continue
        if aggressive:
            who.add("postflop_aggressive")
        elif kind is EventKind.CALL:
            who.add("postflop_calls")
        elif kind is EventKind.FOLD:
            who.add("postflop_folds")
        if street is Street.FLOP:
            if event.seat == preflop_aggressor and not who.acted_on_flop and level == 0:
                who.mark("cbet_chances")
                if aggressive:
                    who.mark("cbets")
                    cbet_made = True
            elif cbet_made and level == 1 and not who.answered_cbet:
                who.answered_cbet = True
                who.mark("fold_to_cbet_chances")
                if kind is EventKind.FOLD:
                    who.mark("folds_to_cbet")
            who.acted_on_flop = True
        if aggressive:
            level += 1

    live = [s for s in seats if s not in folded]
    showdown = len(live) >= 2
    ev = _allin_ev(record, seats, live, shown, board[:board_at_last_action]) if showdown else {}
    game = GameKey.of(record.config)
    big_blind = record.config.big_blind
    out: list[PlayerHand] = []
    for rec in record.seats:
        tally = seats[rec.seat]
        net = rec.final_stack - rec.starting_stack
        went = showdown and rec.seat in live
        expected = ev.get(rec.seat, float(net))
        counts = dict(tally.counts)
        counts["hands"] = 1
        if rec.seat in saw_flop:
            counts["saw_flop"] = 1
            if went:
                counts["showdowns"] = 1
                if won_chips.get(rec.seat, 0) > 0:
                    counts["showdowns_won"] = 1
        out.append(
            PlayerHand(
                player_id=rec.player_id,
                name=rec.name,
                is_bot=rec.is_bot,
                seat=rec.seat,
                game=game,
                counts=StatCounts(
                    **counts,
                    won=net,
                    won_showdown=net if went else 0,
                    won_no_showdown=0 if went else net,
                    allin_ev=expected,
                    won_bb=net / big_blind,
                    won_showdown_bb=net / big_blind if went else 0.0,
                    won_no_showdown_bb=0.0 if went else net / big_blind,
                    allin_ev_bb=expected / big_blind,
                ),
                net=net,
                showdown=went,
                allin_ev=expected,
            )
        )
    return out


def _allin_ev(
    record: HandRecord,
    seats: Mapping[int, _Seat],
    live: list[int],
    shown: Mapping[int, tuple[str, ...]],
    board: list[str],
) -> dict[int, float]:
    """Expected net of the live seats when the board ran out after the last action.

    Empty unless cards were still to come after the last decision (so the live
    players were all in) and every live player's cards were shown.
    """
    if len(board) >= 5 or any(s not in shown for s in live):
        return {}
    contributed = {s: seats[s].contributed for s in seats}
    pots: list[tuple[int, list[int]]] = []
    below = 0
    for top in sorted({contributed[s] for s in live}):
        amount = sum(min(c, top) - min(c, below) for c in contributed.values())
        eligible = [i for i, s in enumerate(live) if contributed[s] >= top]
        if amount:
            pots.append((amount, eligible))
        below = top
    seed = zlib.crc32(f"{record.table_id}-{record.hand_no}".encode())
    shares = pot_shares([shown[s] for s in live], tuple(board), pots, seed)
    return {s: shares[i] - contributed[s] for i, s in enumerate(live)}
