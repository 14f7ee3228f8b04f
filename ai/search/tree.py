"""The search tree: one node per decision of ours, reached by a line of play.

A node holds our abstract actions at that spot and, per action, the visits and the
sum and sum of squares of the chips they brought back (for the mean and its standard
error). Below an action, children are keyed by what happened until our next
decision: the opponents' actions (street, kind, size bucket) and the board cards
dealt, so chance nodes (the board) and opponent nodes are folded into the keys.
"""

from __future__ import annotations

import math

from ai.search.abstraction import TreeAction


class Node:
    __slots__ = ("actions", "children", "n", "order", "prior", "rule", "total", "w", "w2")

    def __init__(self, actions: list[TreeAction], prior: list[float]) -> None:
        self.actions = actions
        self.prior = prior
        k = len(actions)
        self.n = [0] * k
        self.w = [0.0] * k
        self.w2 = [0.0] * k
        self.total = 0
        self.children: list[dict[tuple[int, ...], Node]] = [{} for _ in range(k)]
        # Untried actions are tried in this order: the likeliest first.
        self.order = sorted(range(k), key=lambda a: -prior[a])
        # Our rule's give-up, passive and (pot-sized) aggressive actions, as indices.
        self.rule = (0, 0, 0)

    def select(self, exploration: float, scale: float, puct: bool) -> int:
        """UCT (w/n + c sqrt(ln t / n)) or PUCT (w/n + c P sqrt(t) / (1 + n)) on values
        divided by `scale`; every action is tried once first."""
        n = self.n
        for a in self.order:
            if not n[a]:
                return a
        w = self.w
        best = 0
        best_score = -math.inf
        if puct:
            coef = exploration * math.sqrt(self.total)
            prior = self.prior
            for a in range(len(n)):
                score = w[a] / (n[a] * scale) + coef * prior[a] / (1 + n[a])
                if score > best_score:
                    best, best_score = a, score
        else:
            log_t = math.log(self.total)
            for a in range(len(n)):
                score = w[a] / (n[a] * scale) + exploration * math.sqrt(log_t / n[a])
                if score > best_score:
                    best, best_score = a, score
        return best

    def update(self, a: int, value: float) -> None:
        self.n[a] += 1
        self.w[a] += value
        self.w2[a] += value * value
        self.total += 1

    def mean(self, a: int) -> float:
        return self.w[a] / self.n[a] if self.n[a] else 0.0

    def stderr(self, a: int) -> float:
        """Standard error of the action's mean (0 with fewer than two visits)."""
        k = self.n[a]
        if k < 2:
            return 0.0
        mean = self.w[a] / k
        variance = max(self.w2[a] / k - mean * mean, 0.0) * k / (k - 1)
        return math.sqrt(variance / k)

    def size(self) -> int:
        """Nodes in this subtree."""
        return 1 + sum(c.size() for kids in self.children for c in kids.values())

    def without_fold(self) -> Node:
        """This node as a root: the fold taken out (a root values it exactly)."""
        keep = [a for a, act in enumerate(self.actions) if act.kind != 0]
        if len(keep) == len(self.actions):
            return self
        node = Node([self.actions[a] for a in keep], [self.prior[a] for a in keep])
        node.n = [self.n[a] for a in keep]
        node.w = [self.w[a] for a in keep]
        node.w2 = [self.w2[a] for a in keep]
        node.children = [self.children[a] for a in keep]
        node.total = sum(node.n)
        return node
