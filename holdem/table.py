"""A cash-game table across hands: seats, buy-ins, the button, sitting out.

House rules (documented for players in docs/rules.md):
- Buy-in and rebuy within the table's range; a top-up may bring a stack up to
  the maximum buy-in. Chips are added only while the seat is not dealt into the
  hand in progress.
- Moving button: each hand the button moves to the next seat clockwise that
  is dealt in.
- Missed blinds, "wait for the big blind": a player who sat out while hands
  were played is dealt in again when the big blind reaches them (no dead
  blind to post). New players are dealt in at once, and so is a seat the
  table sat out for busting, once its player adds chips.
- Standing up during a hand: the seat checks or folds (the timeout rule) when
  it is next to act and leaves, with its chips, when the hand ends. A seat left
  with less than a big blind is sat out until its player rebuys.
- A hand starts only with two or more seats that have chips and are not out.
- Home-game rules (table options): a live straddle by the seat in the straddle
  position that chose to straddle (three or more players); a bomb pot every N
  hands or when the host calls one (its ante from every seat, no blinds, the
  hand starts on the flop); run it twice or three times when every player
  all-in before the river agrees (a pot is split per run, the odd chip to the
  first run); a rabbit hunt after a hand that ended early, once, by any seated
  player, shown to everyone and never changing the result.

>>> from holdem.config import TableConfig, Variant
>>> t = Table("t1", TableConfig(variant=Variant.NO_LIMIT, seats=6, small_blind=1, big_blind=2),
...           seed=1)
>>> t.sit(1, "alice", "Alice", 200); t.sit(4, "bob", "Bob", 150)
>>> t.can_start_hand()
True
>>> hand = t.start_hand()
>>> t.chips_in_play()
350
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from holdem.actions import Action, EventKind, HandEvent, Street
from holdem.cards import Deck, make_rng
from holdem.config import Straddle as StraddleRule
from holdem.config import TableConfig
from holdem.errors import BuyInError, IllegalActionError, SeatError
from holdem.hand import Hand, HandResult, seats_in_pokerkit_order
from holdem.history import HandRecord, SeatRecord


@dataclass
class Seat:
    """A player sitting at the table; the stack excludes chips in the current hand's pot."""

    number: int
    player_id: str
    name: str
    stack: int
    is_bot: bool = False
    bot_style: str | None = None
    sitting_out: bool = False
    wants_to_sit_out: bool = False  # takes effect when the current hand ends
    waiting_for_big_blind: bool = False
    leaving: bool = False
    sat_out_at_hand: int | None = None
    straddle: bool = False  # straddles whenever the straddle position reaches this seat


@dataclass(frozen=True, slots=True)
class Cashout:
    player_id: str
    seat: int
    amount: int


@dataclass
class TableSnapshot:
    """What survives a restart: seats and stacks; a hand in progress is voided."""

    table_id: str
    config: TableConfig
    seats: list[Seat]
    button: int | None
    hand_no: int
    tournament: bool = False
    bomb_pot_called: bool = False  # the host called a bomb pot for the next hand


