"""Rebuild the hand in progress from one seat's view, with the hidden cards filled in.

The view carries no betting internals (last raise size, who may still re-raise), so
the state is rebuilt the only exact way: recover every dealt seat's starting stack
from the public events, deal, and replay those events through the simulator, under the
rules the hand was dealt with (`Rules.of_hand`: a straddle posted, a bomb pot).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Mapping, Sequence

from ai.sim.rules import BET, CALL, CHECK, FOLD, RAISE, Rules
from ai.sim.state import Cards, SimState, to_indices
from holdem.actions import EventKind, HandEvent, Street
from holdem.hand import seats_in_pokerkit_order
from holdem.views import SeatState, TableView

_DEALT = (SeatState.ACTIVE, SeatState.FOLDED, SeatState.ALL_IN)
# A rules-core event as the simulator's action (blinds and deals have none).
SIM_ACTIONS: dict[EventKind, int] = {
    EventKind.FOLD: FOLD,
    EventKind.CHECK: CHECK,
    EventKind.CALL: CALL,
    EventKind.BET: BET,
    EventKind.RAISE: RAISE,
}


# Chips added to the street: blinds (a live straddle is one) and calls.
_POSTED = (EventKind.SMALL_BLIND, EventKind.BIG_BLIND, EventKind.STRADDLE, EventKind.CALL)


def starting_stacks(view: TableView) -> dict[int, int]:
    """Each dealt seat's stack before the antes and blinds, from stacks and events."""
    stacks = {s.seat: s.stack for s in view.seats if s.state in _DEALT}
    put_in: dict[tuple[int, Street], int] = defaultdict(int)  # (seat, street) -> street total
    antes: dict[int, int] = {}
    returned: dict[int, int] = defaultdict(int)
    for event in view.events:
        seat, amount = event.seat, event.amount or 0
        if seat is None:
            continue
        if event.kind is EventKind.ANTE:
            antes[seat] = amount
        elif event.kind in _POSTED:
            put_in[seat, event.street] += amount
        elif event.kind in (EventKind.BET, EventKind.RAISE):
            put_in[seat, event.street] = amount
        elif event.kind is EventKind.RETURN:
            returned[seat] += amount
    # (An ante is cut back silently only when every other player is all-in from
    # their ante; nobody can act then, so a live view never needs that correction.)
    for (seat, _), amount in put_in.items():
        stacks[seat] += amount
    for seat in stacks:
        stacks[seat] += antes.get(seat, 0) - returned[seat]
    return stacks


def from_view(
    view: TableView,
    rng: random.Random,
    hole_cards: Mapping[int, Sequence[str | int]] | None = None,
) -> SimState:
    """The hand as `view.viewer_seat` sees it, other seats' cards and the rest of the board
    dealt from `rng` (or taken from `hole_cards`, by seat, e.g. sampled from a range).

    Raises ValueError when the view is not a live hand the viewer is dealt into or
    when replaying its events does not reproduce it.
    """
    viewer = view.viewer_seat
    if not view.hand_in_progress or view.button is None or viewer is None:
        raise ValueError("the view shows no hand in progress for a seat")
    own = next((s for s in view.seats if s.seat == viewer), None)
    if own is None or own.state not in _DEALT or own.hole_cards is None:
        raise ValueError("the viewer is not dealt into this hand")
    start = starting_stacks(view)
    order = seats_in_pokerkit_order(list(start), view.button, view.config.seats)
    known = {seat: to_indices(cards) for seat, cards in (hole_cards or {}).items()}
    known[viewer] = to_indices(own.hole_cards)
    board = to_indices(view.board)
    dealt = [c for cards in known.values() for c in cards] + board
    used = set(dealt)
    if len(used) != len(dealt):
        raise ValueError("a card is dealt twice")
    unseen = [c for c in range(52) if c not in used]
    fresh = rng.sample(unseen, 2 * sum(1 for s in order if s not in known) + 5 - len(board))
    holes: list[Cards] = []
    for seat in order:
        cards = known.get(seat) or [fresh.pop(), fresh.pop()]
        holes.append((cards[0], cards[1]))
    # The view says whether this hand is a bomb pot; its events alone cannot always.
    straddle = any(e.kind is EventKind.STRADDLE for e in view.events)
    rules = Rules.of(view.config, straddle, view.bomb_pot)
    state = SimState(rules, order, [start[s] for s in order], holes, board + fresh)
    replay(state, view.events)
    _check(state, view)
    return state


def replay(state: SimState, events: Sequence[HandEvent]) -> None:
    """Apply the player actions among `events` (blinds and antes are already posted, a
    bomb pot's preflop checked through: holdem.hand records none of those checks)."""
    for event in events:
        kind = SIM_ACTIONS.get(event.kind)
        if kind is None:
            continue
        if state.actor != event.seat:
            raise ValueError(f"replay: seat {event.seat} acted out of turn")
        state.step(kind, event.amount or 0)


def _check(state: SimState, view: TableView) -> None:
    by_seat = {s.seat: s for s in view.seats}
    for i, seat in enumerate(state.seats):
        if (state.stacks[i], state.bets[i]) != (by_seat[seat].stack, by_seat[seat].bet):
            raise ValueError(f"replay: seat {seat} does not match the view")
    if state.actor != view.actor or state.pot != view.total_pot:
        raise ValueError("replay: the actor or the pot does not match the view")
