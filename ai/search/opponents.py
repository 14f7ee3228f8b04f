"""The opponent model, asked once per decision: every opponent's action shares per street and
cost of calling, and its bet-size shares, as flat tables the search's hot loops index.

Asking the network inside the search would cost a forward pass per simulated action;
instead each opponent's feature row for this spot is varied over the 4 streets x 3
cost contexts (nothing / one bet / two or more to call) and the whole batch goes
through the network once. Inside the search a player's action then depends on its
sampled holding's strength on that street: the top `raise` share of holdings bets or
raises and the next `call` share continues, the mu-sigma weighting that also builds
the ranges (`ai.models.ranges.holding_triples`), so ranges and play agree.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ai.game.observation import Observation
from ai.models.features import FEATURES, N_SIZES, feature_list
from ai.models.model import BLEND_DECISIONS, PRIOR_SIZES, OpponentModel
from ai.models.stats import PlayerStats, crowd_of, with_own_play
from ai.search.blueprint_prior import blend, evidence_weight
from ai.search.versus import PRIOR_EXPONENT, overbet_exponent

F64 = npt.NDArray[np.float64]
STREETS, COSTS = 4, 3
_COL = {name: FEATURES.index(name) for name in FEATURES}
_STREET_COLS = [_COL[s] for s in ("preflop", "flop", "turn", "river")]
_COST_COLS = [_COL[s] for s in ("cost_none", "cost_one_bet", "cost_two_bets")]
_HERE_COLS = [_COL[s] for s in ("stat_fold_here", "stat_call_here", "stat_raise_here")]
# Answers to our own bets seen at which they weigh as much as the tables built above
# (`ai.search.versus`).
VERSUS_WEIGHT = 20.0
# A typical bet to call per cost context, as a share of the pot (No-Limit).
_NL_CALL_SHARE = (0.0, 0.4, 1.0)


@dataclass(frozen=True, slots=True)
class OpponentTables:
    """shares[i, street, cost] = (fold, call, raise); sizes[i, street, cost] = bucket shares.

    `raise_above[i][street][cost]` and `continue_above[...]` are the strength thresholds
    (1 - raise, 1 - raise - call); `size_cdf[i][street][cost]` the cumulative size shares.
    Nested lists, not arrays: the search reads single numbers (list indexing is faster).
    """

    shares: F64
    sizes: F64
    raise_above: list[list[list[float]]]
    continue_above: list[list[list[float]]]
    size_cdf: list[list[list[list[float]]]]
    # Per player, how much their actions follow their cards (`ai.search.reliability`),
    # and the card-blind raise and continue shares their play is mixed with below 1.
    kappa: list[float]
    raise_share: list[list[list[float]]]
    continue_share: list[list[list[float]]]
    # Per player, the exponent of (2 / (1 + bet/pot)) that scales its raising and
    # continuing shares facing a No-Limit bet beyond the pot (`ai.search.versus`).
    overbet: list[float]
    # Per player, the probability that its card-following play (kappa) is the blueprint's
    # strategy for its card bucket where the simulated hand is on the blueprint's tree,
    # rather than the strength thresholds above (`ai.search.kernel.opponent_act`): 1 - w,
    # w = n / (n + evidence_k) (no read of the player: 1). 0: thresholds only.
    blueprint: list[float]

    @classmethod
    def of(
        cls,
        shares: F64,
        sizes: F64,
        kappa: Sequence[float] | None = None,
        overbet: Sequence[float] | None = None,
        blueprint: Sequence[float] | None = None,
    ) -> OpponentTables:
        raise_above = (1.0 - shares[..., 2]).tolist()
        continue_above = (1.0 - shares[..., 2] - shares[..., 1]).tolist()
        cdf = np.cumsum(sizes, axis=-1)
        cdf[..., -1] = 1.0
        n = shares.shape[0]
        return cls(
            shares,
            sizes,
            raise_above,
            continue_above,
            cdf.tolist(),
            [1.0] * n if kappa is None else [float(k) for k in kappa],
            shares[..., 2].tolist(),
            (shares[..., 1] + shares[..., 2]).tolist(),
            [PRIOR_EXPONENT] * n if overbet is None else [float(e) for e in overbet],
            [0.0] * n if blueprint is None else [float(b) for b in blueprint],
        )


def _spot_for(obs: Observation, i: int) -> Observation:
    """`obs` as if player i were to act now (its own stack, bet and cost to call)."""
    call = max(0, min(obs.stacks[i], max(obs.bets) - obs.bets[i]))
    legal = obs.legal._replace(
        player=i,
        seat=obs.seats[i],
        can_fold=call > 0,
        can_check=call == 0,
        call_amount=call,
        can_call=call > 0,
        committed=obs.bets[i],
        stack=obs.stacks[i],
    )
    return dataclasses.replace(obs, index=i, legal=legal)


def context_rows(obs: Observation, i: int, stats: PlayerStats) -> npt.NDArray[np.float32]:
    """Player i's feature row at this spot, varied over the 12 street x cost contexts."""
    base = np.asarray(feature_list(_spot_for(obs, i), stats), dtype=np.float32)
    rows = np.tile(base, (STREETS * COSTS, 1))
    pot = max(obs.pot, 1)
    for street in range(STREETS):
        for cost in range(COSTS):
            row = rows[street * COSTS + cost]
            row[_STREET_COLS] = 0.0
            row[_STREET_COLS[street]] = 1.0
            row[_COST_COLS] = 0.0
            row[_COST_COLS[cost]] = 1.0
            to_call = cost * obs.bet_units[street] if obs.limit else _NL_CALL_SHARE[cost] * pot
            row[_COL["pot_odds"]] = to_call / (to_call + pot)
            row[_COL["bet_to_pot"]] = min(to_call / pot, 3.0) / 3.0
            row[_COL["raise_allowed"]] = 1.0
            row[_HERE_COLS] = stats.frequencies(street, cost)
    return rows


