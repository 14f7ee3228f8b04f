"""Heads-up Limit (#33): an opponent's bets are read by the shares the search plays it by.

Against its own heads-up Limit blueprint, mcts folded turn bets the blueprint calls: its
ranges read each action by the population model (fitted to the built-in bots' play),
which bets the turn after a checked flop about one time in six, so a bet left the top
sixth of holdings; the search itself plays the player by the blueprint's shares, which
bet there half the time (docs/experiments/2026-11-28-limit-hu-against-the-blueprint.md).
"""

from __future__ import annotations

from search_spots import LIMIT2, spot

from ai.bots.mcts import MctsBot
from ai.search.blueprint_prior import blueprint_shares
from ai.search.profiles import DEFAULT
from ai.sim.rules import BET, CALL, CHECK, FOLD, RAISE

# Heads-up: we (the button) raised Q8o, the big blind called, the flop was checked
# through and the big blind bets the turn queen: we hold second pair on A-7-6-Q.
ACTIONS = [(RAISE, 4), (CALL, 0), (CHECK, 0)]
FLOP = spot(LIMIT2, {1: "8cQh"}, ACTIONS, board="7d6hAdQs")
TURN = spot(LIMIT2, {1: "8cQh"}, [*ACTIONS, (CHECK, 0), (BET, 0)], board="7d6hAdQs")


def test_nothing_seen_reads_an_action_by_the_blueprints_shares() -> None:
    bot = MctsBot(1, DEFAULT, iterations=100)
    shares = bot._blueprint_reading(TURN, (0.0, 0.8, 0.2))
    # TURN's actor is the button (tree player 1), facing one bet on the turn.
    assert TURN.index == 1 and TURN.street == 2 and TURN.legal.call_amount > 0
    assert shares == tuple(float(x) for x in blueprint_shares()[1, 2, 1])


def test_a_turn_bet_after_a_checked_flop_is_called_with_second_pair() -> None:
    """On 5011142 (the model's reading) the search valued the call -0.91 bb and folded;
    exactly against the blueprint (both holdings and the board known, its betting tree
    enumerated) calling was worth +8 bb over folding in the hand this spot came from."""
    bot = MctsBot(1, DEFAULT, iterations=2000)
    bot.decide(FLOP)
    decision = bot.decide(TURN)
    assert decision.kind != FOLD
    assert bot.last is not None
    assert max(a.value_bb for a in bot.last.actions if a.kind != FOLD) > 1.0
