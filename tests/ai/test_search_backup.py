"""`kernel.best_values` on a hand-built tree (the `best` ablation): an action's value is
the continuation the search settled on after it (folding where that is clearly better),
not the average of what it happened to play there."""

from __future__ import annotations

import numpy as np

from ai.search import kernel as K
from ai.search.tree import Tree
from ai.sim.rules import BET, CALL, CHECK, FOLD


def tree_after_a_check(call_visits: int, call_value: float, ended_value: float) -> Tree:
    """Root (we put 2 chips in; folding now leaves us at -2): check or bet. After the
    check, 80 of its 100 iterations met a bet and reached our next node, where the fold
    (exact, -2) was tried 10 times and the call `call_visits` times at `call_value`;
    the other 20 ended at once at `ended_value` (chips since the hand began)."""
    tree = Tree(limit=True)
    nodes, edges, edge_f, children = tree.nodes, tree.edges, tree.edge_f, tree.children
    nodes[0, [K.NODE_FIRST, K.NODE_K, K.NODE_FOLD]] = (0, 2, -2)
    nodes[1, [K.NODE_FIRST, K.NODE_K, K.NODE_FOLD]] = (2, 2, -2)
    below = 10 + call_visits
    nodes[0, K.NODE_TOTAL] = 20 + below + 50
    nodes[1, K.NODE_TOTAL] = below
    kinds_visits_sums = [
        (CHECK, 20 + below, 20 * ended_value + 10 * -2 + call_visits * call_value),
        (BET, 50, 50 * 1.0),
        (FOLD, 10, 10 * -2.0),
        (CALL, call_visits, call_visits * call_value),
    ]
    for e, (kind, n, w) in enumerate(kinds_visits_sums):
        edges[e, [K.E_KIND, K.E_N, K.E_HEAD]] = (kind, n, -1)
        edge_f[e, K.EF_W] = w
    edges[0, K.E_HEAD] = 0  # the check's one line leads to node 1
    children[0, [K.C_NODE, K.C_NEXT, K.C_KEY, K.C_LEN]] = (1, -1, 0, 1)
    tree.counts[K.COUNT_NODES] = 2
    tree.counts[K.COUNT_EDGES] = 4
    tree.counts[K.COUNT_CHILDREN] = 1
    return tree


def values(tree: Tree, min_visits: int = 16) -> tuple[list[float], list[float]]:
    q = np.zeros(tree.edges.shape[0])
    v = np.zeros(2)
    K.best_values(tree.nodes, tree.edges, tree.edge_f, tree.children, tree.counts, 0,
                  min_visits, q, v)  # fmt: skip
    return [float(x) for x in q[:4]], [float(x) for x in v]


def test_a_later_node_counts_at_its_settled_action_not_its_average() -> None:
    # Calling the bet loses 10 (70 times): the average after the check is -6.6, below
    # folding now (-2); the best continuation folds to the bet (-2 at node 1), so the
    # check is worth (20 * 3 + 80 * -2) / 100 = -1, above folding now.
    tree = tree_after_a_check(70, -10.0, 3.0)
    assert float(tree.edge_f[0, K.EF_W]) / 100 == -6.6
    q, v = values(tree)
    assert v[1] == -2.0
    assert q[0] == -1.0 and q[1] == 1.0 and q[2] == -2.0 and q[3] == -10.0
    # A call that wins is the best continuation instead.
    q, v = values(tree_after_a_check(70, 4.0, 3.0))
    assert v[1] == 4.0 and q[0] == (20 * 3 + 80 * 4) / 100


def test_an_action_searched_too_little_is_not_taken_as_best() -> None:
    # The call won 30 but was tried 5 times: with no action searched 16 times, node 1
    # counts at what was played there on average (never below its fold); with 5 enough,
    # at its most visited action (the fold, 10 visits), not the call's lucky mean.
    _, v = values(tree_after_a_check(5, 30.0, 3.0))
    assert v[1] == (10 * -2 + 5 * 30) / 15
    _, v = values(tree_after_a_check(5, 30.0, 3.0), min_visits=5)
    assert v[1] == -2.0


def test_a_free_check_is_never_below_the_fold() -> None:
    # The hands that ended at once lost 20 each: still, after checking we could fold to
    # anything, so the check is floored at the root's fold (-2, 0 relative to folding).
    q, _ = values(tree_after_a_check(70, -10.0, -20.0))
    assert q[0] == -2.0


def test_a_later_fold_replaces_only_a_clearly_worse_estimate() -> None:
    # The call loses 2.5 on average with a standard error of 1: not clearly below the
    # fold's -2, so node 1 keeps the estimate (a floor under every noisy estimate would
    # favour the lines with the most later decisions).
    tree = tree_after_a_check(70, -2.5, 3.0)
    tree.edge_f[3, K.EF_W2] = 70 * (70.0 + 2.5**2)  # variance 70 over 70 visits
    _, v = values(tree)
    assert v[1] == -2.5
