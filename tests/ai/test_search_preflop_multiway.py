"""Our own multiway preflop play in `mcts` (#33): the blueprint's wherever one covers
the table (three-handed Limit, No-Limit with three to six), sampled with the bot's
seeded RNG; at bigger Limit tables the three-handed blueprint once the players who
folded first leave no more than three in (`lookup.folded_out`), else Loki's rules."""

from __future__ import annotations

import random

import pytest
from random_hands import play_hand, random_decision
from search_spots import LIMIT6, NL6, bot, spot

from ai.game.observation import Decision, Observation
from ai.policy.blueprint import NotCovered
from ai.policy.nway.lookup import folded_out, own_blueprint, sample_action, shipped
from ai.search.profiles import MctsConfig
from ai.sim.rules import CALL, FOLD, PREFLOP, RAISE
from holdem.config import TableConfig, Variant

LIMIT3 = TableConfig(variant=Variant.LIMIT, seats=3, small_blind=1, big_blind=2)
LIMIT9 = TableConfig(variant=Variant.LIMIT, seats=9, small_blind=1, big_blind=2)
NL9 = TableConfig(variant=Variant.NO_LIMIT, seats=9, small_blind=1, big_blind=2)


def sampled(obs: Observation, seed: int) -> tuple[int, int]:
    """What the blueprint plays here under the bot's seed (its RNG's first draw)."""
    lookup, seats = own_blueprint(obs)
    return sample_action(lookup.action_probabilities(obs, seats), random.Random(seed).random())


@pytest.mark.parametrize(
    ("config", "game", "actions", "holes"),
    [
        # The button first in at a three-handed Limit table.
        (LIMIT3, "limit-3max", [], ["QdJd", "9h9d", "Ts8s", "Kc5c", "AhKd", "7c2d"]),
        # The small blind after UTG's limp and three folds at a six-handed No-Limit table.
        (NL6, "nolimit-6max", [(CALL, 0), (FOLD, 0), (FOLD, 0), (FOLD, 0)], ["QdJd", "AhKd"]),
    ],
)
def test_multiway_preflop_is_the_blueprints_sample_not_lokis_rule(
    config: TableConfig, game: str, actions: list[tuple[int, int]], holes: list[str]
) -> None:
    differs = 0
    for hole in holes:
        seat = 1 if actions else config.seats  # the small blind, or the button
        obs = spot(config, {seat: hole}, actions)
        assert own_blueprint(obs)[0] is shipped(game)
        for seed in range(4):
            mcts = bot(seed=seed, search_preflop=False)
            decision = mcts.decide(obs)
            assert (decision.kind, decision.to) == sampled(obs, seed), hole
            # The blueprint's own size, never the search's; a fold is put to the search
            # (the limper's one decision seen) and stands: its opponents are nearly the
            # blueprint (tests/ai/test_search_multiway_evidence.py).
            assert mcts.last is None or decision.kind == FOLD
            rule = bot(seed=seed, search_preflop=False).preflop(obs)
            differs += (rule.kind, rule.to) != (decision.kind, decision.to)
    assert differs > 0  # Loki's rules would have played other actions here


def test_the_rules_where_no_blueprint_covers_the_spot() -> None:
    # UTG first in at six-handed Limit: six players still in, the nearest blueprint seats
    # three: Loki's rules.
    obs = spot(LIMIT6, {3: "QdJd"}, [])
    with pytest.raises(NotCovered):
        own_blueprint(obs)
    rule = bot(seed=2, search_preflop=False).preflop(obs)
    decision = bot(seed=2, search_preflop=False).decide(obs)
    assert (decision.kind, decision.to) == (rule.kind, rule.to)
    # Off by the profile switch: Loki's rules also where a blueprint would cover it.
    off = MctsConfig(preflop_blueprint=False)
    obs = spot(LIMIT3, {3: "Kc5c"}, [])
    rule = bot(seed=2, search_preflop=False).preflop(obs)
    decision = bot(seed=2, search_preflop=False, config=off).decide(obs)
    assert (decision.kind, decision.to) == (rule.kind, rule.to)


def test_a_bigger_table_after_folds_is_the_smaller_tables_hand() -> None:
    """The button of six-handed Limit after three folds plays the three-handed Limit
    table's button; the big blind of nine-handed No-Limit after six folds, a limp and a
    raise plays the 6-max tree's big blind facing the same two players."""
    for hole in ("Ts8s", "AhKd", "7c2d"):
        big = spot(LIMIT6, {6: hole}, [(FOLD, 0)] * 3)
        small = spot(LIMIT3, {3: hole}, [])
        seats = folded_out(big, 3)
        assert seats.tree_of == (0, 1, None, None, None, 2) and seats.skipped == 0
        lookup = shipped("limit-3max")
        assert lookup.action_probabilities(big, seats) == lookup.action_probabilities(small)
    nine = spot(NL9, {2: "AhKd"}, [(FOLD, 0)] * 5 + [(CALL, 0), (RAISE, 7), (FOLD, 0)])
    assert nine.index == 1
    seats = folded_out(nine, 6)
    assert seats.tree_of == (0, 1, None, None, None, None, None, 4, 5) and seats.skipped == 2
    lookup, found = own_blueprint(nine)
    assert lookup is shipped("nolimit-6max") and found == seats
    assert sum(lookup.action_probabilities(nine, seats).values()) == pytest.approx(1.0)
    # mcts maps only Limit tables so (No-Limit beyond six is not measured yet): the rules.
    rule = bot(seed=1, search_preflop=False).preflop(nine)
    decision = bot(seed=1, search_preflop=False).preflop_play(nine)
    assert (decision.kind, decision.to) == (rule.kind, rule.to)
    # Off by the profile switch: the rules.
    off = MctsConfig(preflop_folded_out=False)
    rule = bot(seed=1, search_preflop=False).preflop(big)
    decision = bot(seed=1, search_preflop=False, config=off).decide(big)
    assert (decision.kind, decision.to) == (rule.kind, rule.to)


def play_preflop(config: TableConfig, seed: int) -> list[tuple[int, int]]:
    """One hand's preflop at `config`, every decision `mcts`'s preflop play (checked
    legal), the other seats' actions random; the decisions made."""
    mcts = bot(seed=seed, search_preflop=False)
    ours: list[tuple[int, int]] = []

    def choose(obs: Observation, rng: random.Random) -> Decision | None:
        if obs.street != PREFLOP:
            return None
        if rng.random() < 0.5:
            decision = mcts.preflop_play(obs)
            ours.append((decision.kind, decision.to))
            return decision
        return random_decision(obs.legal, rng)

    play_hand(config, seed, choose)
    return ours


@pytest.mark.parametrize("config", [LIMIT3, LIMIT6, LIMIT9, NL6, NL9])
def test_legal_and_repeatable_on_random_multiway_hands(config: TableConfig) -> None:
    for seed in range(6):
        played = play_preflop(config, seed)
        assert played == play_preflop(config, seed)
