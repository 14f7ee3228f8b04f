"""One hand of Texas Hold'em: pokerkit's state machine, seated at our table.

pokerkit numbers players from the first seat left of the button (index 0) to the
button (last index); heads-up it swaps the blinds itself so the button posts the
small blind. `Hand` maps our seat numbers onto that order, deals from our own
deck (pokerkit's shuffle is never used), turns pokerkit's operations into
public `HandEvent`s and gives every illegal action a message a player understands.

Each action comes as a triple, as in pokerkit: `verify(seat, action)` raises,
`can(seat, action)` answers, `act(seat, action)` applies.

>>> from holdem.config import TableConfig, Variant
>>> from holdem.cards import ScriptedDeck
>>> cfg = TableConfig(variant=Variant.NO_LIMIT, seats=6, small_blind=1, big_blind=2)
>>> hand = Hand(cfg, {1: 200, 3: 200, 5: 200}, button=5, deck=ScriptedDeck([]))
>>> hand.actor  # seat 1 is the small blind, 3 the big blind, 5 (button) acts first
5
>>> hand.act(5, Action.raise_to(6)); hand.act(1, Action.fold()); hand.act(3, Action.fold())
>>> hand.is_over, hand.stacks
(True, {1: 199, 3: 198, 5: 203})
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any, cast

import pokerkit as pk

from holdem.actions import (
    Action,
    ActionKind,
    EventKind,
    HandEvent,
    LegalActions,
    Street,
)
from holdem.cards import FULL_DECK, Deck
from holdem.config import Straddle, TableConfig
from holdem.errors import HandOverError, IllegalActionError, NotYourTurnError

_AUTOMATIONS = (
    pk.Automation.ANTE_POSTING,
    pk.Automation.BET_COLLECTION,
    pk.Automation.BLIND_OR_STRADDLE_POSTING,
    pk.Automation.RUNOUT_COUNT_SELECTION,
    pk.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    pk.Automation.HAND_KILLING,
    pk.Automation.CHIPS_PUSHING,
    pk.Automation.CHIPS_PULLING,
)
# Run it twice or three times: the players all-in choose the runs (pokerkit asks them).
_AUTOMATIONS_WITH_RUNOUT_CHOICE = tuple(
    a for a in _AUTOMATIONS if a is not pk.Automation.RUNOUT_COUNT_SELECTION
)
_POSTFLOP = (Street.FLOP, Street.TURN, Street.RIVER)
# Each run after the first deals at most three burns and five board cards more.
_CARDS_PER_EXTRA_RUN = 8


class _HighHand(pk.StandardHighHand):
    """pokerkit's high hand, ranked once per holding and board.

    At a showdown pokerkit asks for every player's best hand about twenty times
    (who can still win, who shows, whose hand is killed, who is paid), each time
    ranking all 21 five-card combinations and looking their entry up again on
    every comparison. The cards decide the answer, so both are memoized.
    """

    @classmethod
    def from_game(cls, hole_cards: pk.CardsLike, board_cards: pk.CardsLike = ()) -> pk.Hand:
        return _best_hand(tuple(pk.Card.clean(hole_cards)), tuple(pk.Card.clean(board_cards)))

    @functools.cached_property
    def entry(self) -> pk.lookups.Entry:
        return self.lookup.get_entry(self.cards)


@functools.lru_cache(maxsize=4096)
def _best_hand(hole: tuple[pk.Card, ...], board: tuple[pk.Card, ...]) -> pk.Hand:
    cards = hole + board
    if len(cards) < _HighHand.card_count:
        return super(_HighHand, _HighHand).from_game(hole, board)
    # pokerkit builds a hand object per combination and compares them, looking each
    # entry up again every time; looking each up once and building only the best one
    # picks the same hand (max keeps the first of equals, as pokerkit does).
    lookup = _HighHand.lookup
    best = max(combinations(cards, _HighHand.card_count), key=lookup.get_entry)
    return _HighHand(best)


# pokerkit's card objects, parsed once: it re-parses strings on every deal.
_PK_CARD: dict[str, pk.Card] = {text: next(iter(pk.Card.parse(text))) for text in FULL_DECK}
# The most cards a hold'em hand deals besides hole cards (three burns and the board),
# plus one that is never dealt: pokerkit warns when asked about a burn with none left.
_BURNS_BOARD_AND_SPARE = 9


def _pokerkit_streets(config: TableConfig, straddle: bool = False) -> tuple[pk.Street, ...]:
    """The four betting rounds, with our raise cap instead of pokerkit's default.

    pokerkit counts completions/raises after the blinds; the casino cap counts the
    big blind as the opening bet, so preflop allows one raise fewer than later streets.
    """
    if config.is_limit:
        cap = config.raise_cap
        preflop_max = None if cap is None else cap - 1
        later_max = cap
        small, big = config.small_bet, config.big_bet
    else:
        preflop_max = later_max = None
        small = big = config.big_blind
    # A straddle is the biggest blind: a raise preflop is by at least the straddle.
    preflop_min = 2 * config.big_blind if straddle else small
    opening = pk.Opening.POSITION
    return (
        pk.Street(False, (False, False), 0, False, opening, preflop_min, preflop_max),
        pk.Street(True, (), 3, False, opening, small, later_max),
        pk.Street(True, (), 1, False, opening, big, later_max),
        pk.Street(True, (), 1, False, opening, big, later_max),
    )


def _blinds(config: TableConfig, players: int, straddle: bool) -> tuple[int, ...]:
    """pokerkit's blinds or straddles: a straddle of two big blinds under the gun (index 2)
    or on the button (the last index), whose blind then acts last preflop."""
    blinds = [config.small_blind, config.big_blind] + [0] * (players - 2)
    if straddle:
        blinds[2 if config.straddle is Straddle.UTG else players - 1] = 2 * config.big_blind
    return tuple(blinds)


def _antes(config: TableConfig, players: int) -> tuple[bool, int | tuple[int, ...]]:
    """pokerkit's ante trimming status and antes for this table.

    A uniform ante is trimmed (nobody antes more than another could match). A
    big-blind ante sits at index 1, which pokerkit gives to the big blind also
    heads-up, and is never trimmed: trimming would hand a lone ante straight back.
    """
    if config.big_blind_ante:
        return False, (0, config.ante) + (0,) * (players - 2)
    return True, config.ante


@dataclass(frozen=True, slots=True)
class Pot:
    amount: int
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a finished hand ended: every seat's stack and net, and who won what."""

    starting_stacks: Mapping[int, int]
    final_stacks: Mapping[int, int]
    winnings: Mapping[int, int]  # chips pushed to each seat from the pots
    shown: Mapping[int, tuple[str, ...]]  # hole cards revealed at showdown
    board: tuple[str, ...]
    # Every run's board when the board was run more than once (the first is `board`).
    boards: tuple[tuple[str, ...], ...] = ()

    @property
    def net(self) -> dict[int, int]:
        return {s: self.final_stacks[s] - self.starting_stacks[s] for s in self.final_stacks}


