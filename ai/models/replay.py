"""Replaying a PublicHand decision by decision through the simulator (the rules core's twin).

Hidden cards are placeholders (the shown ones where a showdown revealed them),
so the betting is exact while no unseen card is known; the features read only
public fields of each Observation. `summary_of` makes the HandSummary a bot learns
from at a hand's end (the live worker's twin of the arena's).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from typing import NamedTuple

from ai.game.observation import ActionRecord, Observation
from ai.game.observe import observe, step_and_record
from ai.game.summary import HandSummary
from ai.models.public import PublicHand
from ai.sim.rules import Rules
from ai.sim.state import Cards, SimState
from holdem.errors import RuleError


class ReplayedDecision(NamedTuple):
    obs: Observation  # aliases the live replay: read it before advancing the iterator
    kind: int
    to: int


def placeholder_state(hand: PublicHand) -> SimState:
    """The hand's first decision, with unseen cards replaced by unused ones."""
    used = {c for cards in hand.shown.values() for c in cards} | set(hand.board)
    spare = iter(c for c in range(52) if c not in used)
    holes: list[Cards] = []
    for i in range(len(hand.seats)):
        cards = hand.shown.get(i)
        holes.append(cards if cards is not None else (next(spare), next(spare)))
    runout = list(hand.board[:5])
    while len(runout) < 5:
        runout.append(next(spare))
    rules = hand.rules or Rules.of(hand.config)
    return SimState(rules, hand.seats, hand.starting_stacks, holes, runout)


def decisions(
    hand: PublicHand, history: list[ActionRecord] | None = None
) -> Iterator[ReplayedDecision]:
    """Every voluntary action of the hand with the actor's observation before it;
    `history` (if given) collects the public action records as they are replayed.

    Raises ValueError when the actions do not replay (a corrupt or foreign record).
    """
    state = placeholder_state(hand)
    if history is None:
        history = []
    for action in hand.actions:
        if state.over or state.actor != action.seat:
            raise ValueError(f"{hand.key}: seat {action.seat} acted out of turn")
        obs = observe(state, history, hand.key, hand.players)
        yield ReplayedDecision(obs, action.kind, action.to)
        try:
            step_and_record(state, action.kind, action.to, history)
        except RuleError as error:
            raise ValueError(f"{hand.key}: {error}") from error


def summary_of(hand: PublicHand, hand_key: Hashable, net: Sequence[int]) -> HandSummary:
    """The finished hand as every player saw it: its actions replayed into the records
    the bots count, the board, the shown cards and each index's `net` chips.

    Raises ValueError when the actions do not replay.
    """
    history: list[ActionRecord] = []
    for _ in decisions(hand, history):
        pass
    return HandSummary(hand_key, hand.players, history, dict(hand.shown), hand.board, net)
