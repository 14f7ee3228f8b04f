"""The observer: what one seat (or a spectator) may know about a table.

Every message a client or an AI worker receives is built here, so this is the
one place that decides who sees which hole cards: your own always; another
seat's only once the showdown rules revealed them.
"""

from __future__ import annotations

import functools

from pydantic import BaseModel, ConfigDict

from holdem.actions import EventKind, HandEvent, LegalActions, Street
from holdem.config import TableConfig
from holdem.history import HandRecord
from holdem.table import Table
from holdem.wire_enum import WireEnum


class SeatState(WireEnum):
    WAITING = "waiting"  # seated, not dealt into the current hand
    ACTIVE = "active"
    FOLDED = "folded"
    ALL_IN = "all_in"
    SITTING_OUT = "sitting_out"


class SeatView(BaseModel):
    model_config = ConfigDict(frozen=True)

    seat: int
    player_id: str
    name: str
    is_bot: bool
    bot_style: str | None
    stack: int
    bet: int
    state: SeatState
    has_cards: bool
    hole_cards: tuple[str, ...] | None  # own cards, or cards shown at showdown
    waiting_for_big_blind: bool
    leaving: bool
    straddle: bool = False  # straddles whenever in the straddle position (the table's rule)


class PotView(BaseModel):
    model_config = ConfigDict(frozen=True)

    amount: int
    seats: tuple[int, ...]


class ResultView(BaseModel):
    """The end of the last hand: public once the hand is over."""

    model_config = ConfigDict(frozen=True)

    hand_no: int
    net: dict[int, int]
    winnings: dict[int, int]
    shown: dict[int, tuple[str, ...]]
    board: tuple[str, ...]
    boards: tuple[tuple[str, ...], ...] = ()  # every run's board, when run more than once


class TableView(BaseModel):
    model_config = ConfigDict(frozen=True)

    table_id: str
    config: TableConfig
    viewer_seat: int | None
    hand_no: int
    hand_in_progress: bool
    button: int | None
    small_blind_seat: int | None
    big_blind_seat: int | None
    street: Street | None
    board: tuple[str, ...]
    pots: tuple[PotView, ...]
    total_pot: int
    seats: tuple[SeatView, ...]
    actor: int | None
    legal_actions: LegalActions | None  # only in the actor's own view
    events: tuple[HandEvent, ...]  # this hand's public events so far
    last_result: ResultView | None
    # Home-game rules (#34):
    boards: tuple[tuple[str, ...], ...] = ()  # every run's board (run it twice); else empty
    runout_voters: tuple[int, ...] = ()  # all-in seats still to say how many runs they want
    runout_votes: dict[int, int] = {}  # the runs each seat asked for so far
    bomb_pot: bool = False  # this hand is a bomb pot
    bomb_pot_next: bool = False  # the next hand is a bomb pot
    rabbit: tuple[str, ...] = ()  # the last hand's rabbit hunt: cards that would have come


def observe(table: Table, viewer_seat: int | None) -> TableView:
    """The table as `viewer_seat` sees it; None gives the spectator view."""
    public = _public_view(table)
    return public if viewer_seat is None else as_seen_by(public, table, viewer_seat)


def as_seen_by(public: TableView, table: Table, seat: int) -> TableView:
    """`public`, the spectator view of `table` as it is now, as `seat` sees it.

    A seat sees what a spectator sees plus its own hole cards and, on its turn, its
    options; so a table that already rendered the spectator view need not do it again.
    """
    hand = table.hand
    legal = hand.legal_actions() if public.hand_in_progress and hand is not None else None
    seats = public.seats
    if hand is not None and seat in table.seats and _was_dealt(table, seat):
        seats = tuple(
            view.model_copy(update={"hole_cards": hand.hole_cards[seat]})
            if view.seat == seat
            else view
            for view in seats
        )
    return public.model_copy(
        update={
            "viewer_seat": seat,
            "seats": seats,
            "legal_actions": legal if legal is not None and legal.seat == seat else None,
        }
    )


def _was_dealt(table: Table, number: int) -> bool:
    """The seat's player holds (or, after the hand, held) cards in the current hand.

    After the hand a seat may have changed hands: the cards stay with who was dealt them.
    """
    hand = table.hand
    if hand is None or number not in hand.seats:
        return False
    if not hand.is_over:
        return True
    record = table.last_record
    dealt_to = {s.seat: s.player_id for s in record.seats} if record is not None else {}
    return dealt_to.get(number) == table.seats[number].player_id


