"""The search on spots with a known answer, and the reasoning it gives for them."""

from __future__ import annotations

from dataclasses import replace

from search_spots import LIMIT2, LIMIT6, NL2, NL6, bot, spot

from ai.game.observation import Observation
from ai.search.mcts import SearchConfig
from ai.sim.rules import BET, CALL, CHECK, FOLD, RAISE

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
        "ai.search.correction",
        "ai.search.explain",
        "search_policy",
        "ai.search.versus",
    ):
        result = doctest.testmod(importlib.import_module(name))
        assert result.attempted and not result.failed, name


def test_no_limit_overbets_can_be_left_to_heads_up_pots() -> None:
    # A checked flop, the bot last to act. By default two pots and all-in are searched
    # whoever is in the hand; `mcts-potcap` (overbet_players 2) leaves them out with two
    # others still in, and searches them heads-up.
    limp = [(CALL, 0), (FOLD, 0), (FOLD, 0), (FOLD, 0), (CALL, 0), (CHECK, 0)]
    three = spot(NL6, {4: "AhKd"}, [*limp, (CHECK, 0), (CHECK, 0)], board="Ks7c2d")
    heads_up = spot(NL2, {2: "AhKd"}, [(CALL, 0), (CHECK, 0), (CHECK, 0)], board="Ks7c2d")

    def bets(obs: Observation, overbet_players: int) -> list[int]:
        searcher = bot(iterations=200)
        searcher.config = replace(searcher.config, overbet_players=overbet_players)
        decision = searcher.decide(obs)
        assert decision.values is not None and decision.is_legal(obs.legal)
        return [int(label.split()[1]) for label in decision.values if label.startswith("bet ")]

    for obs, players in ((three, 3), (heads_up, 2)):
        assert obs.n_in_hand == players and obs.legal.can_check and obs.legal.max_to == 398
        assert {2 * obs.pot, 398} <= set(bets(obs, SearchConfig().overbet_players))
    capped = bets(three, 2)
    assert max(capped) == three.pot and 2 * three.pot not in capped  # a pot bet at most
    assert {2 * heads_up.pot, 398} <= set(bets(heads_up, 2))
