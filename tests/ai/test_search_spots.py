"""The search on spots with a known answer, and the reasoning it gives for them."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from search_spots import LIMIT2, LIMIT6, NL2, bot, spot

from ai.game.observation import Observation
from ai.search import kernel as K
from ai.search.profiles import ADVISOR
from ai.sim.rules import BET, CALL, CHECK, FOLD, RAISE
from holdem.config import TableConfig, Variant

CHECK_TO_RIVER = [(CALL, 0), (CHECK, 0)] + [(CHECK, 0)] * 4 + [(CHECK, 0)]


def test_the_nuts_facing_a_river_bet_raises_or_calls_never_folds() -> None:
    # A royal flush on the board's spades: nothing beats it.
    obs = spot(LIMIT2, {1: "AsKs"}, [*CHECK_TO_RIVER, (BET, 0)], board="QsJsTs2h3d")
    assert obs.legal.can_fold and obs.street == 3
    decision = bot().decide(obs)
    assert decision.kind in (CALL, RAISE)
    assert decision.values is not None and decision.values["fold"] == 0.0
    assert max(decision.values.values()) > 0.0


def test_a_hopeless_hand_facing_an_all_in_folds() -> None:
    # Seven high on A-K-Q-J of hearts: every pair, heart or ten beats it.
    obs = spot(NL2, {1: "7c2d"}, [*CHECK_TO_RIVER, (BET, 398)], board="AhKhQhJh3c")
    assert obs.legal.call_amount == 398  # all in
    searcher = bot()
    decision = searcher.decide(obs)
    assert decision.kind == FOLD
    assert searcher.last is not None and searcher.last.equity < 0.2


def test_a_free_check_is_never_folded() -> None:
    # The big blind after five limpers, with the worst hand, searching preflop; and on a flop.
    free = spot(LIMIT6, {2: "7c2d"}, [(CALL, 0)] * 5)
    assert free.legal.can_check
    for obs in (free, spot(LIMIT2, {1: "7c2d"}, [(CALL, 0), (CHECK, 0)], board="AhKhQs")):
        decision = bot(iterations=150).decide(obs)
        assert decision.kind != FOLD and decision.is_legal(obs.legal)


def test_folding_in_the_tree_loses_the_chips_in_front_of_us() -> None:
    # Folding loses this street's chips too (a fold that kept them made a bet-then-fold
    # look free). The big blind facing a raise: the root's fold loses the blind. A missed
    # Limit flop, where our bets are often raised: every fold further down the tree is
    # backed up as exactly the chips we hold at its node, no more.
    facing = search_tree(spot(NL2, {2: "Ts9s"}, [(RAISE, 6)]))
    assert facing.nodes[facing.root, K.NODE_FOLD] == -2  # the blind, lost
    assert all(facing.nodes[node, K.NODE_FOLD] <= -2 for node in facing.ids)
    missed = search_tree(spot(LIMIT2, {1: "7c2d"}, [(CALL, 0), (CHECK, 0)], board="AhKhQs"))
    folds = 0
    for node in missed.ids:
        first = int(missed.nodes[node, K.NODE_FIRST])
        for e in range(first, first + int(missed.nodes[node, K.NODE_K])):
            n = missed.edges[e, K.E_N]
            if node != missed.root and missed.edges[e, K.E_KIND] == FOLD and n:
                folds += 1
                assert missed.edge_f[e, K.EF_W] / n == missed.nodes[node, K.NODE_FOLD]
    assert folds > 0  # the search did fold later in some lines


@dataclass
class _Tree:
    nodes: K.I64
    edges: K.I64
    edge_f: K.F64
    root: int
    ids: range


def search_tree(obs: Observation) -> _Tree:
    """The tree of one decision's search (values: chips since the hand began)."""
    searcher = bot(iterations=600)
    searcher.decide(obs)
    result = searcher.last
    assert result is not None
    tree = result.root.tree
    ids = range(int(tree.counts[K.COUNT_NODES]))
    return _Tree(tree.nodes, tree.edges, tree.edge_f, result.root.id, ids)


