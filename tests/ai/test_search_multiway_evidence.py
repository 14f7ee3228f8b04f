"""Preflop evidence at six-handed No-Limit (#33): our preflop play is the 6-max
blueprint's, and a blueprint fold is put to the search once anything was seen of the
players still in, as at heads-up. The search's opponents carry the evidence (the
blueprint moved towards each player's model by n / (n + k)); the fold gives way only to
a continuing action whose whole 95% interval is above folding's 0."""

from __future__ import annotations

from search_spots import NL6, bot, spot
from test_search_preflop_evidence import seen_raising_at_random

from ai.bots.mcts import MctsBot
from ai.game.observation import Observation
from ai.policy.nway.lookup import shipped
from ai.search.mcts import Z95
from ai.sim.rules import FOLD, RAISE


def facing_a_random_sized_raise() -> Observation:
    """Ace-eight offsuit in the hijack after UTG's raise to 80 bb (200 bb stacks): the
    6-max blueprint reads the raise as its all-in open and folds the hand."""
    obs = spot(NL6, {4: "Ah8d"}, [(RAISE, 160)], stacks=400)
    assert obs.n == 6 and obs.index == 3 and not obs.limit
    assert shipped("nolimit-6max").action_probabilities(obs)[(FOLD, 0)] == 1.0
    return obs


def others(obs: Observation) -> list[str]:
    return [obs.player_id(i) for i in range(obs.n) if i != obs.index]


def test_with_nothing_seen_the_six_handed_fold_is_the_blueprints() -> None:
    obs = facing_a_random_sized_raise()
    mcts = bot(iterations=600, search_preflop=False)
    mcts.preflop_play(obs)
    assert not mcts.consults_search(obs)  # nothing seen: the blueprint's play
    assert mcts.decide(obs).kind == FOLD


def test_against_random_raisers_a_six_handed_blueprint_fold_is_continued() -> None:
    """Every other player seen deciding at random, its bets showing average holdings:
    the search is consulted and continuing is clearly above folding. Before, the
    search was consulted at heads-up tables only and the fold stood."""
    obs = facing_a_random_sized_raise()
    mcts: MctsBot = bot(iterations=2000, search_preflop=False)
    for player in others(obs):
        seen_raising_at_random(mcts, player, cards_blind=True)
    decision = mcts.decide(obs)
    assert decision.kind != FOLD
    assert mcts.last is not None
    chosen = mcts.last.choice
    assert chosen.value_bb - Z95 * chosen.stderr_bb > 0, chosen


def test_seven_deuce_still_folds_to_the_random_raise() -> None:
    """The search is consulted but continuing with the worst hand is clearly below
    folding against the same players: the blueprint's fold stands."""
    obs = spot(NL6, {4: "7h2d"}, [(RAISE, 160)], stacks=400)
    mcts = bot(iterations=600, search_preflop=False)
    for player in others(obs):
        seen_raising_at_random(mcts, player, cards_blind=True)
    assert mcts.decide(obs).kind == FOLD
    assert mcts.last is not None  # searched, and the fold stood


def test_six_handed_the_blueprints_raise_keeps_its_size() -> None:
    """Only folds are put to the search multiway; the blueprint's raise sizes stand
    (sizing them by the search is measured heads-up only)."""
    obs = spot(NL6, {3: "AhAd"}, [], stacks=400)
    mcts = bot(iterations=40, search_preflop=False)
    for player in others(obs):
        seen_raising_at_random(mcts, player, cards_blind=True)
    raised = next(d for d in (mcts.preflop_play(obs) for _ in range(40)) if d.kind == RAISE)
    assert mcts.consults_search(obs)
    assert not mcts.sizes_by_evidence(obs, raised)
