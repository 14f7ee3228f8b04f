"""A finished hand's decisions as one player saw them: the views a review asks about.

The stored record holds every hole card. It is first cut down to what the player
may know (`observe_record`: their own cards, others' only where shown); the cards
no one may see are replaced by spare cards nobody holds, the hand is played again
through the rules core, and at each of the player's turns the table is observed
from their seat with `holdem.views.observe`, the function that builds the live
advice's view. So a review is exactly as fair as live advice: changing another
player's unshown cards in the stored hand changes no view (tested).
"""

from __future__ import annotations

from dataclasses import dataclass

from holdem.actions import Action, ActionKind, EventKind, HandEvent, LegalActions, Street
from holdem.cards import FULL_DECK, ScriptedDeck
from holdem.errors import RuleError
from holdem.hand import Hand
from holdem.history import HandRecord
from holdem.table import Seat, Table
from holdem.views import TableView, observe, observe_record

HIDDEN = "??"  # observe_record's stand-in for a card the player may not see
_ACTIONS = {
    EventKind.FOLD: ActionKind.FOLD,
    EventKind.CHECK: ActionKind.CHECK,
    EventKind.CALL: ActionKind.CALL,
    EventKind.BET: ActionKind.BET,
    EventKind.RAISE: ActionKind.RAISE,
}


class ReviewError(ValueError):
    """The hand cannot be reviewed for this player (not dealt in, or not replayable)."""


@dataclass(frozen=True, slots=True)
class DecisionPoint:
    event_index: int  # index in record.events of the action the player took
    street: Street
    view: TableView  # the table as the player saw it, on their turn
    legal: LegalActions
    taken: Action


def decision_points(record: HandRecord, player_id: str) -> list[DecisionPoint]:
    """Every decision `player_id` made in `record`, in order, as they saw it then."""
    mine = next((s for s in record.seats if s.player_id == player_id), None)
    if mine is None:
        raise ReviewError("you were not dealt into this hand")
    visible = observe_record(record, player_id)
    table = _table_at_start(visible)
    hand = table.hand
    assert hand is not None
    points: list[DecisionPoint] = []
    for index, event in enumerate(visible.events):
        kind = _ACTIONS.get(event.kind)
        if kind is None:
            continue
        if hand.is_over or hand.actor != event.seat or event.seat is None:
            raise ReviewError(f"the hand does not replay: event {index} is out of turn")
        taken = Action(
            kind=kind, amount=event.amount if kind in (ActionKind.BET, ActionKind.RAISE) else None
        )
        if event.seat == mine.seat:
            legal = hand.legal_actions()
            assert legal is not None
            view = observe(table, mine.seat)
            points.append(DecisionPoint(index, event.street, view, legal, taken))
        try:
            table.act(event.seat, taken)
        except RuleError as error:
            raise ReviewError(f"the hand does not replay: {error.message}") from error
        _check_same(hand.events, visible.events, index)
    return points


def _table_at_start(record: HandRecord) -> Table:
    """The table as the hand was dealt, with the hidden cards replaced by spare ones."""
    table = Table(record.table_id, record.config)
    table.seats = {
        s.seat: Seat(s.seat, s.player_id, s.name, 0, is_bot=s.is_bot) for s in record.seats
    }
    table.button = record.button
    table.hand_no = record.hand_no
    stacks = {s.seat: s.starting_stack for s in record.seats}
    table.hand = Hand(record.config, stacks, record.button, _deck(record))
    return table


def _deck(record: HandRecord) -> ScriptedDeck:
    """Our dealing order (holes one card at a time round the table, twice; a burn before
    each street's board), hidden cards and burns taken from cards nobody may see."""
    known = {c for s in record.seats for c in s.hole_cards if c != HIDDEN} | set(record.board)
    spare = iter(c for c in FULL_DECK if c not in known)
    holes = [[c if c != HIDDEN else next(spare) for c in s.hole_cards] for s in record.seats]
    order = [h[0] for h in holes] + [h[1] for h in holes]
    board = list(record.board)
    for street_cards in (board[:3], board[3:4], board[4:5]):
        if street_cards:
            order += [next(spare), *street_cards]
    return ScriptedDeck(order)


def _check_same(replayed: list[HandEvent], recorded: list[HandEvent], upto: int) -> None:
    """The replay must tell the stored story up to the action just applied."""
    if replayed[: upto + 1] != recorded[: upto + 1]:
        raise ReviewError(f"the hand does not replay: it differs by event {upto}")
