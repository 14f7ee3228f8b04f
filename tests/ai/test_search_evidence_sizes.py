"""Preflop evidence on sizes (#33): at heads-up No-Limit our preflop play is the
blueprint's, its sizes too, until anything is seen of the opponent; then the search,
against opponents moved towards the model by the evidence, sizes the blueprint's raise
up to the pot, and a blueprint call gives way to such a raise whose whole 95% interval
is above the call's."""

from __future__ import annotations

from dataclasses import replace

from search_spots import NL2, bot, spot
from test_search_blueprint import seen_playing

from ai.bots.mcts import MctsBot, rule_raise_size
from ai.game.observation import Observation
from ai.policy.nway.lookup import shipped
from ai.search.mcts import Z95, ActionStats, is_overbet
from ai.sim.rules import BET, CALL, RAISE

STATION = (0.0, 1.0, 0.0)  # calls every bet, checks otherwise
DEFAULT_ITERATIONS = 1000


def calling_station_seen(mcts: MctsBot, obs: Observation) -> None:
    seen_playing(mcts.model, obs.player_id(1 - obs.index), STATION)


def test_with_no_evidence_the_blueprints_raise_keeps_its_size() -> None:
    obs = spot(NL2, {2: "AhAd"}, [])
    mcts = bot(iterations=DEFAULT_ITERATIONS, search_preflop=False)
    decision = mcts.decide(obs)
    assert mcts.last is None  # not searched: the blueprint's (kind, total)
    probs = shipped("nolimit-hu").action_probabilities(obs)
    assert probs[(decision.kind, decision.to)] > 0


def test_with_evidence_the_search_sizes_the_blueprints_raise() -> None:
    obs = spot(NL2, {2: "AhAd"}, [])
    mcts = bot(iterations=DEFAULT_ITERATIONS, search_preflop=False)
    calling_station_seen(mcts, obs)
    decision = mcts.decide(obs)
    assert decision.kind >= BET
    assert mcts.last is not None  # the size is the search's
    assert (decision.kind, decision.to) == (mcts.last.choice.kind, mcts.last.choice.to)
    raises = [a for a in mcts.last.actions if a.kind >= BET and a.visits]
    assert len(raises) > 1 and mcts.last.choice in raises


def _blueprint_calls(hole: str, seed: int) -> Observation:
    """The big blind facing the button's raise to 3 bb, where `seed`'s draw is a call."""
    obs = spot(NL2, {1: hole}, [(RAISE, 6)])
    assert obs.index == 0
    assert bot(seed=seed, search_preflop=False).preflop_play(obs).kind == CALL
    return obs


def test_against_a_calling_station_a_blueprint_call_becomes_a_clearly_better_raise() -> None:
    obs = _blueprint_calls("KhQd", seed=1)
    mcts = bot(iterations=DEFAULT_ITERATIONS, seed=1, search_preflop=False)
    calling_station_seen(mcts, obs)
    decision = mcts.decide(obs)
    assert decision.kind == RAISE
    assert mcts.last is not None
    chosen = mcts.last.choice
    calling = next(a for a in mcts.last.actions if a.kind == CALL)
    assert chosen.value_bb - Z95 * chosen.stderr_bb > calling.value_bb + Z95 * calling.stderr_bb


def test_with_no_evidence_the_blueprints_call_stands() -> None:
    obs = _blueprint_calls("KhQd", seed=1)
    mcts = bot(iterations=DEFAULT_ITERATIONS, seed=1, search_preflop=False)
    # Deciding reads this hand's raise: one decision seen, w = 1 / 201; the search
    # against opponents that are nearly the blueprint finds no raise clearly better.
    assert mcts.decide(obs).kind == CALL


def test_the_evidence_sizes_raises_up_to_the_pot() -> None:
    """An all-in valued clearly above the pot-sized raise is the rules' size, but never
    the size the evidence gives the blueprint's raise (the search's values favour it)."""
    obs = spot(NL2, {2: "AhAd"}, [])
    mcts = bot(iterations=40, search_preflop=False)
    calling_station_seen(mcts, obs)
    mcts.decide(obs)
    assert mcts.last is not None
    pot = ActionStats("raise 6", RAISE, 6, 100, 50.0, 1.0, 0.5)
    shove = ActionStats("raise 400", RAISE, 400, 100, 150.0, 1.0, 0.5)
    result = replace(mcts.last, actions=[pot, shove])
    assert rule_raise_size(result, obs, 0.1)[0] is shove
    assert rule_raise_size(result, obs, 0.1, up_to_pot=True)[0] is pot


def test_overbets_that_cannot_be_chosen_take_none_of_the_budget() -> None:
    """Only raises up to the pot may replace the blueprint's call; the all-in, which a
    calling station calls (`ai.search.overbet_prior`) and so outranks them, is not
    played: with it searched (1,000 iterations) the pot-sized raise had half the visits
    and its interval no longer cleared the call's."""
    obs = _blueprint_calls("KhQd", seed=1)
    mcts = bot(iterations=DEFAULT_ITERATIONS, seed=1, search_preflop=False)
    calling_station_seen(mcts, obs)
    mcts.decide(obs)
    assert mcts.last is not None
    overbets = [a for a in mcts.last.actions if a.kind >= BET and is_overbet(a, obs)]
    assert overbets and all(a.visits == 0 for a in overbets)
    searched = sum(a.visits for a in mcts.last.actions)
    assert searched == mcts.last.iterations
