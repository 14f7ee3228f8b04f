"""Loki: expert rules on Income Rate preflop and effective hand strength after the flop.

Preflop (Papp's Loki): rank the hand by its Income Rate percentile for the
number of opponents, and play the top share that the position allows (more
players still to act behind = tighter); raise with the top of that, re-raise
and cap with the very top, call a raise only with hands that would have raised.

Postflop: hand strength HS against each opponent's weight table (kept through
the hand by re-weighting after each of their actions), multiplied over the
opponents; potential PPot/NPot against the field (their averaged tables);
EHS' = HS + (1 - HS) * PPot. Then:
- bet/raise when EHS' clears a threshold (0.5 with nobody betting, higher per
  bet faced), with big sizes for very strong hands in No-Limit;
- semi-bluff a bet when PPot >= the pot odds a bet offers;
- call when PPot >= pot odds (a draw), or when HS beats the "showdown odds"
  (the pot share needed counting the bets still to come);
- otherwise check or fold.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ai.bots.base import Bot
from ai.bots.settings import PLAIN, BotSettings
from ai.bots.sizing import ALL_IN, HALF_POT, POT, aggressive, fold, passive
from ai.game.observation import Decision, Observation
from ai.game.summary import HandSummary
from ai.math.evaluator import strength_of
from ai.math.preflop_rank import hand_percentile
from ai.math.range_strength import FloatArray, combo_values, hand_strength, potential
from ai.models.model import OpponentModel
from ai.models.ranges import RangeTracker
from ai.models.stats import PRIOR_PFR, PlayerStats, StatsBook
from ai.sim.rules import BET, PREFLOP, RIVER

# Preflop Loki raises with this share of the hands it plays; its re-raising and
# raise-calling ranges are drawn from that raising range.
RAISE_RATIO = 0.42


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


@dataclass(frozen=True, slots=True)
class Read:
    """Loki's postflop numbers for one decision (also used by poki and advice)."""

    hs: float  # against all opponents at once
    ppot: float
    npot: float

    @property
    def ehs(self) -> float:
        return self.hs * (1 - self.npot) + (1 - self.hs) * self.ppot

    @property
    def ehs_optimistic(self) -> float:
        return self.hs + (1 - self.hs) * self.ppot


def preflop_order(n: int) -> list[int]:
    """Indices in preflop acting order: left of the big blind first (heads-up: the button)."""
    first = 2 % n if n > 2 else 1
    return [(first + k) % n for k in range(n)]


def players_behind(obs: Observation) -> int:
    """Players still in the hand who act after us this street."""
    order = preflop_order(obs.n) if obs.street == PREFLOP else list(range(obs.n))
    after = order[order.index(obs.index) + 1 :]
    return sum(1 for i in after if obs.in_hand[i] and obs.stacks[i] > 0)


