"""The search tree: one node per decision of ours, reached by a line of play.

A node holds our abstract actions at that spot and, per action, the visits and the
sum and sum of squares of the chips they brought back (for the mean and its standard
error). Below an action, children are keyed by what happened until our next
decision: the opponents' actions (street, kind, size bucket) and the board cards
dealt, so chance nodes (the board) and opponent nodes are folded into the keys.

The tree lives in flat arrays (`Tree`) that the compiled iterations
(`ai.search.kernel`) grow and update; `Node` is a read-mostly view of one node for
Python (the root's statistics, the kept tree's lines, tests).
"""

from __future__ import annotations

import math
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from ai.search.abstraction import TreeAction
from ai.search.kernel import (
    C_FIELDS,
    C_KEY,
    C_LEN,
    C_NEXT,
    C_NODE,
    COUNT_NODES,
    E_FIELDS,
    E_HEAD,
    E_KIND,
    E_N,
    E_TO,
    EF_FIELDS,
    EF_FOLDS,
    EF_PRIOR,
    EF_W,
    EF_W2,
    MAX_ACTIONS,
    MAX_KEY,
    NODE_FIELDS,
    NODE_FIRST,
    NODE_FOLD,
    NODE_K,
    NODE_RULE,
    NODE_TOTAL,
)
from ai.sim.rules import BET, CALL, CHECK, FOLD

I64 = npt.NDArray[np.int64]
F64 = npt.NDArray[np.float64]
Rows = TypeVar("Rows", I64, F64)


class Tree:
    """Every node's, action's (edge's) and line's (child's) rows, grown by doubling."""

    def __init__(self, limit: bool, capacity: int = 1024) -> None:
        self.limit = limit
        self.nodes: I64 = np.zeros((capacity, NODE_FIELDS), dtype=np.int64)
        self.edges: I64 = np.zeros((capacity * MAX_ACTIONS, E_FIELDS), dtype=np.int64)
        self.edge_f: F64 = np.zeros((capacity * MAX_ACTIONS, EF_FIELDS))
        self.children: I64 = np.zeros((capacity, C_FIELDS), dtype=np.int64)
        self.keys: I64 = np.zeros(capacity * 16, dtype=np.int64)
        self.counts: I64 = np.zeros(4, dtype=np.int64)

    def reserve(self, iterations: int) -> None:
        """Room for `iterations` more iterations (each adds at most one node and line)."""
        nodes, edges, children, keys = (int(c) for c in self.counts)
        more = iterations + 1
        self.nodes = _grown(self.nodes, nodes + more)
        self.edges = _grown(self.edges, edges + more * MAX_ACTIONS)
        self.edge_f = _grown(self.edge_f, edges + more * MAX_ACTIONS)
        self.children = _grown(self.children, children + more)
        self.keys = _grown(self.keys, keys + more * MAX_KEY)

    @property
    def arrays(self) -> tuple[I64, I64, F64, I64, I64, I64]:
        return self.nodes, self.edges, self.edge_f, self.children, self.keys, self.counts


def _grown(array: Rows, needed: int) -> Rows:
    if array.shape[0] >= needed:
        return array
    size = max(needed, 2 * array.shape[0])
    out: Rows = np.zeros((size, *array.shape[1:]), dtype=array.dtype)
    out[: array.shape[0]] = array
    return out


