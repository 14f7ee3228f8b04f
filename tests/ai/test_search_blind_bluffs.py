"""Heads-up Limit against a card-blind player (#33): a call is valued with the bets that
the player's folds pay for later, not as if our weak hand gave up every later street.

Against rlcard's random agent (it folds a third of the time to any bet, whatever it
holds) mcts folded turn bets with 15-30% equity whose call, then betting on, was worth
+0.2 to +4 bb: its simulations played our river by a rule that never bets a weak hand
(docs/experiments/2026-11-28-limit-hu-against-random.md)."""

from __future__ import annotations

import numpy as np
from search_spots import LIMIT2, spot

from ai.models.model import ModelSet, OpponentModel
from ai.models.ranges import RangeTracker
from ai.search.mcts import Search, SearchConfig
from ai.search.opponents import OpponentTables
from ai.sim.rules import BET, CALL, CHECK, FOLD

# A random player's answers to a bet, and when checked to: fold, call, raise a third each.
RANDOM = (1 / 3, 1 / 3, 1 / 3)
# Heads-up, checked to the turn; the big blind bets it; we (the button) hold ten-high.
TURN_BET = spot(
    LIMIT2,
    {1: "9hTh"},
    [(CALL, 0), (CHECK, 0), (CHECK, 0), (CHECK, 0), (BET, 0)],
    board="5s3cKd4s",
)


def card_blind(n: int, kappa: float) -> OpponentTables:
    """Every opponent plays a random player's shares; `kappa` of its play follows its cards."""
    shares = np.tile(np.array(RANDOM), (n, 4, 3, 1))
    return OpponentTables.of(shares, np.full((n, 4, 3, 6), 1 / 6), [kappa] * n)


def values(kappa: float) -> dict[str, float]:
    obs = TURN_BET
    assert obs.street == 2 and obs.legal.call_amount == 4 and obs.pot == 8
    model = OpponentModel(ModelSet.frequency_only())
    ranges = RangeTracker()
    ranges.update(obs, model)
    result = Search(obs, ranges, card_blind(obs.n, kappa), SearchConfig(), seed=4).run(
        iterations=2000
    )
    return {a.label: a.value_bb for a in result.actions if a.kind != FOLD}


def test_against_a_card_blind_bet_continuing_is_worth_at_least_calling_then_raising() -> None:
    """Calling 2 bb into 6 with 9-T high on K-5-4-3 (equity 0.194 against a random
    holding), then raising every later chance, is worth +1.94 bb over folding against a
    random player, exactly (the betting tree of a player who answers each bet by a third
    each, that equity times each final pot; the experiment's script). The search's best
    continuation can only be worth more; on d4a1723 it valued the call +0.02 bb and the
    raise +0.25 (our later streets by a rule that gives a weak hand up), now +1.30 and
    +3.22. A player whose bets follow its cards gets no bluff: folding stays best."""
    assert max(values(0.06).values()) > 1.5
    assert max(values(1.0).values()) < 0.0
