"""Preflop evidence (#33): at heads-up Limit our preflop play is the blueprint's, but a
blueprint fold is put to the search as the evidence about the opponent grows, and gives
way to a continuing action whose whole 95% interval is above folding."""

from __future__ import annotations

from search_spots import LIMIT2, bot, spot
from test_search_blueprint import seen_playing

from ai.bots.mcts import MctsBot
from ai.game.observation import Observation
from ai.policy.blueprint import default_blueprint
from ai.search.mcts import Z95
from ai.sim.rules import FOLD, RAISE

RANDOM = (1 / 3, 1 / 3, 1 / 3)  # fold, call, raise alike wherever facing a bet


def big_blind_facing_a_raise() -> Observation:
    """Nine-four offsuit in the big blind after the button's raise: the blueprint folds."""
    obs = spot(LIMIT2, {1: "9h4d"}, [(RAISE, 4)])
    assert obs.index == 0
    assert default_blueprint().action_probabilities(obs)[FOLD] == 1.0
    return obs


def seen_raising_at_random(mcts: MctsBot, player: str, cards_blind: bool) -> None:
    """20,000 decisions of `player` seen, uniform over fold, call and raise; with
    `cards_blind`, also 40 showdowns where its bets showed average holdings (its bets
    say nothing about its cards: `ai.search.reliability`)."""
    seen_playing(mcts.model, player, RANDOM)
    if cards_blind:
        for _ in range(40):
            mcts.reliability.add(player, 0.5)


def test_with_no_evidence_the_preflop_play_is_the_blueprints() -> None:
    obs = big_blind_facing_a_raise()
    mcts = bot(iterations=1000, search_preflop=False)
    assert not mcts.consults_search(obs)  # nothing seen: the blueprint's play
    # Deciding reads this hand's raise (one decision seen): the search is consulted
    # against opponents that are the blueprint's but for w = 1 / 201, and the fold stands.
    assert mcts.decide(obs).kind == FOLD


def test_against_a_random_raiser_a_blueprint_fold_is_continued() -> None:
    obs = big_blind_facing_a_raise()
    mcts = bot(iterations=1000, search_preflop=False)
    seen_raising_at_random(mcts, obs.player_id(1), cards_blind=True)
    decision = mcts.decide(obs)
    assert decision.kind != FOLD
    assert mcts.last is not None
    chosen = mcts.last.choice
    assert chosen.value_bb - Z95 * chosen.stderr_bb > 0, chosen


def test_the_fold_stands_when_the_search_is_not_sure_continuing_beats_it() -> None:
    """The same player's raises believed (no showdowns read): continuing is not clearly
    above folding, so the blueprint's fold stands, the search behind it kept."""
    obs = big_blind_facing_a_raise()
    mcts = bot(iterations=1000, search_preflop=False)
    seen_raising_at_random(mcts, obs.player_id(1), cards_blind=False)
    assert mcts.decide(obs).kind == FOLD
    assert mcts.last is not None and mcts.last.choice.kind == FOLD
    going_on = [a for a in mcts.last.actions if a.kind != FOLD]
    assert all(a.value_bb - Z95 * a.stderr_bb <= 0 for a in going_on), going_on


def seen_a_little(mcts: MctsBot, player: str, decisions: int) -> None:
    """`decisions` of `player` seen, spread over the contexts, uniform over the actions."""
    stats = mcts.model.book.get(player)
    stats.counts[:] = decisions / (stats.counts[..., 0].size * 3)
    stats.touch()
    assert round(stats.decisions) == decisions


def test_the_evidence_is_counted_once_a_fold_is_always_put_to_the_search() -> None:
    """The search's opponents already carry the evidence (the blueprint moved towards the
    model by w = n / (n + k)); the consult itself is not drawn with probability w again.
    With a dozen decisions seen (w = 0.06) every blueprint fold is put to the search, and
    the search, against opponents still nearly the blueprint, lets the fold stand."""
    obs = big_blind_facing_a_raise()
    mcts = bot(iterations=1000, search_preflop=False)
    seen_a_little(mcts, obs.player_id(1), 12)
    assert all(mcts.consults_search(obs) for _ in range(40))
    assert mcts.decide(obs).kind == FOLD
    assert mcts.last is not None  # searched, and the fold stood