class Node:
    """A view of node `id` of `tree`."""

    __slots__ = ("id", "tree")

    def __init__(self, tree: Tree, id: int) -> None:
        self.tree = tree
        self.id = id

    def _edges(self) -> range:
        row = self.tree.nodes[self.id]
        first = int(row[NODE_FIRST])
        return range(first, first + int(row[NODE_K]))

    @property
    def actions(self) -> list[TreeAction]:
        edges = self.tree.edges
        return [_action(int(edges[e, E_KIND]), int(edges[e, E_TO]), self.tree.limit)
                for e in self._edges()]  # fmt: skip

    @actions.setter
    def actions(self, actions: list[TreeAction]) -> None:
        """The same kinds at other amounts (a kept tree under the real bet sizes)."""
        edges = self.tree.edges
        for e, act in zip(self._edges(), actions, strict=True):
            edges[e, E_KIND] = act.kind
            edges[e, E_TO] = act.to

    @property
    def n(self) -> list[int]:
        return [int(v) for v in self.tree.edges[self._edges(), E_N]]

    @property
    def w(self) -> list[float]:
        return [float(v) for v in self.tree.edge_f[self._edges(), EF_W]]

    @property
    def w2(self) -> list[float]:
        return [float(v) for v in self.tree.edge_f[self._edges(), EF_W2]]

    @property
    def folds(self) -> list[float]:
        """Per action, its iterations in which every opponent folded."""
        return [float(v) for v in self.tree.edge_f[self._edges(), EF_FOLDS]]

    @property
    def prior(self) -> list[float]:
        return [float(v) for v in self.tree.edge_f[self._edges(), EF_PRIOR]]

    @property
    def total(self) -> int:
        return int(self.tree.nodes[self.id, NODE_TOTAL])

    @property
    def rule(self) -> tuple[int, int, int]:
        """Our rule's give-up, passive and (pot-sized) aggressive actions, as indices."""
        row = self.tree.nodes[self.id]
        return int(row[NODE_RULE]), int(row[NODE_RULE + 1]), int(row[NODE_RULE + 2])

    @property
    def children(self) -> list[dict[tuple[int, ...], Node]]:
        """Per action, the nodes below it by the line that led there (in creation order)."""
        tree = self.tree
        out: list[dict[tuple[int, ...], Node]] = []
        for e in self._edges():
            lines: list[tuple[tuple[int, ...], Node]] = []
            c = int(tree.edges[e, E_HEAD])
            while c >= 0:
                row = tree.children[c]
                start = int(row[C_KEY])
                key = tuple(int(k) for k in tree.keys[start : start + int(row[C_LEN])])
                lines.append((key, Node(tree, int(row[C_NODE]))))
                c = int(row[C_NEXT])
            out.append(dict(reversed(lines)))
        return out

    def mean(self, a: int) -> float:
        e = self._edges()[a]
        n = int(self.tree.edges[e, E_N])
        return float(self.tree.edge_f[e, EF_W]) / n if n else 0.0

    def stderr(self, a: int) -> float:
        """Standard error of the action's mean (0 with fewer than two visits)."""
        e = self._edges()[a]
        k = int(self.tree.edges[e, E_N])
        if k < 2:
            return 0.0
        mean = float(self.tree.edge_f[e, EF_W]) / k
        variance = max(float(self.tree.edge_f[e, EF_W2]) / k - mean * mean, 0.0) * k / (k - 1)
        return math.sqrt(variance / k)

    def size(self) -> int:
        """Nodes in this subtree."""
        return 1 + sum(c.size() for kids in self.children for c in kids.values())

    def without_fold(self) -> Node:
        """This node as a root: the fold taken out (a root values it exactly). Our fold
        is always a node's first action, so the root is a new row over the same edges."""
        tree = self.tree
        row = tree.nodes[self.id]
        if not row[NODE_K] or tree.edges[row[NODE_FIRST], E_KIND] != FOLD:
            return self
        tree.reserve(0)
        node = int(tree.counts[COUNT_NODES])
        tree.counts[COUNT_NODES] += 1
        first = int(row[NODE_FIRST]) + 1
        k = int(row[NODE_K]) - 1
        tree.nodes[node, NODE_FIRST] = first
        tree.nodes[node, NODE_K] = k
        tree.nodes[node, NODE_TOTAL] = int(tree.edges[first : first + k, E_N].sum())
        rule = [max(int(r) - 1, 0) for r in row[NODE_RULE : NODE_RULE + 3]]
        tree.nodes[node, NODE_RULE : NODE_RULE + 3] = rule
        tree.nodes[node, NODE_FOLD] = row[NODE_FOLD]
        return Node(tree, node)


def _action(kind: int, to: int, limit: bool) -> TreeAction:
    """The advice's labels, as ai.search.abstraction.our_actions gives them."""
    if kind == FOLD:
        return TreeAction(FOLD, 0, "fold")
    if kind in (CHECK, CALL):
        return TreeAction(kind, 0, "check" if kind == CHECK else "call")
    word = "bet" if kind == BET else "raise"
    return TreeAction(kind, to, word if limit else f"{word} {to}")