def test_the_reason_leads_with_the_chosen_action_and_its_best_value() -> None:
    obs = spot(LIMIT2, {1: "AsKs"}, [*CHECK_TO_RIVER, (BET, 0)], board="QsJsTs2h3d")
    searcher = bot()
    searcher.explain = True
    decision = searcher.decide(obs)
    assert decision.values is not None
    assert decision.reason.split(":")[0].lower().startswith(decision.name)
    chosen = decision.values["raise" if decision.kind == RAISE else "call"]
    assert chosen == max(decision.values.values())
    assert "bb" in decision.reason and "equity" in decision.reason
    fold = spot(NL2, {1: "7c2d"}, [*CHECK_TO_RIVER, (BET, 398)], board="AhKhQhJh3c")
    text = searcher.decide(fold).reason
    assert text.startswith("Fold: calling loses")


def test_the_search_modules_docstring_examples() -> None:
    import doctest
    import importlib

    for name in (
        "ai.search.abstraction",
        "ai.search.explain",
        "search_policy",
        "ai.search.versus",
    ):
        result = doctest.testmod(importlib.import_module(name))
        assert result.attempted and not result.failed, name


# -- The advice spots of #33 -----------------------------------------------------------
# Heads-up No-Limit, blinds 50/100, 100 big blinds: a raise to 325 called, 6.5 bb in the
# pot. Each spot with the actions any strong player would find sound; the advisor (on
# the frequency tables, 2,000 iterations, its seed) must pick one, and a free check must
# never be valued below the fold.
NL_100 = TableConfig(variant=Variant.NO_LIMIT, seats=2, small_blind=50, big_blind=100)
NL6_100 = TableConfig(variant=Variant.NO_LIMIT, seats=6, small_blind=50, big_blind=100)
CALLED = [(RAISE, 325), (CALL, 0)]
DEEP = 10_000
SMALL = {"check", "bet 100", "bet 325", "bet 650"}  # checking, or betting at most the pot
NOT_ALL_IN = SMALL | {"bet 1300"}
ADVICE_SPOTS: dict[str, tuple[Observation, set[str]]] = {
    # The weak-hand shoves into small pots ("Bet 30,050" over "Check -6.34 bb").
    "bottom pair 3h6d on 4d3cJs, first": (
        spot(NL_100, {1: "3h6d"}, CALLED, board="4d3cJs", stacks=DEEP),
        SMALL,
    ),
    "bottom pair 3h6d on 4d3cJs, checked to": (
        spot(NL_100, {2: "3h6d"}, [*CALLED, (CHECK, 0)], board="4d3cJs", stacks=DEEP),
        SMALL,
    ),
    "ace-high A2 on 4c6h7h": (
        spot(NL_100, {1: "Ah2c"}, CALLED, board="4c6h7h", stacks=DEEP),
        SMALL,
    ),
    "king-high K8 on QsAsAh, first": (
        spot(NL_100, {1: "Kd8c"}, CALLED, board="QsAsAh", stacks=DEEP),
        SMALL,
    ),
    "king-high K8 on QsAsAh, checked to": (
        spot(NL_100, {2: "Kd8c"}, [*CALLED, (CHECK, 0)], board="QsAsAh", stacks=DEEP),
        NOT_ALL_IN,
    ),
    # Top pair on a four-straight river, raised all in over our bet by a range the reads
    # narrowed to straights and sets.
    "river call facing an all-in raise": (
        spot(
            NL_100,
            {1: "AhTd"},
            [*CALLED, (BET, 650), (CALL, 0), (CHECK, 0), (CHECK, 0), (BET, 1300), (RAISE, 9025)],
            board="Ts9h8c2d7s",
            stacks=DEEP,
        ),
        {"fold"},
    ),
    # Free checks: the big blind's junk after limps, and on a flop it missed.
    "free check preflop": (spot(LIMIT6, {2: "7c2d"}, [(CALL, 0)] * 5), {"check", "raise"}),
    "free check on a missed flop": (
        spot(LIMIT2, {1: "7c2d"}, [(CALL, 0), (CHECK, 0)], board="AhKhQs"),
        {"check", "bet"},
    ),
    # The nuts (a royal flush) facing a river bet.
    "the nuts facing a bet": (
        spot(LIMIT2, {1: "AsKs"}, [*CHECK_TO_RIVER, (BET, 0)], board="QsJsTs2h3d"),
        {"call", "raise"},
    ),
    # No-Limit: the nut flush facing a pot-sized river bet, the nut straight facing a river
    # bet after a called flop bet, a set facing a flop bet: call or raise ("raise": any size).
    "the nut flush facing a river bet": (
        spot(
            NL_100,
            {2: "AhQh"},
            [*CALLED, (CHECK, 0), (CHECK, 0), (CHECK, 0), (CHECK, 0), (BET, 650)],
            board="Kh7h2c9h4s",
            stacks=DEEP,
        ),
        {"call", "raise"},
    ),
    "the nut straight facing a river bet": (
        spot(
            NL_100,
            {1: "JdTc"},
            [*CALLED, (CHECK, 0), (BET, 325), (CALL, 0), (CHECK, 0), (BET, 900)],
            board="9s8h7c2d3h",
            stacks=DEEP,
        ),
        {"call", "raise"},
    ),
    "a set facing a flop bet": (
        spot(NL_100, {1: "7d7s"}, [*CALLED, (CHECK, 0), (BET, 400)], board="7h2cKd", stacks=DEEP),
        {"call", "raise"},
    ),
    # A free check on the river with nothing: check, or a bet of at most the pot.
    "air on the river, checked to": (
        spot(
            NL_100,
            {1: "5c4c"},
            [*CALLED, (CHECK, 0), (CHECK, 0), (CHECK, 0), (CHECK, 0)],
            board="AsKd9h8sQd",
            stacks=DEEP,
        ),
        SMALL,
    ),
    # Preflop out of position facing a raise with T3s and 95o (the calls valued +20
    # and +11 bb): fold, or a call valued as the marginal hand it is (`PREFLOP_CALL_BB`).
    "preflop T3s facing a raise out of position": (
        spot(NL_100, {1: "Th3h"}, [(RAISE, 300)], stacks=DEEP),
        {"fold", "call"},
    ),
    "preflop 95o facing a raise out of position": (
        spot(NL_100, {1: "9s5d"}, [(RAISE, 300)], stacks=DEEP),
        {"fold", "call"},
    ),
    "preflop 95o in the big blind facing the button, 6-max": (
        spot(NL6_100, {2: "9s5d"}, [(FOLD, 0)] * 3 + [(RAISE, 250), (FOLD, 0)], stacks=DEEP),
        {"fold", "call"},
    ),
}
# The most a preflop call with a weak offsuit or unconnected suited hand may be worth.
PREFLOP_CALL_BB = 3.0


@pytest.mark.parametrize("name", sorted(ADVICE_SPOTS))
def test_the_advisor_is_sound_on_the_advice_spots(name: str) -> None:
    obs, sound = ADVICE_SPOTS[name]
    advisor = bot(iterations=2000, config=ADVISOR)
    advisor.explain = True
    decision = advisor.decide(obs)
    result = advisor.last
    assert result is not None and decision.values is not None
    label = result.choice.label
    assert label in sound or label.split()[0] in sound, (name, decision.reason)
    if obs.legal.can_check:
        assert decision.values["check"] >= 0.0, (name, decision.values)  # the fold's value
    if obs.legal.can_fold:
        assert decision.values["fold"] == 0.0
    assert decision.reason.lower().startswith(decision.name)
    if name.startswith("preflop"):
        assert decision.values["call"] < PREFLOP_CALL_BB, (name, decision.values)
    if name.startswith("river call"):
        # The equity shown is against the narrowed range, far below the price.
        assert result.equity < obs.pot_odds