class LokiBot(Bot):
    style = "loki"
    potential_samples = 300

    def __init__(self, seed: int = 0, settings: BotSettings = PLAIN) -> None:
        super().__init__(seed, settings)
        # The learned opponent model (shared networks, the statistics of the players met:
        # the host's book, or this bot's own) and every opponent's range through the
        # hand, re-weighted by it.
        book = settings.book if settings.book is not None else StatsBook()
        self.model = OpponentModel(book=book)
        self.ranges = RangeTracker()
        self._units: tuple[int, int, int, int] = (2, 2, 4, 4)  # bet sizes of the last table
        self._limit = True

    # -- model upkeep ---------------------------------------------------------

    def hand_over(self, summary: HandSummary, me: int) -> None:
        units, limit = self._units, self._limit
        self.book.ingest(summary.hand_key, summary.players, summary.history, units, limit)

    @property
    def book(self) -> StatsBook:
        return self.model.book

    def stats_of(self, obs: Observation) -> list[PlayerStats]:
        return [self.book.get(obs.player_id(i)) for i in range(obs.n)]

    def update_model(self, obs: Observation) -> None:
        self._units, self._limit = obs.bet_units, obs.limit
        players = [obs.player_id(i) for i in range(obs.n)]
        self.book.ingest(obs.hand_key, players, obs.history, obs.bet_units, obs.limit)
        self.ranges.update(obs, self.model)

    def read(self, obs: Observation) -> Read:
        """HS against each opponent's range (multiplied), PPot/NPot against the field."""
        values = combo_values(obs.board)
        mine = strength_of((*obs.hole, *obs.board))
        hs = 1.0
        field: FloatArray = np.zeros(len(values))
        for i in obs.opponents:
            weights = self.ranges.range_of(i, obs.hole)
            hs *= hand_strength(mine, values, weights)
            total = weights[values >= 0].sum()
            if total > 0:
                field += np.where(values >= 0, weights, 0.0) / total
        seed = hash((self.seed, *obs.hole, *obs.board)) & 0x7FFFFFFF
        if obs.street < RIVER and field.sum() > 0:
            ppot, npot = potential(obs.hole, obs.board, field, self.potential_samples, seed)
        else:
            ppot = npot = 0.0
        return Read(hs, ppot, npot)

    # -- deciding -------------------------------------------------------------

    def decide(self, obs: Observation) -> Decision:
        self.update_model(obs)
        if obs.street == PREFLOP:
            return self.preflop(obs)
        return self.postflop(obs, self.read(obs))

    def preflop(self, obs: Observation) -> Decision:
        opponents = max(obs.n_opponents, 1)
        strength = hand_percentile(obs.hole[0], obs.hole[1], opponents)
        behind = players_behind(obs)
        if obs.n == 2:
            play_share = 0.85 if behind == 0 else 0.75
        else:
            play_share = min(0.85, max(0.16, 0.9 / (behind + 1.3) + 0.06))
        # Loose tables (high VPIP) pay off more hands: widen, up to 1.5x (the specific model).
        play_share = min(0.9, play_share * min(1.5, max(1.0, self.table_vpip(obs) / 0.28)))
        raise_share = self.raise_ratio(obs) * play_share
        cap_share = 0.035
        bets = obs.raises_this_street()  # the big blind counts as the first bet
        top = 1.0 - strength  # share of holdings at least this good
        legal = obs.legal
        cheap = legal.call_amount <= obs.big_blind / 2  # small blind completing, limped pots
        where = f"top {_pct(max(top, 0.01))} of hands, {behind} to act behind"
        if top <= cap_share:
            return aggressive(obs, POT, f"Raise: premium hand ({where})", strength)
        if bets <= 1:
            if top <= raise_share:
                return aggressive(obs, POT, f"Raise: strong opening hand ({where})", strength)
            if top <= play_share or cheap:
                return passive(legal, f"Call: playable hand ({where})", strength)
            return fold(legal, f"Fold: too weak to enter the pot ({where})", strength)
        # Facing a raise: continue with raising hands, re-raise the best of them. A raiser
        # who raises far more often than usual (the specific model) widens both.
        loose = self.raiser_looseness(obs)
        if bets == 2:
            if top <= 0.4 * raise_share * loose:
                return aggressive(obs, POT, f"Re-raise: strong hand ({where})", strength)
            odds = obs.pot_odds
            if top <= raise_share * loose or (odds < 0.3 and top <= 0.8 * play_share):
                return passive(legal, f"Call the raise: {where}", strength)
            return fold(legal, f"Fold to the raise: {where}", strength)
        calls = top <= 2.5 * cap_share * loose or (top <= 0.5 * raise_share and obs.pot_odds < 0.2)
        if calls:
            return passive(legal, f"Call: strong enough for a re-raised pot ({where})", strength)
        return fold(legal, f"Fold: the pot was re-raised ({where})", strength)

    def raise_ratio(self, obs: Observation) -> float:
        """The share of the hands it plays preflop that it raises with."""
        return RAISE_RATIO

    def raiser_looseness(self, obs: Observation) -> float:
        """How much more often than a typical player the last raiser raises preflop (1..4)."""
        raisers = [a.player for a in obs.history if a.street == PREFLOP and a.kind >= BET]
        if not raisers:
            return 1.0
        pfr = self.book.get(obs.player_id(raisers[-1])).pfr
        return min(4.0, max(1.0, pfr / PRIOR_PFR))

    def postflop(self, obs: Observation, read: Read) -> Decision:
        legal = obs.legal
        unit = obs.bet_unit
        to_call = legal.call_amount
        bets = 0 if to_call == 0 else (1 if to_call <= unit else 2)
        ehs1 = read.ehs_optimistic
        threshold = 0.5 + 0.12 * bets + 0.03 * max(obs.n_opponents - 1, 0)
        numbers = f"EHS' {_pct(ehs1)} (HS {_pct(read.hs)}, PPot {_pct(read.ppot)})"
        if ehs1 >= 0.85 and legal.raise_kind is not None:
            size = ALL_IN if (not obs.limit and ehs1 >= 0.95) else POT
            return self._act(aggressive(obs, size, f"Raise: very strong, {numbers}"), read)
        if ehs1 >= threshold and legal.raise_kind is not None:
            size = POT if ehs1 >= 0.7 else HALF_POT
            word = "Bet" if to_call == 0 else "Raise"
            return self._act(aggressive(obs, size, f"{word}: {numbers}"), read)
        if to_call == 0:
            bet = unit if obs.limit else max(unit, obs.pot // 2)
            bet_odds = bet / (obs.pot + 2 * bet)
            bluffable = self.fold_to_bet(obs) >= 0.3  # never semi-bluff calling stations
            if (
                obs.street < RIVER
                and bluffable
                and read.ppot >= bet_odds
                and legal.raise_kind is not None
            ):
                why = f"Semi-bluff: PPot {_pct(read.ppot)} beats the bet's odds {_pct(bet_odds)}"
                return self._act(aggressive(obs, HALF_POT, why), read)
            return self._act(passive(legal, f"Check: {numbers}"), read)
        odds = obs.pot_odds
        if obs.street < RIVER and read.ppot >= odds:
            why = f"Call: drawing, PPot {_pct(read.ppot)} against pot odds {_pct(odds)}"
            return self._act(passive(legal, why), read)
        showdown = self.showdown_odds(obs)
        if read.hs >= showdown:
            why = f"Call: HS {_pct(read.hs)} beats the showdown odds {_pct(showdown)}"
            return self._act(passive(legal, why), read)
        why = f"Fold: HS {_pct(read.hs)} below the showdown odds {_pct(showdown)}"
        return self._act(fold(legal, why), read)

    def table_vpip(self, obs: Observation) -> float:
        """Average VPIP of the opponents still in the hand (prior-smoothed)."""
        shares = [self.book.get(obs.player_id(i)).vpip for i in obs.opponents]
        return sum(shares) / len(shares) if shares else 0.28

    def fold_to_bet(self, obs: Observation) -> float:
        """The least any opponent still in folds to a bet after the flop."""
        shares = [self.book.get(obs.player_id(i)).fold_to_bet for i in obs.opponents]
        return min(shares) if shares else 0.5

    def showdown_odds(self, obs: Observation) -> float:
        """The pot share a call must win counting one more bet per street still to come."""
        to_call = obs.legal.call_amount
        streets_left = RIVER - obs.street
        future = (
            sum(obs.bet_units[obs.street + 1 :])
            if obs.limit
            else int(0.3 * (obs.pot + to_call)) * min(streets_left, 1)
        )
        cost = to_call + future
        return cost / (obs.pot + to_call + 2 * future) if cost else 0.0

    def _act(self, decision: Decision, read: Read) -> Decision:
        return Decision(
            decision.kind,
            decision.to,
            reason=decision.reason,
            equity=read.hs,
            ehs=min(1.0, max(0.0, read.ehs)),
        )