def seats_in_pokerkit_order(seats: list[int], button: int, table_size: int) -> tuple[int, ...]:
    """Seats clockwise from the first one left of the button; the button comes last.

    >>> seats_in_pokerkit_order([1, 4, 7], button=4, table_size=9)
    (7, 1, 4)
    """
    if button not in seats:
        raise ValueError("the button must be on a seat that plays the hand")
    return tuple(sorted(seats, key=lambda s: (s - button - 1) % table_size))


class Hand:
    """A single hand between 2..10 seats, from the blinds to the last chip pushed.

    Home-game rules: `straddle` posts the table's live straddle (three or more
    players, no-limit); `bomb_pot` replaces blinds and antes with the table's bomb
    pot ante from every seat and starts the hand on the flop. With `run_it_max`
    above 1, players all-in before the river vote on the runs (`vote_runouts`);
    pots are split per run, an odd chip to the first run (pokerkit's rule).
    """

    def __init__(
        self,
        config: TableConfig,
        stacks: Mapping[int, int],
        button: int,
        deck: Deck,
        *,
        straddle: bool = False,
        bomb_pot: bool = False,
    ) -> None:
        if len(stacks) < 2:
            raise ValueError("a hand needs at least two players")
        if any(stack <= 0 for stack in stacks.values()):
            raise ValueError("every player in a hand needs chips")
        if straddle and (config.straddle is Straddle.OFF or len(stacks) < 3 or bomb_pot):
            raise ValueError("a straddle needs a straddle table, three players and no bomb pot")
        if bomb_pot and not config.bomb_pot_ante:
            raise ValueError("a bomb pot needs the table's bomb pot ante")
        self.straddle = straddle
        self.bomb_pot = bomb_pot
        self.runs = 1  # the board's runs, once the players all-in agreed on more
        self._runout_base = 0  # board cards every run shares (dealt before the all-in)
        self.runout_votes: dict[int, int] = {}  # seat -> runs asked for
        self.config = config
        self.button = button
        self.seats = seats_in_pokerkit_order(list(stacks), button, config.seats)
        self._index = {seat: i for i, seat in enumerate(self.seats)}
        self.starting_stacks: dict[int, int] = {s: stacks[s] for s in self.seats}
        # Every card this hand can deal, in dealing order; pokerkit's deck holds just
        # these, as its membership checks on every deal scan the whole deck.
        extra = _CARDS_PER_EXTRA_RUN * (config.run_it_max - 1)
        wanted = 2 * len(self.seats) + _BURNS_BOARD_AND_SPARE + extra
        self._cards = deque(deck.draw(min(len(deck), wanted)))
        self.hole_cards: dict[int, tuple[str, ...]] = {}
        self.board: list[str] = []
        self.boards: list[list[str]] = [self.board]  # one per run; the first is `board`
        self.events: list[HandEvent] = []
        self.shown: dict[int, tuple[str, ...]] = {}
        self.winnings: dict[int, int] = dict.fromkeys(self.seats, 0)
        # Tracked per operation (pokerkit's own values are already past any cascade):
        self._street_put_in = [0] * len(self.seats)  # chips put in this street, for returns
        self._tracked_stacks = [self.starting_stacks[s] for s in self.seats]
        # (index, chips) of the last player's matched bet when everyone else folded.
        self._uncollected_win: tuple[int, int] | None = None
        self._op_cursor = 0
        self._silent_checks = False  # a bomb pot's preflop, checked through
        # The actor's options, worked out once per decision (pokerkit's checks are slow
        # and a table asks several times: its clock, the views, the bot, the action).
        self._legal: LegalActions | None = None
        count = len(self.seats)
        antes = (True, config.bomb_pot_ante) if bomb_pot else _antes(config, count)
        blinds = (0,) * count if bomb_pot else _blinds(config, count, straddle)
        self._straddle_index = blinds.index(max(blinds)) if straddle else None
        self._state = pk.State(
            _AUTOMATIONS if config.run_it_max == 1 else _AUTOMATIONS_WITH_RUNOUT_CHOICE,
            # pokerkit only iterates its deck, so any sequence of its cards will do.
            cast(pk.Deck, tuple(_PK_CARD[card] for card in self._cards)),
            (_HighHand,),
            _pokerkit_streets(config, straddle),
            pk.BettingStructure.FIXED_LIMIT if config.is_limit else pk.BettingStructure.NO_LIMIT,
            *antes,
            blinds,
            0,
            tuple(self.starting_stacks[s] for s in self.seats),
            len(self.seats),
            mode=pk.Mode.CASH_GAME,
        )
        self._deal_hole_cards()
        if bomb_pot:
            self._check_preflop_through()
        self._advance()

    # -- reading the state -------------------------------------------------

    @property
    def is_over(self) -> bool:
        return not self._state.status

    @property
    def board_cards_dealt(self) -> list[str]:
        """Every board card in dealing order: the first run, then each later run's own."""
        cards = list(self.boards[0])
        for board in self.boards[1:]:
            cards += board[self._runout_base :]
        return cards

    @property
    def runout_voters(self) -> tuple[int, ...]:
        """Seats still to say how many runs they want (all-in before the river)."""
        if self.is_over or self.config.run_it_max == 1:
            return ()
        statuses = self._state.runout_count_selector_statuses
        return tuple(
            seat
            for i, seat in enumerate(self.seats)
            if statuses[i] and seat not in self.runout_votes
        )

    @property
    def actor(self) -> int | None:
        index = self._state.actor_index
        return None if index is None or self.is_over else self.seats[index]

    @property
    def street(self) -> Street:
        if self.is_over or self._state.street_index is None:
            return Street.SHOWDOWN
        return (Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER)[self._state.street_index]

    @property
    def stacks(self) -> dict[int, int]:
        return {seat: self._state.stacks[i] for seat, i in self._index.items()}

    @property
    def bets(self) -> dict[int, int]:
        """Chips in front of each seat on the current street."""
        return {seat: self._state.bets[i] for seat, i in self._index.items()}

    @property
    def pots(self) -> list[Pot]:
        """Main pot first, then side pots, from chips already collected."""
        return [
            Pot(pot.amount, tuple(self.seats[i] for i in pot.player_indices))
            for pot in self._state.pots
        ]

    @property
    def total_pot(self) -> int:
        return sum(p.amount for p in self.pots) + sum(self._state.bets)

    def in_hand(self, seat: int) -> bool:
        """Still contesting the pot (not folded)."""
        return bool(self._state.statuses[self._index[seat]])

    def is_all_in(self, seat: int) -> bool:
        return not self.is_over and self.in_hand(seat) and self.stacks[seat] == 0

    def legal_actions(self) -> LegalActions | None:
        """The actor's options, or None when nobody is to act."""
        seat = self.actor
        if seat is None:
            return None
        if self._legal is None:
            self._legal = self._work_out_legal_actions(seat)
        return self._legal

    def _work_out_legal_actions(self, seat: int) -> LegalActions:
        state = self._state
        index = self._index[seat]
        to_call = state.checking_or_calling_amount or 0
        # pokerkit's minimum is None exactly when no bet or raise is allowed; asking for
        # it (and the maximum) once skips can_complete_bet_or_raise_to's repeated checks.
        min_to = state.min_completion_betting_or_raising_to_amount
        max_to = state.max_completion_betting_or_raising_to_amount if min_to is not None else None
        can_raise = min_to is not None
        facing_bet = max(state.bets) > 0 or self.street is Street.PREFLOP
        return LegalActions(
            seat=seat,
            can_fold=to_call > 0,  # folding when a check is free is never offered
            can_check=to_call == 0,
            call_amount=to_call,
            can_call=to_call > 0,
            raise_kind=(ActionKind.RAISE if facing_bet else ActionKind.BET) if can_raise else None,
            min_to=min_to,
            max_to=max_to,
            committed=state.bets[index],
            stack=state.stacks[index],
        )

    @property
    def result(self) -> HandResult | None:
        if not self.is_over:
            return None
        return HandResult(
            starting_stacks=dict(self.starting_stacks),
            final_stacks=self.stacks,
            winnings=dict(self.winnings),
            shown=dict(self.shown),
            board=tuple(self.board),
            boards=tuple(tuple(b) for b in self.boards) if self.runs > 1 else (),
        )

    # -- home-game rules ---------------------------------------------------

    def verify_runout_vote(self, seat: int, runs: int) -> None:
        """Raise an IllegalActionError saying why `seat` cannot ask for `runs` runs now."""
        if self.is_over:
            raise HandOverError("the hand is over")
        if self.config.run_it_max == 1:
            raise IllegalActionError("this table runs the board once")
        if seat not in self.runout_voters:
            raise IllegalActionError(
                "only players all-in before the river choose the runs, once each"
            )
        if not 1 <= runs <= self.config.run_it_max:
            raise IllegalActionError(f"choose from 1 to {self.config.run_it_max} runs")

    def can_vote_runouts(self, seat: int, runs: int) -> bool:
        try:
            self.verify_runout_vote(seat, runs)
        except IllegalActionError:
            return False
        return True

    def vote_runouts(self, seat: int, runs: int) -> None:
        """Ask for `runs` runs; the board is run more than once only if every vote agrees."""
        self.verify_runout_vote(seat, runs)
        self.runout_votes[seat] = runs
        if self.runout_voters:
            return
        state = self._state
        # Given to pokerkit together, in its order: its select_runout_count checks the
        # player index it is given as if it were the count, so the next selector is used.
        while any(state.runout_count_selector_statuses):
            index = next(state.runout_count_selector_indices)
            state.select_runout_count(self.runout_votes[self.seats[index]])
        self.runs = state.runout_count or 1
        self._runout_base = len(self.board)
        if self.runs > 1:
            street = self._street_of_record()
            self.events.append(HandEvent(kind=EventKind.RUNOUTS, street=street, amount=self.runs))
        self._advance()

    def verify_rabbit_hunt(self) -> None:
        """Raise an IllegalActionError saying why the rabbit cannot be hunted now."""
        if not self.config.rabbit_hunt:
            raise IllegalActionError("this table does not allow rabbit hunting")
        if not self.is_over:
            raise IllegalActionError("the rabbit is hunted once the hand is over")
        if len(self.board) == 5:
            raise IllegalActionError("the whole board was dealt: there is nothing to hunt")

    def rabbit_cards(self) -> tuple[str, ...]:
        """The board cards that would have come, burns skipped as the dealer would.

        The rest of this hand's deck: never a player's hole card (folded ones included),
        and the result stays as it was.
        """
        self.verify_rabbit_hunt()
        rest = list(self._cards)
        cards: list[str] = []
        for street_count in (3, 1, 1)[{0: 0, 3: 1, 4: 2}[len(self.board)] :]:
            rest.pop(0)  # the burn
            cards += rest[:street_count]
            del rest[:street_count]
        return tuple(cards)

    # -- acting ------------------------------------------------------------

    def verify(self, seat: int, action: Action) -> None:
        """Raise an IllegalActionError saying why `action` is not allowed; else return."""
        if self.is_over:
            raise HandOverError("the hand is over")
        if seat not in self._index:
            raise IllegalActionError(f"seat {seat} is not in this hand")
        if seat != self.actor:
            raise NotYourTurnError("it is not your turn")
        legal = self.legal_actions()
        assert legal is not None
        kind = action.kind
        if kind is ActionKind.FOLD:
            if not legal.can_fold:
                raise IllegalActionError("nothing to call: check instead of folding")
        elif kind is ActionKind.CHECK:
            if not legal.can_check:
                raise IllegalActionError(
                    f"you cannot check facing a bet: call {legal.call_amount} or fold"
                )
        elif kind is ActionKind.CALL:
            if not legal.can_call:
                raise IllegalActionError("there is no bet to call: check instead")
            if action.amount is not None and action.amount != legal.call_amount:
                raise IllegalActionError(f"the call is {legal.call_amount}")
        else:
            self._verify_bet_or_raise(legal, action)

    def _verify_bet_or_raise(self, legal: LegalActions, action: Action) -> None:
        word = action.kind.value
        if legal.raise_kind is None:
            if self.config.is_limit and legal.can_call:
                raise IllegalActionError("the betting is capped: call or fold")
            raise IllegalActionError(f"you cannot {word} now")
        if action.kind is not legal.raise_kind:
            hint = "nobody has bet yet: bet" if legal.raise_kind is ActionKind.BET else "raise"
            raise IllegalActionError(f"you cannot {word} here; {hint} instead")
        assert legal.min_to is not None
        assert legal.max_to is not None
        amount = action.amount
        if self.config.is_limit and amount is None:
            return
        if amount is None:
            raise IllegalActionError(
                f"say how much to {word}: from {legal.min_to} to {legal.max_to}"
            )
        if self.config.is_limit and amount != legal.min_to:
            raise IllegalActionError(f"in limit the {word} is to {legal.min_to}")
        if amount < legal.min_to:
            if legal.max_to == legal.min_to:
                raise IllegalActionError(f"the only {word} allowed is all-in to {legal.min_to}")
            raise IllegalActionError(f"the minimum {word} is to {legal.min_to}")
        if amount > legal.max_to:
            raise IllegalActionError(f"the maximum {word} is to {legal.max_to} (all-in)")

    def can(self, seat: int, action: Action) -> bool:
        try:
            self.verify(seat, action)
        except IllegalActionError:
            return False
        return True

    def act(self, seat: int, action: Action) -> None:
        """Apply a legal action, or raise IllegalActionError and change nothing."""
        self.verify(seat, action)
        state = self._state
        try:
            if action.kind is ActionKind.FOLD:
                state.fold()
            elif action.kind in (ActionKind.CHECK, ActionKind.CALL):
                state.check_or_call()
            else:
                state.complete_bet_or_raise_to(action.amount)
        except ValueError as error:  # pragma: no cover - verify() mirrors pokerkit's rules
            raise IllegalActionError(str(error)) from error
        self._advance()

    # -- dealing and bookkeeping ------------------------------------------------

    def _deal_hole_cards(self) -> None:
        """One card at a time round the table from the left of the button, twice."""
        count = len(self.seats)
        cards = self._draw(2 * count)
        for i, seat in enumerate(self.seats):
            self.hole_cards[seat] = (cards[i], cards[i + count])
        for seat in self.seats:
            self._state.deal_hole(tuple(_PK_CARD[card] for card in self.hole_cards[seat]))

    def _check_preflop_through(self) -> None:
        """A bomb pot has no preflop betting: everyone checks, unrecorded, to the flop."""
        state = self._state
        self._silent_checks = True
        while state.status and state.street_index == 0 and state.actor_index is not None:
            state.check_or_call()
        self._record_operations()
        self._silent_checks = False

    def _draw(self, count: int) -> tuple[str, ...]:
        return tuple(self._cards.popleft() for _ in range(count))

    def _advance(self) -> None:
        """Deal (burning first) until a player must act or the hand is over."""
        self._legal = None
        state = self._state
        while state.status:
            if state.can_burn_card():
                state.burn_card(_PK_CARD[self._draw(1)[0]])
            elif state.can_deal_board():
                count = state.street.board_dealing_count if state.street is not None else 0
                state.deal_board(tuple(_PK_CARD[card] for card in self._draw(count)))
            else:
                break
        self._record_operations()

    def _record_operations(self) -> None:
        operations = self._state.operations
        for operation in operations[self._op_cursor :]:
            self._record(operation)
        self._op_cursor = len(operations)

    def _put_in(self, index: int, chips: int) -> bool:
        """Move chips from a stack to the street; True when that leaves the player all-in."""
        self._street_put_in[index] += chips
        self._tracked_stacks[index] -= chips
        return self._tracked_stacks[index] == 0

    def _record(self, op: Any) -> None:
        street = self._street_of_record()
        event: HandEvent | None = None
        if isinstance(op, pk.AntePosting):
            # Antes are collected before the blinds; pokerkit trims an ante nobody else
            # could match, and that part comes back as a RETURN at the collection.
            all_in = self._put_in(op.player_index, op.amount)
            event = HandEvent(
                kind=EventKind.ANTE,
                street=street,
                seat=self.seats[op.player_index],
                amount=op.amount,
                all_in=all_in,
            )
        elif isinstance(op, pk.BlindOrStraddlePosting):
            all_in = self._put_in(op.player_index, op.amount)
            event = HandEvent(
                kind=self._blind_kind(op.player_index),
                street=street,
                seat=self.seats[op.player_index],
                amount=op.amount,
                all_in=all_in,
            )
        elif isinstance(op, pk.Folding):
            event = HandEvent(kind=EventKind.FOLD, street=street, seat=self.seats[op.player_index])
        elif isinstance(op, pk.CheckingOrCalling):
            if self._silent_checks:
                return
            all_in = self._put_in(op.player_index, op.amount)
            event = HandEvent(
                kind=EventKind.CALL if op.amount else EventKind.CHECK,
                street=street,
                seat=self.seats[op.player_index],
                amount=op.amount or None,
                all_in=all_in and op.amount > 0,
            )
        elif isinstance(op, pk.CompletionBettingOrRaisingTo):
            opened = street is Street.PREFLOP or any(
                e.street is street and e.kind in (EventKind.BET, EventKind.RAISE)
                for e in self.events
            )
            all_in = self._put_in(op.player_index, op.amount - self._street_put_in[op.player_index])
            event = HandEvent(
                kind=EventKind.RAISE if opened else EventKind.BET,
                street=street,
                seat=self.seats[op.player_index],
                amount=op.amount,
                all_in=all_in,
            )
        elif isinstance(op, pk.BetCollection):
            bets = list(op.bets)
            folded = {e.seat for e in self.events if e.kind is EventKind.FOLD}
            live = [i for i, seat in enumerate(self.seats) if seat not in folded]
            if len(live) == 1:
                # Everyone else folded: pokerkit leaves the winner's whole bet out of the
                # collection. Only the part nobody matched is an uncalled bet returned;
                # the matched part is won with the pot.
                winner = live[0]
                matched = max(p for i, p in enumerate(self._street_put_in) if i != winner)
                bets[winner] = min(self._street_put_in[winner], matched)
                self._uncollected_win = (winner, bets[winner])
            for i, collected in enumerate(bets):
                returned = self._street_put_in[i] - collected
                if returned > 0:
                    self._tracked_stacks[i] += returned
                    self.events.append(
                        HandEvent(
                            kind=EventKind.RETURN,
                            street=street,
                            seat=self.seats[i],
                            amount=returned,
                        )
                    )
            self._street_put_in = [0] * len(self.seats)
        elif isinstance(op, pk.BoardDealing):
            cards = tuple(f"{c.rank}{c.suit}" for c in op.cards)
            if self.runs > 1 and len(self.boards[-1]) == 5:  # the next run begins
                self.boards.append(self.board[: self._runout_base])
            self.boards[-1].extend(cards)
            run = len(self.boards) - 1 if self.runs > 1 else None
            event = HandEvent(
                kind=EventKind.BOARD, street=self._street_of_board(), cards=cards, run=run
            )
        elif isinstance(op, pk.HoleCardsShowingOrMucking):
            seat = self.seats[op.player_index]
            if op.hole_cards:
                self.shown[seat] = self.hole_cards[seat]
                event = HandEvent(
                    kind=EventKind.SHOW,
                    street=Street.SHOWDOWN,
                    seat=seat,
                    cards=self.hole_cards[seat],
                )
            else:
                event = HandEvent(kind=EventKind.MUCK, street=Street.SHOWDOWN, seat=seat)
        elif isinstance(op, pk.ChipsPushing):
            amounts = list(op.amounts)
            if self._uncollected_win is not None:
                winner, matched = self._uncollected_win
                amounts[winner] += matched
                self._uncollected_win = None
            for i, amount in enumerate(amounts):
                if amount:
                    self._tracked_stacks[i] += amount
                    self.winnings[self.seats[i]] += amount
                    self.events.append(
                        HandEvent(
                            kind=EventKind.WIN,
                            street=Street.SHOWDOWN,
                            seat=self.seats[i],
                            amount=amount,
                            pot_index=op.pot_index,
                            run=op.board_index if self.runs > 1 else None,
                        )
                    )
        if event is not None:
            self.events.append(event)

    def _blind_kind(self, index: int) -> EventKind:
        if index == self._straddle_index:
            return EventKind.STRADDLE
        # pokerkit: index 0 posts the small blind, 1 the big; heads-up it is reversed.
        small_blind_index = 1 if len(self.seats) == 2 else 0
        return EventKind.SMALL_BLIND if index == small_blind_index else EventKind.BIG_BLIND

    def _street_of_record(self) -> Street:
        """The street an operation belongs to, from the board dealt so far in the record."""
        return {0: Street.PREFLOP, 3: Street.FLOP, 4: Street.TURN}.get(
            len(self.board), Street.RIVER
        )

    def _street_of_board(self) -> Street:
        return {3: Street.FLOP, 4: Street.TURN}.get(len(self.boards[-1]), Street.RIVER)
