"""Keeping the tree between our decisions in a hand, where the line still holds.

After we act, the search's subtree below our action and below what happened since
(the opponents' actions, translated to the tree's size buckets, and the board
cards dealt, or our strength class on the new street when the search keys cards
so) is already a search of the new spot: the next decision starts from it. The
line holds when that child exists and its actions are this spot's (No-Limit
amounts differ when an opponent bet off the tree's sizes: the statistics of the
nearest line are kept under the real amounts, the translation of the issue).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from ai.game.observation import Observation
from ai.math.range_strength import LEX_INDEX
from ai.models.ranges import holding_strengths
from ai.search.abstraction import our_actions, size_bucket
from ai.search.kernel import CARD_CLASSES
from ai.search.tree import Node
from ai.sim.rules import BET, CALL, CHECK, FOLD
from ai.sim.state import SimState


@dataclass(frozen=True, slots=True)
class Kept:
    """The tree after one of our decisions: where we were and what we chose."""

    hand_key: Hashable
    index: int  # our index
    history_len: int  # actions before our decision
    board_len: int
    root: Node
    chosen: int  # index into root.actions (-1: a fold or an action off the tree)
    buckets: int = 0  # SearchConfig.chance_buckets of the search that built the tree


def action_code(state: SimState, kind: int, to: int) -> int:
    """The tree's key for the actor's action at `state` (as the search builds it)."""
    street = state.street
    if kind >= BET:
        legal = state.legal_actions()
        assert legal is not None
        bucket = 0 if state.rules.is_limit else size_bucket(state.pot, legal, to)
        return street * 64 + 16 + bucket
    if kind in (CHECK, CALL):
        return street * 64 + 8
    return street * 64


def follow(kept: Kept, obs: Observation) -> Node | None:
    """The kept subtree for this decision, as a root, or None when the line broke."""
    sim = obs.sim
    if (
        sim is None
        or kept.hand_key != obs.hand_key
        or kept.index != obs.index
        or kept.chosen < 0
        or len(obs.history) <= kept.history_len
    ):
        return None
    ours = obs.history[kept.history_len]
    act = kept.root.actions[kept.chosen]
    if ours.player != obs.index or ours.kind != act.kind or (act.kind >= BET and ours.to != act.to):
        return None
    # Replay the hand's public actions from its start to key the opponents' actions.
    state = SimState(sim.rules, sim.seats, sim.start, sim.holes, sim.runout)
    key: list[int] = []
    for k, record in enumerate(obs.history):
        if k > kept.history_len:
            key.append(action_code(state, record.kind, record.to))
        state.step(record.kind, record.to if record.kind >= BET else 0)
    if kept.buckets and len(obs.board) > kept.board_len:
        # The search keyed the new cards by our strength class on this street.
        a, b = obs.hole
        strength = float(holding_strengths(tuple(obs.board), obs.n_opponents)[LEX_INDEX[a, b]])
        key.append(CARD_CLASSES + min(int(strength * kept.buckets), kept.buckets - 1))
    else:
        key.extend(obs.board[kept.board_len :])
    child = kept.root.children[kept.chosen].get(tuple(key))
    if child is None:
        return None
    current = [a for a in our_actions(obs.pot, obs.legal, obs.limit) if a.kind != FOLD]
    root = child.without_fold()
    if [a.kind for a in current] != [a.kind for a in root.actions]:
        return None
    root.actions = current  # the real amounts (equal unless an opponent bet off the tree)
    return root
