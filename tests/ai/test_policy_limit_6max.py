"""The six-handed Limit blueprint (#33): its abstraction, the shipped artefact's lookup
at Limit tables of four to six, and the `blueprint` bot playing it legally there."""

from __future__ import annotations

import dataclasses
import random

import pytest
from random_hands import play_hand, random_decision
from search_spots import LIMIT6, spot

from ai.bots.blueprint import BlueprintBot
from ai.bots.settings import BotSettings
from ai.game.observation import Decision, Observation
from ai.game.observe import observe
from ai.policy.blueprint import NotCovered
from ai.policy.nway.games import LIMIT_6MAX
from ai.policy.nway.lookup import blueprint_for, own_blueprint, shipped
from ai.policy.nway.tree import A_RAISE, DECISION, build_tree, start_state, step_abstract
from ai.search.blueprint_prior import prior_for
from ai.sim.rules import CALL, CHECK
from ai.sim.state import SimState
from holdem.config import TableConfig, Variant

EXPLAIN = BotSettings(explain=True)
# The 6-max Limit abstraction with four players: small enough to build in a second.
TINY = dataclasses.replace(LIMIT_6MAX, name="limit-4max-tiny", n=4)


def limit(seats: int) -> TableConfig:
    return TableConfig(variant=Variant.LIMIT, seats=seats, small_blind=1, big_blind=2)


def test_multiway_streets_are_checked_down_and_heads_up_ones_allow_one_bet() -> None:
    assert LIMIT_6MAX.limit_cap(0, 6) == 2  # preflop: an open and a 3-bet
    assert LIMIT_6MAX.limit_cap(1, 2) == 1 and LIMIT_6MAX.limit_cap(1, 3) == 0
    tree = build_tree(TINY)
    rng = random.Random(3)
    heads_up_bets = 0
    for _ in range(200):
        state, node = start_state(TINY), 0
        while tree.kind[node] == DECISION:
            legal = state.legal_actions()
            assert legal is not None and legal.player == tree.player[node]
            k = int(tree.n_actions[node])
            raises = sum(int(tree.action[node, a]) == A_RAISE for a in range(k))
            if state.street > 0 and state.n_in_hand > 2:
                assert raises == 0
            elif state.street > 0:
                heads_up_bets += raises
            a = rng.randrange(k)
            step_abstract(state, int(tree.action[node, a]), int(tree.to[node, a]))
            node = int(tree.child[node, a])
        assert state.over and sum(state.payoffs()) == 0
    assert heads_up_bets > 0


@pytest.mark.parametrize("seats", [4, 5, 6])
def test_limit_tables_of_four_to_six_look_up_the_6max_artefact(seats: int) -> None:
    state = SimState.new_hand(limit(seats), dict.fromkeys(range(1, seats + 1), 200), 1, seed=2)
    obs = observe(state, [])
    lookup = blueprint_for(obs)
    assert lookup is shipped("limit-6max") and lookup.version.startswith("limit-6max-")
    probs = lookup.action_probabilities(obs)
    assert sum(probs.values()) == pytest.approx(1.0)
    # The strategy is the artefact's at the node the lookup walks to (the first actor is
    # the tree's seat nearest the button that this table has).
    node = lookup.walk(obs).node
    assert lookup.tree.player[node] == 6 - seats + 2
    assert BlueprintBot(seed=1).action_probabilities(obs) == {
        k: p for k, p in probs.items() if p > 0
    }


def _hand(seats: int, seed: int, player: BlueprintBot) -> tuple[int, int]:
    """One Limit hand at `seats`, every seat the bot (a few random actions mixed in):
    each decision legal, the reason naming the artefact where it covers. (covered, asked)"""
    covered = asked = 0

    def choose(obs: Observation, rng: random.Random) -> Decision:
        nonlocal covered, asked
        if rng.random() < 0.1:
            return random_decision(obs.legal, rng)
        asked += 1
        decision = player.decide(obs)
        assert decision.is_legal(obs.legal)
        covered += "limit-6max blueprint (" in decision.reason
        return decision

    play_hand(limit(seats), seed, choose)
    return covered, asked


@pytest.mark.parametrize("seats", [4, 6])
def test_the_blueprint_bot_plays_legal_actions_at_six_limit_seats(seats: int) -> None:
    covered = asked = 0
    for seed in range(6):
        c, a = _hand(seats, seed, BlueprintBot(seed=seed, settings=EXPLAIN))
        covered, asked = covered + c, asked + a
        assert _hand(seats, seed, BlueprintBot(seed=seed)) == _hand(
            seats, seed, BlueprintBot(seed=seed)
        )  # repeatable under the seed
    assert covered > 0.8 * asked  # a few random raises leave the tree


def test_mcts_at_six_handed_limit_keeps_its_own_play() -> None:
    # The 6-max blueprint is the `blueprint` style's only: as our preflop play and as
    # the search's prior it lost on the training set (the experiments note), so mcts at
    # these tables keeps the three-handed mapping (Loki's rules first in) and the model.
    obs = spot(LIMIT6, {3: "QdJd"}, [])
    with pytest.raises(NotCovered):
        own_blueprint(obs)
    limps = [(CALL, 0)] * 5 + [(CHECK, 0)]
    assert prior_for(spot(LIMIT6, {1: "QhJh"}, limps, board="Th9c2d")) is None
