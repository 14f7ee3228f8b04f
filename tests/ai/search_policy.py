"""How simulated players act: opponents by the opponent model's tables and their sampled
holding's strength, ourselves by a fast fixed rule; or everyone at random (an ablation).

The search runs the compiled copies of these (`ai.search.kernel`, on
`ai.sim.arrays`); this module is their readable reference on SimState, kept with the
tests (nothing else runs it), and tests/ai/test_search_kernel.py requires both to play
the same hands on the same random numbers. A change of policy goes in both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ai.search.abstraction import bucket_amount, raise_to
from ai.search.opponents import OpponentTables
from ai.sim.rules import BET, CALL, CHECK, FOLD
from ai.sim.state import SimState

SIGMA = 0.12  # half-width of the mu-sigma ramp (as ai.models.ranges)
Random = Callable[[], float]


def cost_of(call: int, pot: int, unit: int, limit: bool) -> int:
    """ai.models.stats.cost_bucket, inlined for the hot loops."""
    if call <= 0:
        return 0
    if limit:
        return 1 if call <= unit else 2
    return 1 if 2 * call <= pot else 2


def continue_scale(call: int, pot: int, limit: bool, exponent: float = 1.0) -> float:
    """How much of a player's continuing share (call or raise) meets a No-Limit bet of
    `call` into the pot before it (`pot` includes it): all of it up to a pot-sized bet,
    the tables' largest context, then (2 / (1 + bet/pot)) ** exponent. With the prior
    exponent 1 (pot odds' minimum defence, as against a pot bet) an all-in of 12 pots
    is met a sixth as often as a pot bet; the player's own exponent is fitted to its
    answers to our overbets (`ai.search.versus.overbet_exponent`).

    >>> continue_scale(100, 200, False), continue_scale(1200, 1300, False)
    (1.0, 0.15384615384615385)
    >>> continue_scale(1200, 1300, False, 0.0)
    1.0
    """
    if limit or call <= 0:
        return 1.0
    ratio = call / max(pot - call, 1)
    return 1.0 if ratio <= 1.0 else (2.0 / (1.0 + ratio)) ** exponent


def opponent_choice(
    tables: OpponentTables, i: int, street: int, cost: int, s: float, u: float, scale: float = 1.0
) -> int:
    """0 fold, 1 check/call, 2 bet/raise for player i with strength s and a uniform draw u.

    A player whose actions do not follow their cards (kappa < 1) plays that share of
    the time card-blind: the model's shares whatever the holding. `scale`
    (`continue_scale`) shrinks the shares that raise and continue."""
    raise_above = 1.0 - (1.0 - tables.raise_above[i][street][cost]) * scale
    p_raise = (s - raise_above + SIGMA) / (2 * SIGMA)
    kappa = tables.kappa[i]
    if kappa < 1.0:
        p_raise = (
            kappa * min(max(p_raise, 0.0), 1.0)
            + (1.0 - kappa) * (tables.raise_share[i][street][cost]) * scale
        )
    if u < p_raise:
        return 2
    if cost == 0:
        return 1
    continue_above = 1.0 - (1.0 - tables.continue_above[i][street][cost]) * scale
    p_continue = (s - continue_above + SIGMA) / (2 * SIGMA)
    if kappa < 1.0:
        p_continue = (
            kappa * min(max(p_continue, 0.0), 1.0)
            + (1.0 - kappa) * (tables.continue_share[i][street][cost]) * scale
        )
    return 1 if u < p_continue else 0


def our_choice(s: float, call: int, pot: int, trust: float = 1.0) -> int:
    """Our later actions: value-raise strong hands, call on pot odds with a margin for
    playing against ranges, else give up (poki's rule). `trust` (`trust_of`) is how much
    the opponents' bets follow their cards: against card-blind bettors (0) a bet says
    nothing, so the margin goes and any better-than-average holding bets for value.

    >>> our_choice(0.7, 10, 30), our_choice(0.7, 10, 30, trust=0.0)
    (1, 2)
    >>> our_choice(0.3, 10, 30), our_choice(0.3, 10, 30, trust=0.0)
    (0, 1)
    """
    if s >= (0.5 + 0.3 * trust if call else 0.5 + 0.15 * trust):
        return 2
    if not call or s >= call / (call + pot) + 0.15 * trust:
        return 1
    return 0


def trust_of(state: SimState, tables: OpponentTables, me: int) -> float:
    """The least reliability (kappa) of the opponents still in the hand."""
    kappas = [k for i, k in enumerate(tables.kappa) if i != me and state.in_hand[i]]
    return min([1.0, *kappas])


def rollout_choice(
    state: SimState, tables: OpponentTables, me: int, s: float, call: int, pot: int
) -> int:
    """Our action in a rollout: `our_choice` at the trust of the opponents still in. Our
    later play is what the search improves on (the tree's later nodes, backed up as the
    best continuation), so the rule only needs to be fast and sane."""
    return our_choice(s, call, pot, trust_of(state, tables, me))


def opponent_bucket(tables: OpponentTables, i: int, street: int, cost: int, u: float) -> int:
    cdf = tables.size_cdf[i][street][cost]
    bucket = 0
    while u > cdf[bucket]:
        bucket += 1
    return bucket


def play_out(
    state: SimState,
    strength: Sequence[Sequence[float]],
    tables: OpponentTables,
    rand: Random,
    me: int,
) -> None:
    """Play to the end: opponents from their model's tables, us by `our_choice`."""
    rules = state.rules
    units = rules.min_increment
    limit = rules.is_limit
    while not state.over:
        i = state.queue[0]
        street = state.street
        stack = state.stacks[i]
        call = state.max_bet - state.bets[i]
        if stack < call:
            call = stack
        pot = sum(state.contrib) + sum(state.bets)
        s = strength[i][street]
        if i == me:
            choice = rollout_choice(state, tables, me, s, call, pot)
        else:
            cost = cost_of(call, pot, units[street], limit)
            scale = continue_scale(call, pot, limit, tables.overbet[i])
            choice = opponent_choice(tables, i, street, cost, s, rand(), scale)
        if choice == 2:
            legal = state.legal_actions()
            assert legal is not None
            if legal.raise_kind is not None:
                if limit:
                    to = legal.min_to
                elif i == me:
                    to = raise_to(pot, legal, 1.0)
                else:
                    bucket = opponent_bucket(tables, i, street, cost, rand())
                    to = bucket_amount(pot, legal, bucket)
                state.step(legal.raise_kind, to)
                continue
            choice = 1
        if choice == 1 or call == 0:
            state.step(CHECK if call == 0 else CALL)
        else:
            state.step(FOLD)


def random_play_out(state: SimState, rand: Random) -> None:
    """Everyone uniformly over fold / check-call / bet-raise (pot-sized), to the end."""
    limit = state.rules.is_limit
    while not state.over:
        legal = state.legal_actions()
        assert legal is not None
        kinds = legal.kinds
        kind = kinds[int(rand() * len(kinds))]
        if kind >= BET:
            to = legal.min_to if limit else raise_to(state.pot, legal, 1.0)
            state.step(kind, to)
        else:
            state.step(kind)


__all__ = [
    "SIGMA",
    "continue_scale",
    "cost_of",
    "opponent_choice",
    "our_choice",
    "play_out",
    "random_play_out",
    "rollout_choice",
    "trust_of",
]
