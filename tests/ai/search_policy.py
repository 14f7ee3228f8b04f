"""How simulated players act: opponents by the opponent model's tables and their sampled
holding's strength, ourselves by the blueprint while the hand is on its tree
(`ai.search.rollout_blueprint`), else by a fast fixed rule; or everyone at random (an
ablation).

The search runs the compiled copies of these (`ai.search.kernel`, on
`ai.sim.arrays`); this module is their readable reference on SimState, kept with the
tests (nothing else runs it), and tests/ai/test_search_kernel.py requires both to play
the same hands on the same random numbers. A change of policy goes in both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ai.policy.nway.translate import translate
from ai.policy.nway.tree import A_CALL, A_FOLD, A_RAISE, ALL_IN
from ai.search.abstraction import bucket_amount, raise_to
from ai.search.opponents import OpponentTables
from ai.search.rollout_blueprint import B_ACT, B_BASE, B_CHILD, B_NACT, B_PLAYER, B_ROUND, Pack
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
    tables: OpponentTables,
    i: int,
    street: int,
    cost: int,
    s: float,
    u: float,
    scale: float = 1.0,
    kappa: float | None = None,
) -> int:
    """0 fold, 1 check/call, 2 bet/raise for player i with strength s and a uniform draw u.

    A player whose actions do not follow their cards (kappa < 1) plays that share of
    the time card-blind: the model's shares whatever the holding. `scale`
    (`continue_scale`) shrinks the shares that raise and continue; `kappa` replaces the
    player's own share of card-following play (`opponent_act`)."""
    raise_above = 1.0 - (1.0 - tables.raise_above[i][street][cost]) * scale
    p_raise = (s - raise_above + SIGMA) / (2 * SIGMA)
    if kappa is None:
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


def blind_bluff_gain(
    s: float, call: int, pot: int, bet: int, kappa: float, shares: tuple[float, float]
) -> float:
    """A Limit raise's worth beyond calling, heads-up, counting only the folds that do not
    follow the opponent's cards: its card-blind share (1 - kappa) answers by the model's
    (continue, raise) shares facing one bet, the rest is taken to call. Against a random
    player (a third each) a quarter-strength hand bets into a free 8 chips:

    >>> blind_bluff_gain(0.25, 0, 8, 2, 0.0, (2 / 3, 1 / 3))
    1.0
    >>> blind_bluff_gain(0.25, 0, 8, 2, 1.0, (2 / 3, 1 / 3)) < 0  # its bets follow its cards
    True
    """
    continues, raises = shares
    blind = 1.0 - kappa
    fold = blind * (1.0 - continues)
    raised = blind * raises
    called = 1.0 - fold - raised
    return fold * (pot + call) * (1.0 - s) + bet * (2.0 * s - 1.0) * (called + 2.0 * raised)


def rollout_choice(
    state: SimState, tables: OpponentTables, me: int, s: float, call: int, pot: int
) -> int:
    """Our action in a rollout: `our_choice` at the trust of the opponents still in. Our
    later play is what the search improves on (the tree's later nodes, backed up as the
    best continuation), so the rule only needs to be fast and sane.

    Heads-up Limit, with a hand below average strength, a raise where the opponent's
    card-blind folds pay for it (`blind_bluff_gain` above the rule's call, or above
    folding where the rule folds): against a player who folds a third of the time
    whatever it holds, a later street's check or fold gave up that pot, and an
    earlier call's value with it (docs/experiments/2026-11-28-limit-hu-against-random.md)."""
    choice = our_choice(s, call, pot, trust_of(state, tables, me))
    rules = state.rules
    if choice == 2 or s >= 0.5 or not rules.is_limit or state.n_in_hand != 2:
        return choice
    if state._raise_bounds(me, call) is None:
        return choice
    other = next(i for i in range(state.n) if i != me and state.in_hand[i])
    street = state.street
    shares = (tables.continue_share[other][street][1], tables.raise_share[other][street][1])
    gain = blind_bluff_gain(s, call, pot, rules.min_increment[street], tables.kappa[other], shares)
    if choice == 0:
        gain += s * (pot + call) - call  # the rule folds: the raise must beat the fold
    return 2 if gain > 0.0 else choice


def opponent_bucket(tables: OpponentTables, i: int, street: int, cost: int, u: float) -> int:
    cdf = tables.size_cdf[i][street][cost]
    bucket = 0
    while u > cdf[bucket]:
        bucket += 1
    return bucket


def blueprint_at(bp: Pack, node: int, state: SimState, i: int) -> bool:
    """Whether blueprint node `node` is player i's decision on this street."""
    row = bp.ints[node] if node >= 0 else None
    return (
        row is not None and row[B_NACT] > 0 and row[B_PLAYER] == i and row[B_ROUND] == state.street
    )