@dataclass
class Table:
    table_id: str
    config: TableConfig
    seed: int | None = None
    seats: dict[int, Seat] = field(default_factory=dict)
    button: int | None = None
    hand_no: int = 0
    hand: Hand | None = None
    last_result: HandResult | None = None
    last_record: HandRecord | None = None
    cashouts: list[Cashout] = field(default_factory=list)
    # Tournament rules: every seat with chips is dealt in, a stack short of the big blind
    # all in for what it has, a seat sitting out (or disconnected) blinded off.
    tournament: bool = False
    bomb_pot_called: bool = False
    _rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._rng = make_rng(self.seed)

    # -- seats ------------------------------------------------------------

    def seat_of(self, player_id: str) -> Seat:
        for seat in self.seats.values():
            if seat.player_id == player_id:
                return seat
        raise SeatError("you are not seated at this table")

    def find_seat(self, player_id: str) -> Seat | None:
        return next((s for s in self.seats.values() if s.player_id == player_id), None)

    def empty_seats(self) -> list[int]:
        return [n for n in range(1, self.config.seats + 1) if n not in self.seats]

    def verify_sit(self, number: int, player_id: str, buy_in: int) -> None:
        if not 1 <= number <= self.config.seats:
            raise SeatError(f"seat {number} does not exist (1 to {self.config.seats})")
        if number in self.seats:
            raise SeatError(f"seat {number} is taken")
        if self.find_seat(player_id) is not None:
            raise SeatError("you are already seated at this table")
        self._verify_buy_in(buy_in)

    def _verify_buy_in(self, amount: int) -> None:
        low, high = self.config.min_buy_in, self.config.max_buy_in
        if not low <= amount <= high:
            raise BuyInError(f"the buy-in must be between {low} and {high}")

    def sit(
        self,
        number: int,
        player_id: str,
        name: str,
        buy_in: int,
        *,
        is_bot: bool = False,
        bot_style: str | None = None,
    ) -> None:
        self.verify_sit(number, player_id, buy_in)
        self.seats[number] = Seat(number, player_id, name, buy_in, is_bot, bot_style)

    # -- home-game rules ------------------------------------------------------

    def next_is_bomb_pot(self) -> bool:
        every = self.config.bomb_pot_every
        scheduled = every > 0 and (self.hand_no + 1) % every == 0
        return self.config.bomb_pot_ante > 0 and (self.bomb_pot_called or scheduled)

    def call_bomb_pot(self) -> None:
        if not self.config.bomb_pot_ante:
            raise SeatError("this table has no bomb pots: set a bomb pot ante first")
        if self.bomb_pot_called:
            raise SeatError("a bomb pot is called already for the next hand")
        self.bomb_pot_called = True

    def set_straddle(self, player_id: str, enabled: bool) -> None:
        """A standing choice: straddle whenever this seat is in the straddle position."""
        seat = self.seat_of(player_id)
        if enabled and self.config.straddle is StraddleRule.OFF:
            raise SeatError("this table has no straddle")
        seat.straddle = enabled

    def _straddles(self, button: int, playing: list[int], bomb_pot: bool) -> bool:
        if self.config.straddle is StraddleRule.OFF or bomb_pot or len(playing) < 3:
            return False
        order = seats_in_pokerkit_order(playing, button, self.config.seats)
        position = order[2] if self.config.straddle is StraddleRule.UTG else order[-1]
        return self.seats[position].straddle

    def vote_runouts(self, player_id: str, runs: int) -> None:
        """Ask to run the board `runs` times (1: once); checked by the hand's rules."""
        seat = self.seat_of(player_id)
        if self.hand is None or self.hand.is_over:
            raise IllegalActionError("no hand is in progress")
        self.hand.vote_runouts(seat.number, runs)
        self._finish_if_over()

    def rabbit_hunt(self, player_id: str) -> tuple[str, ...]:
        """The cards the last hand would have dealt, once, for a seated player; the
        record keeps them as a rabbit hunt, apart from the board and the result."""
        self.seat_of(player_id)
        hand, record = self.hand, self.last_record
        if hand is None or record is None or record.hand_no != self.hand_no:
            raise SeatError("there is no finished hand to hunt the rabbit in")
        if record.rabbit:
            raise SeatError("the rabbit was hunted already in this hand")
        cards = hand.rabbit_cards()
        self.last_record = record.model_copy(update={"rabbit": cards})
        return cards

    def in_current_hand(self, number: int) -> bool:
        """Dealt into the hand in progress (even if folded since)."""
        return self.hand is not None and not self.hand.is_over and number in self.hand.seats

    def stand(self, player_id: str) -> Cashout | None:
        """Leave now with the stack, or (mid-hand) fold and leave when the hand ends."""
        seat = self.seat_of(player_id)
        if self.in_current_hand(seat.number):
            seat.leaving = True
            self._fold_leavers()
            self._finish_if_over()  # the fold may have ended the hand
            return None
        del self.seats[seat.number]
        cashout = Cashout(player_id, seat.number, seat.stack)
        self.cashouts.append(cashout)
        return cashout

    def sit_out(self, player_id: str) -> None:
        seat = self.seat_of(player_id)
        if seat.sitting_out:
            raise SeatError("you are already sitting out")
        if self.in_current_hand(seat.number):
            seat.wants_to_sit_out = True
        else:
            self._mark_sitting_out(seat)

    def _mark_sitting_out(self, seat: Seat) -> None:
        seat.sitting_out = True
        seat.wants_to_sit_out = False
        # Sitting out ends any wait for the big blind (coming back decides afresh): the
        # seat said "Waiting for BB" while it sat out, and no hand came to it.
        seat.waiting_for_big_blind = False
        seat.sat_out_at_hand = self.hand_no

    def sit_back(self, player_id: str) -> None:
        seat = self.seat_of(player_id)
        if seat.wants_to_sit_out:
            seat.wants_to_sit_out = False
            return
        if not seat.sitting_out:
            raise SeatError("you are not sitting out")
        if seat.stack < self.config.big_blind:
            raise BuyInError("you have less than a big blind: add chips first")
        missed_hands = seat.sat_out_at_hand is not None and self.hand_no > seat.sat_out_at_hand
        seat.sitting_out = False
        seat.sat_out_at_hand = None
        seat.waiting_for_big_blind = missed_hands

    def verify_rebuy(self, player_id: str, amount: int) -> None:
        seat = self.seat_of(player_id)
        if self.in_current_hand(seat.number):
            raise SeatError("you can add chips when the hand is over")
        if amount <= 0:
            raise BuyInError("the amount must be positive")
        if seat.stack + amount > self.config.max_buy_in:
            room = self.config.max_buy_in - seat.stack
            raise BuyInError(
                f"a stack may not exceed the maximum buy-in of {self.config.max_buy_in}"
                + (f": add at most {room}" if room > 0 else "")
            )
        if seat.stack < self.config.big_blind and seat.stack + amount < self.config.min_buy_in:
            raise BuyInError(f"a rebuy must be at least {self.config.min_buy_in}")

    def rebuy(self, player_id: str, amount: int) -> None:
        """Add chips (rebuy after busting, or top up) between hands."""
        self.verify_rebuy(player_id, amount)
        self.seat_of(player_id).stack += amount

    # -- hands ------------------------------------------------------------

    def _ready(self, seat: Seat) -> bool:
        if self.tournament:
            return seat.stack > 0 and not seat.leaving
        # Short of a big blind a seat sits out: an all-in blind smaller than the big blind
        # would let the others call less than a full blind (pokerkit's rule, not ours).
        return seat.stack >= self.config.big_blind and not seat.sitting_out and not seat.leaving

    def _clockwise_from(self, start: int) -> Iterator[int]:
        """Seat numbers clockwise, beginning with the seat after `start`."""
        size = self.config.seats
        for step in range(1, size + 1):
            yield (start - 1 + step) % size + 1

    def next_hand_seats(self) -> tuple[int | None, list[int]]:
        """(button, seats dealt in) for the next hand, applying the missed-blind rule."""
        ready = [s for s in self.seats.values() if self._ready(s)]
        playing = [s.number for s in ready if not s.waiting_for_big_blind]
        waiting = [s.number for s in ready if s.waiting_for_big_blind]
        if len(playing) < 2 or self.tournament:  # nobody to wait for: everyone ready plays
            playing, waiting = playing + waiting, []
        if len(playing) < 2:
            return None, []
        start = self.button if self.button is not None else self._rng.choice(playing) - 1
        start = start if start >= 1 else self.config.seats
        button = next(n for n in self._clockwise_from(start) if n in playing)
        # Clockwise from the button, so only the first waiting seat the big blind reaches
        # is dealt in (not every waiting seat between the small and the big blind).
        for number in [n for n in self._clockwise_from(button) if n in waiting]:
            order = [n for n in self._clockwise_from(button) if n in playing or n == number]
            if order.index(number) == 1:  # the big blind reaches this seat
                playing.append(number)
        return button, sorted(playing)

    def can_start_hand(self) -> bool:
        return (self.hand is None or self.hand.is_over) and self.next_hand_seats()[0] is not None

    def start_hand(self, deck: Deck | None = None) -> Hand:
        if self.hand is not None and not self.hand.is_over:
            raise SeatError("a hand is already in progress")
        button, playing = self.next_hand_seats()
        if button is None:
            raise SeatError("a hand needs two or more players with chips")
        for number in playing:
            self.seats[number].waiting_for_big_blind = False
        bomb_pot = self.next_is_bomb_pot()
        self.button = button
        self.hand_no += 1
        stacks = {n: self.seats[n].stack for n in playing}
        for number in playing:
            self.seats[number].stack = 0  # the chips are now in the hand
        straddle = self._straddles(button, playing, bomb_pot)
        self.bomb_pot_called = False
        self.hand = Hand(
            self.config,
            stacks,
            button,
            deck or Deck(rng=self._rng),
            straddle=straddle,
            bomb_pot=bomb_pot,
        )
        self._fold_leavers()
        self._finish_if_over()
        return self.hand

    def act(self, number: int, action: Action) -> None:
        """Apply an action for a seat; IllegalActionError leaves everything unchanged."""
        if self.hand is None or self.hand.is_over:
            raise IllegalActionError("no hand is in progress")
        self.hand.act(number, action)
        self._fold_leavers()
        self._finish_if_over()

    def default_action(self) -> Action:
        """What a seat that does not answer does: check if it can, else fold."""
        legal = self.hand.legal_actions() if self.hand is not None else None
        if legal is None:
            raise IllegalActionError("nobody is to act")
        return Action.check() if legal.can_check else Action.fold()

    def _fold_leavers(self) -> None:
        hand = self.hand
        while hand is not None and not hand.is_over and hand.actor is not None:
            seat = self.seats.get(hand.actor)
            if seat is None or not seat.leaving:
                return
            hand.act(seat.number, self.default_action())

    def _finish_if_over(self) -> None:
        hand = self.hand
        if hand is None or not hand.is_over:
            return
        result = hand.result
        assert result is not None
        for number, stack in result.final_stacks.items():
            self.seats[number].stack = stack
        self.last_result = result
        self.last_record = record_hand(self, hand)
        for seat in list(self.seats.values()):
            if seat.leaving:
                del self.seats[seat.number]
                self.cashouts.append(Cashout(seat.player_id, seat.number, seat.stack))
            elif self.tournament:
                continue  # busted seats are the director's to remove; nobody sits out
            elif seat.wants_to_sit_out or (
                seat.stack < self.config.big_blind and not seat.sitting_out
            ):
                chose = seat.wants_to_sit_out
                self._mark_sitting_out(seat)
                if not chose:
                    # Busted, not by choice: no missed-blind clock. Once its player adds
                    # chips it is dealt in at once, as a new player would be (standing up
                    # and sitting down again does just that); it waited for the big blind
                    # whenever a hand was dealt while the rebuy dialog was open.
                    seat.sat_out_at_hand = None

    def show_uncalled(self, player_id: str) -> HandEvent:
        """Show the cards that won the last hand uncalled (everyone else folded).

        Only between that hand's end and the next deal, only by its winner, once.
        The SHOW event joins the hand's events, result and record, as at a showdown.
        """
        hand, record, result = self.hand, self.last_record, self.last_result
        if hand is None or not hand.is_over or record is None or result is None:
            raise SeatError("there is no finished hand to show cards from")
        dealt = next((s.seat for s in record.seats if s.player_id == player_id), None)
        if dealt is None or record.hand_no != self.hand_no:
            raise SeatError("you were not dealt into the last hand")
        folded = {e.seat for e in hand.events if e.kind is EventKind.FOLD}
        if [n for n in hand.seats if n not in folded] != [dealt]:
            raise SeatError("only a hand won uncalled (everyone else folded) can be shown")
        if dealt in hand.shown:
            raise SeatError("your cards are shown already")
        cards = hand.hole_cards[dealt]
        event = HandEvent(kind=EventKind.SHOW, street=Street.SHOWDOWN, seat=dealt, cards=cards)
        hand.events.append(event)
        hand.shown[dealt] = cards
        self.last_result = replace(result, shown={**result.shown, dealt: cards})
        self.last_record = record.model_copy(update={"events": [*record.events, event]})
        return event

    def chips_in_play(self) -> int:
        """Every chip at the table: stacks plus what is in the current hand."""
        total = sum(s.stack for s in self.seats.values())
        hand = self.hand
        if hand is not None and not hand.is_over:
            total += sum(hand.stacks.values()) + hand.total_pot
        return total

    # -- restart ----------------------------------------------------------

    def snapshot(self) -> TableSnapshot:
        """Seats and stacks as of now, with any hand in progress voided (chips returned)."""
        seats = []
        for seat in self.seats.values():
            copy = Seat(**{**seat.__dict__})
            if self.in_current_hand(seat.number):
                assert self.hand is not None
                copy.stack = self.hand.starting_stacks[seat.number]
                copy.leaving = False
            seats.append(copy)
        return TableSnapshot(
            self.table_id,
            self.config,
            seats,
            self.button,
            self.hand_no,
            self.tournament,
            self.bomb_pot_called,
        )

    @classmethod
    def restore(cls, snapshot: TableSnapshot, seed: int | None = None) -> Table:
        table = cls(snapshot.table_id, snapshot.config, seed=seed, tournament=snapshot.tournament)
        table.seats = {s.number: replace(s) for s in snapshot.seats}  # the snapshot stays intact
        table.button = snapshot.button
        table.hand_no = snapshot.hand_no
        table.bomb_pot_called = snapshot.bomb_pot_called
        return table


def record_hand(table: Table, hand: Hand) -> HandRecord:
    """The record of `table`'s finished `hand`, hole cards included."""
    result = hand.result
    if result is None:
        raise ValueError("the hand is not over")
    seats = []
    for number in hand.seats:
        seat = table.seats[number]
        seats.append(
            SeatRecord(
                seat=number,
                player_id=seat.player_id,
                name=seat.name,
                is_bot=seat.is_bot,
                starting_stack=hand.starting_stacks[number],
                final_stack=result.final_stacks[number],
                hole_cards=hand.hole_cards[number],
            )
        )
    return HandRecord(
        table_id=table.table_id,
        hand_no=table.hand_no,
        config=table.config,
        button=hand.button,
        seats=seats,
        events=list(hand.events),
        board=tuple(hand.board),
        boards=[tuple(b) for b in hand.boards] if hand.runs > 1 else [],
        bomb_pot=hand.bomb_pot,
    )