@functools.lru_cache(maxsize=8192, typed=True)
def _seat_view(
    seat: int,
    player_id: str,
    name: str,
    is_bot: bool,
    bot_style: str | None,
    stack: int,
    bet: int,
    state: SeatState,
    has_cards: bool,
    hole_cards: tuple[str, ...] | None,
    waiting_for_big_blind: bool,
    leaving: bool,
    straddle: bool,
) -> SeatView:
    """A seat's view, built once per distinct content: most seats do not change
    from one state to the next, and a SeatView is frozen, so views share them."""
    return SeatView(
        seat=seat,
        player_id=player_id,
        name=name,
        is_bot=is_bot,
        bot_style=bot_style,
        stack=stack,
        bet=bet,
        state=state,
        has_cards=has_cards,
        hole_cards=hole_cards,
        waiting_for_big_blind=waiting_for_big_blind,
        leaving=leaving,
        straddle=straddle,
    )


def _public_view(table: Table) -> TableView:
    hand = table.hand
    live = hand is not None and not hand.is_over
    # Read once: each of these builds a fresh dict or list from pokerkit's state.
    stacks = hand.stacks if live and hand is not None else {}
    bets = hand.bets if live and hand is not None else {}
    pots = hand.pots if live and hand is not None else []
    seats: list[SeatView] = []
    for number in sorted(table.seats):
        seat = table.seats[number]
        dealt = _was_dealt(table, number)
        cards = hand.shown.get(number) if dealt and hand is not None else None
        playing = live and dealt and hand is not None and hand.in_hand(number)
        if live and dealt and hand is not None:
            stack, bet = stacks[number], bets[number]
            if not playing:
                state = SeatState.FOLDED
            elif stack == 0:
                state = SeatState.ALL_IN
            else:
                state = SeatState.ACTIVE
        else:
            stack, bet = seat.stack, 0
            state = SeatState.SITTING_OUT if seat.sitting_out else SeatState.WAITING
        seats.append(
            _seat_view(
                number,
                seat.player_id,
                seat.name,
                seat.is_bot,
                seat.bot_style,
                stack,
                bet,
                state,
                playing,
                cards,
                seat.waiting_for_big_blind,
                seat.leaving,
                seat.straddle,
            )
        )
    small_blind = big_blind = None
    if hand is not None:
        order = hand.seats
        small_blind, big_blind = (order[1], order[0]) if len(order) == 2 else (order[0], order[1])
    result = table.last_result if not live else None
    return TableView(
        table_id=table.table_id,
        config=table.config,
        viewer_seat=None,
        hand_no=table.hand_no,
        hand_in_progress=live,
        button=table.button,
        small_blind_seat=small_blind,
        big_blind_seat=big_blind,
        street=hand.street if hand is not None else None,
        board=tuple(hand.board) if hand is not None else (),
        pots=tuple(PotView(amount=p.amount, seats=p.seats) for p in pots),
        total_pot=sum(p.amount for p in pots) + sum(bets.values()),
        seats=tuple(seats),
        actor=hand.actor if live and hand is not None else None,
        legal_actions=None,
        events=tuple(hand.events) if hand is not None else (),
        last_result=ResultView(
            hand_no=table.hand_no,
            net=result.net,
            winnings=dict(result.winnings),
            shown=dict(result.shown),
            board=result.board,
            boards=result.boards,
        )
        if result is not None
        else None,
        boards=tuple(tuple(b) for b in hand.boards) if hand is not None and hand.runs > 1 else (),
        runout_voters=hand.runout_voters if live and hand is not None else (),
        runout_votes=dict(hand.runout_votes) if live and hand is not None else {},
        bomb_pot=hand is not None and hand.bomb_pot,
        bomb_pot_next=table.next_is_bomb_pot(),
        rabbit=_rabbit(table),
    )


def _rabbit(table: Table) -> tuple[str, ...]:
    record = table.last_record
    if record is None or record.hand_no != table.hand_no or table.hand is None:
        return ()
    return record.rabbit if table.hand.is_over else ()


def observe_record(record: HandRecord, viewer_player_id: str | None) -> HandRecord:
    """A finished hand as one player may see it: own hole cards, others' only if shown."""
    shown = {e.seat for e in record.events if e.kind is EventKind.SHOW}
    seats = [
        seat
        if seat.player_id == viewer_player_id or seat.seat in shown
        else seat.model_copy(update={"hole_cards": ("??", "??")})
        for seat in record.seats
    ]
    return record.model_copy(update={"seats": seats})