def blueprint_follow(bp: Pack, node: int, state: SimState, i: int, kind: int, to: int) -> int:
    """The blueprint node after player i's (kind, to), before it is stepped; -1 off the
    tree. A No-Limit raise maps onto the tree's sizes as `NWayBlueprint.walk` maps one."""
    if not blueprint_at(bp, node, state, i):
        return -1
    row = bp.ints[node]
    acts = [int(row[B_ACT + s]) for s in range(row[B_NACT])]
    if kind == FOLD:
        slot = acts.index(A_FOLD) if A_FOLD in acts else acts.index(A_CALL)
    elif kind < BET:
        slot = acts.index(A_CALL)
    elif A_RAISE not in acts:
        return -1
    elif bp.limit:
        slot = acts.index(A_RAISE)
    else:
        call = min(state.stacks[i], state.max_bet - state.bets[i])
        facing = state.bets[i] + call
        cap = state.bets[i] + state.stacks[i]
        pot = max(sum(state.contrib) + sum(state.bets) + call, 1)
        raises = [s for s, a in enumerate(acts) if a == A_RAISE]
        fracs = [float(bp.fracs[node, s]) for s in raises]
        if to >= cap and fracs[-1] == ALL_IN:
            slot = raises[-1]
        else:
            sizes = [f if f != ALL_IN else (cap - facing) / pot for f in fracs]
            slot = raises[translate((to - facing) / pot, sizes)]
    return int(row[B_CHILD + slot])


def blueprint_choice(bp: Pack, node: int, bucket: int, u: float) -> int:
    """The action slot the blueprint's strategy at (node, bucket) picks for draw u."""
    k = int(bp.ints[node, B_NACT])
    o = int(bp.ints[node, B_BASE]) + bucket * k
    acc = 0.0
    for s in range(k):
        acc += float(bp.strategy[o + s])
        if u < acc:
            return s
    return k - 1


def opponent_act(
    tables: OpponentTables,
    bp: Pack | None,
    node: int,
    state: SimState,
    i: int,
    cost: int,
    s: float,
    bucket: int,
    rand: Random,
    scale: float,
) -> tuple[int, int]:
    """Player i's (choice, blueprint slot or -1): where the hand is on the blueprint's
    tree at its decision, its card-following play (kappa) is the blueprint's strategy for
    its card bucket with probability its blueprint weight b, else `opponent_choice` by its
    strength; overall b kappa by the blueprint, the rest `opponent_choice` at
    kappa (1 - b) / (1 - b kappa)."""
    b = tables.blueprint[i]
    if b > 0.0 and bp is not None and blueprint_at(bp, node, state, i):
        kappa = tables.kappa[i]
        p = b * kappa
        if rand() < p:
            slot = blueprint_choice(bp, node, bucket, rand())
            return int(bp.ints[node, B_ACT + slot]), slot
        rest = kappa * (1.0 - b) / (1.0 - p) if p < 1.0 else 1.0
        return opponent_choice(tables, i, state.street, cost, s, rand(), scale, rest), -1
    return opponent_choice(tables, i, state.street, cost, s, rand(), scale), -1


def play_out(
    state: SimState,
    strength: Sequence[Sequence[float]],
    tables: OpponentTables,
    rand: Random,
    me: int,
    bp: Pack | None = None,
    node: int = -1,
    ours: Sequence[int] = (0, 0, 0, 0),
    theirs: Sequence[Sequence[int]] | None = None,
    ours_by_bp: bool = True,
) -> None:
    """Play to the end: opponents by `opponent_act` (their buckets per street
    `theirs[i]`), us (with `ours_by_bp`) by the blueprint `bp` while the hand is on its
    tree (from `node`; our bucket per street `ours`), else by `our_choice`."""
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
        slot = -1
        if (
            i == me
            and bp is not None
            and ours_by_bp
            and blueprint_at(bp, node, state, me)
            and rand() < trust_of(state, tables, me)
        ):
            slot = blueprint_choice(bp, node, ours[street], rand())
            choice = int(bp.ints[node, B_ACT + slot])  # A_FOLD, A_CALL, A_RAISE: 0, 1, 2
        elif i == me:
            choice = rollout_choice(state, tables, me, s, call, pot)
        else:
            cost = cost_of(call, pot, units[street], limit)
            scale = continue_scale(call, pot, limit, tables.overbet[i])
            bucket = theirs[i][street] if theirs is not None else 0
            choice, slot = opponent_act(tables, bp, node, state, i, cost, s, bucket, rand, scale)
        if choice == 2:
            legal = state.legal_actions()
            assert legal is not None
            if legal.raise_kind is not None:
                if limit:
                    to = legal.min_to
                elif bp is not None and slot >= 0:
                    frac = float(bp.fracs[node, slot])
                    to = legal.max_to if frac == ALL_IN else raise_to(pot, legal, frac)
                elif i == me:
                    to = raise_to(pot, legal, 1.0)
                else:
                    bucket = opponent_bucket(tables, i, street, cost, rand())
                    to = bucket_amount(pot, legal, bucket)
                if bp is not None:
                    node = blueprint_follow(bp, node, state, i, legal.raise_kind, to)
                state.step(legal.raise_kind, to)
                continue
            choice = 1
        kind = CHECK if call == 0 else (CALL if choice == 1 else FOLD)
        if bp is not None:
            node = blueprint_follow(bp, node, state, i, kind, 0)
        state.step(kind)


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
    "blueprint_at",
    "blueprint_choice",
    "blueprint_follow",
    "continue_scale",
    "cost_of",
    "opponent_act",
    "opponent_choice",
    "our_choice",
    "play_out",
    "random_play_out",
    "rollout_choice",
    "trust_of",
]
