"""A small game flattened into arrays, for the compiled CFR+ and best response.

Nodes are numbered breadth-first, so a parent precedes its children, a node's children
are contiguous, and depths never decrease: a forward pass (reach probabilities) runs up
the indices and a backward pass (values) down them, with no recursion.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ai.policy.games import CHANCE, TERMINAL, Game, State

KIND_TERMINAL, KIND_CHANCE, KIND_DECISION = 0, 1, 2

IntArray = NDArray[np.int64]
FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class FlatTree:
    kind: IntArray  # per node: KIND_*
    player: IntArray  # per node: the actor (decision nodes), else -1
    infoset: IntArray  # per node: information set index (decision nodes), else -1
    first_child: IntArray
    n_children: IntArray
    chance_prob: FloatArray  # per node: probability of it from a chance parent, else 1
    utility: FloatArray  # per node: player 0's payoff (terminals)
    depth: IntArray
    # Per information set: its first entry in the flat (infoset, action) arrays.
    offset: IntArray
    n_actions: IntArray
    infoset_player: IntArray
    infoset_keys: tuple[str, ...]
    actions: tuple[tuple[int, ...], ...]  # per information set: the game's action ids

    @property
    def n_nodes(self) -> int:
        return int(self.kind.shape[0])

    @property
    def size(self) -> int:
        """Entries of the flat (information set, action) arrays."""
        return int(self.offset[-1] + self.n_actions[-1]) if len(self.offset) else 0

    def index(self) -> dict[str, int]:
        return {key: i for i, key in enumerate(self.infoset_keys)}


def flatten(game: Game) -> FlatTree:
    """Enumerate every history of `game` (small games only: Kuhn has 58 nodes, Leduc ~10^4)."""
    kind: list[int] = []
    player: list[int] = []
    infoset: list[int] = []
    first: list[int] = []
    count: list[int] = []
    prob: list[float] = []
    utility: list[float] = []
    depth: list[int] = []
    keys: dict[str, int] = {}
    actions: list[tuple[int, ...]] = []
    owners: list[int] = []
    frontier: list[tuple[State, float, int]] = [(game.initial_state(), 1.0, 0)]
    while frontier:
        following: list[tuple[State, float, int]] = []
        for state, p, d in frontier:
            actor = state.current_player()
            prob.append(p)
            depth.append(d)
            if actor == TERMINAL:
                kind.append(KIND_TERMINAL)
                player.append(-1)
                infoset.append(-1)
                utility.append(state.returns())
                first.append(-1)
                count.append(0)
                continue
            utility.append(0.0)
            if actor == CHANCE:
                kind.append(KIND_CHANCE)
                player.append(-1)
                infoset.append(-1)
                outcomes = list(state.chance_outcomes())
                children = [(state.child(a), q, d + 1) for a, q in outcomes]
            else:
                kind.append(KIND_DECISION)
                player.append(actor)
                key = state.information_set()
                legal = tuple(state.legal_actions())
                if key not in keys:
                    keys[key] = len(keys)
                    actions.append(legal)
                    owners.append(actor)
                elif actions[keys[key]] != legal:
                    raise ValueError(f"information set {key!r} has two action sets")
                infoset.append(keys[key])
                children = [(state.child(a), 1.0, d + 1) for a in legal]
            first.append(-2)  # assigned once the breadth-first numbering is known
            count.append(len(children))
            following.extend(children)
        frontier = following
    # Breadth-first: node i's children follow every child of the nodes before it.
    nxt = 1
    for i in range(len(kind)):
        if count[i]:
            first[i] = nxt
            nxt += count[i]
    n_actions = np.array([len(a) for a in actions], dtype=np.int64)
    offset = np.concatenate([[0], np.cumsum(n_actions)[:-1]]).astype(np.int64)
    tree = FlatTree(
        kind=np.array(kind, dtype=np.int64),
        player=np.array(player, dtype=np.int64),
        infoset=np.array(infoset, dtype=np.int64),
        first_child=np.array(first, dtype=np.int64),
        n_children=np.array(count, dtype=np.int64),
        chance_prob=np.array(prob, dtype=np.float64),
        utility=np.array(utility, dtype=np.float64),
        depth=np.array(depth, dtype=np.int64),
        offset=offset,
        n_actions=n_actions,
        infoset_player=np.array(owners, dtype=np.int64),
        infoset_keys=tuple(keys),
        actions=tuple(actions),
    )
    _check_depths(tree)
    return tree


def _check_depths(tree: FlatTree) -> None:
    """The level-by-level best response needs every node of an information set at one depth."""
    seen: dict[int, int] = {}
    for node in np.flatnonzero(tree.kind == KIND_DECISION):
        i, d = int(tree.infoset[node]), int(tree.depth[node])
        if seen.setdefault(i, d) != d:
            raise ValueError(f"information set {tree.infoset_keys[i]!r} spans two depths")