def build_tables(
    obs: Observation,
    model: OpponentModel,
    generic_only: bool = False,
    kappa: Sequence[float] | None = None,
    versus: Sequence[F64 | None] | None = None,
    overbets: Sequence[F64 | None] | None = None,
    prior: F64 | None = None,
    evidence_k: float = 1.0,
    prior_sizes: F64 | None = None,
    overbet_prior: Sequence[float] | None = None,
    blueprint_play: bool = False,
) -> OpponentTables:
    """Every player's tables for this decision (the decider's own row is the prior's).

    `generic_only`: the population model without anything learned about the players
    (prior statistics, no per-player network), an ablation. `versus[i]`: player i's
    answers to our bets (`ai.search.versus.VersusBook` counts); the shares facing a bet
    move towards them as they grow. They stand for its answers to anyone's bet in the
    search: the decisions that weigh in it are mostly answers to ours. `overbets[i]`:
    player i's answers to our No-Limit bets beyond the pot (`VersusBook.overbets_of`),
    from which its overbet exponent is fitted. `prior[i]`: player i's blueprint shares
    (`ai.search.blueprint_prior`); the model's shares then only move them as far as the
    decisions seen of the player go (w = n / (n + evidence_k)): safe exploitation.
    `prior_sizes[i]`: player i's No-Limit bet-size shares by the blueprint, blended with
    the model's by the same weight. `overbet_prior[i]`: the prior of player i's overbet
    exponent (the blueprint's own, `ai.search.overbet_prior`; else pot odds' 1), used
    as it stands until the player has answered our overbets. `blueprint_play`: each
    opponent acts by the blueprint's strategy for its card bucket with probability
    1 - w (`OpponentTables.blueprint`), so the move from the blueprint is made in play
    and the shares (the thresholds) are the model's alone, not blended with `prior`.
    """
    n = obs.n
    shares = np.zeros((n, STREETS, COSTS, 3))
    sizes = np.tile(PRIOR_SIZES, (n, STREETS, COSTS, 1))
    models = model.models
    generic = models.generic
    players = [obs.player_id(i) for i in range(n)]
    stats = [
        PlayerStats() if generic_only or i == obs.index else model.stats(players[i])
        for i in range(n)
    ]
    # Players' own play is read with as many players in the hand as now (how often a
    # player bets or folds moves with how many are left: `ai.models.stats.CROWDS`).
    crowd = crowd_of(obs.n_in_hand)
    if generic is None:
        for i in range(n):
            for street in range(STREETS):
                for cost in range(COSTS):
                    shares[i, street, cost] = stats[i].crowd_frequencies(street, cost, crowd)
    else:
        batch = np.concatenate([context_rows(obs, i, stats[i]) for i in range(n)])
        actions, size_shares = generic.both(batch)
        a = actions.astype(np.float64).reshape(n, STREETS, COSTS, 3)
        s = size_shares.astype(np.float64).reshape(n, STREETS, COSTS, N_SIZES)
        if not generic_only:
            for i in range(n):
                own = models.players.get(players[i])
                if own is None or i == obs.index:
                    continue
                weight = min(1.0, own.decisions / BLEND_DECISIONS)
                rows = batch[i * STREETS * COSTS : (i + 1) * STREETS * COSTS]
                a2, s2 = own.net.both(rows)
                a[i] = (1 - weight) * a[i] + weight * a2.reshape(STREETS, COSTS, 3)
                s[i] = (1 - weight) * s[i] + weight * s2.reshape(STREETS, COSTS, N_SIZES)
        shares[:] = a
        sizes[:] = s
        if not generic_only:
            # What the player was seen doing in each context (with as many players in
            # the hand as now) moves the network's answer towards it as the count grows:
            # a player unlike the population (a random player, a maniac) is read from its
            # own play without waiting for its own network (`with_own_play`).
            for i in range(n):
                if i == obs.index:
                    continue
                for street in range(STREETS):
                    for cost in range(COSTS):
                        net = shares[i, street, cost]
                        predicted = (float(net[0]), float(net[1]), float(net[2]))
                        shares[i, street, cost] = with_own_play(
                            predicted, stats[i], street, cost, crowd
                        )
    if prior is not None:
        for i in range(n):
            if i != obs.index:
                if not blueprint_play:
                    shares[i] = blend(prior[i], shares[i], stats[i].decisions, evidence_k)
                if prior_sizes is not None:
                    sizes[i] = blend(prior_sizes[i], sizes[i], stats[i].decisions, evidence_k)
    if versus is not None and not generic_only:
        _towards_answers(shares, versus, obs.index)
    shares[:, :, 0, 1] += shares[:, :, 0, 0]  # checking is free: never a fold
    shares[:, :, 0, 0] = 0.0
    shares /= shares.sum(axis=-1, keepdims=True)
    priors = [PRIOR_EXPONENT] * n if overbet_prior is None else [float(e) for e in overbet_prior]
    exponents = list(priors)
    if overbets is not None and not generic_only:
        for i, over in enumerate(overbets):
            if over is not None and i != obs.index and over.any():
                cont = shares[i, :, 2, 1] + shares[i, :, 2, 2]
                exponents[i] = overbet_exponent(over, cont, priors[i])
    weights = [
        0.0 if i == obs.index else 1.0 - evidence_weight(stats[i].decisions, evidence_k)
        for i in range(n)
    ]
    return OpponentTables.of(shares, sizes, kappa, exponents, weights if blueprint_play else None)


def _towards_answers(shares: F64, versus: Sequence[F64 | None], me: int) -> None:
    """Move each opponent's shares facing a bet towards its seen answers to ours."""
    for i, counts in enumerate(versus):
        if counts is None or i == me:
            continue
        for street in range(STREETS):
            for cost in (1, 2):
                row = counts[street, cost]
                seen = float(row.sum())
                if seen:
                    w = seen / (seen + VERSUS_WEIGHT)
                    shares[i, street, cost] = (1 - w) * shares[i, street, cost] + w * row / seen
