"""The search's hot path compiled by numba: whole MCTS iterations on flat arrays.

One call runs a schedule of iterations (deal, forced root action or -1, random seed or
-1) on the tree's arrays (`ai.search.tree.Tree`): walk our nodes by UCT/PUCT (or our
rule while warming up), opponents acting from the model's tables between them, expand
one node, play out to the end, back the chips up. Python keeps what happens between
schedules: the deals, the clock, the root's sequential halving (`ai.search.mcts`).

The rules are `ai.sim.arrays` (SimState's machine, tested against it); the policies are
tests/ai/search_policy.py's, line for line (tests/ai/test_search_kernel.py plays both on the
same random numbers). Random numbers are xorshift64 (`ai.math.fastrng`): a schedule
entry with a seed restarts the stream there (the root's common random numbers),
otherwise the stream continues from `rng[0]`.

Numba caches this file's kernels keyed on this file alone, with `ai.sim.arrays` compiled
in: a change there (#34: a big-blind ante's dead money, the rules' `BB_ANTE` slot) comes
with an edit here, so that no stale cache outlives it.

Tables, packed per player, street and cost (`table_array`): the strength thresholds,
the card-blind shares, the model's shares and size shares, the size cdf and kappa.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from ai.math._jit import jit
from ai.math.fastrng import next_state, seed_state
from ai.models.features import SIZE_FRACTIONS
from ai.search.cost_context import cost_of
from ai.search.opponents import OpponentTables
from ai.sim.arrays import (
    BETS,
    BOARD_LEN,
    IN_HAND,
    IS_LIMIT,
    MIN_INC,
    N_IN_HAND,
    OVER,
    QUEUE,
    STACKS,
    START,
    STATE_SIZE,
    STREET,
    N,
    raise_bounds,
    raise_kind,
    sort,
    step,
    to_call,
)
from ai.sim.arrays import (
    pot as pot_of,
)

I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]
F64 = npt.NDArray[np.float64]

# Literal copies (numba's disk cache does not see constants imported from elsewhere).
FOLD, CHECK, CALL, BET = 0, 1, 2, 3
SIGMA = 0.12  # ai.models.ranges.SIGMA (tests/ai/test_kernel_constants.py)
ALL_IN = 5  # ai.models.features.ALL_IN_BUCKET (tests/ai/test_kernel_constants.py)
FRACTIONS = np.array([0.33, 0.5, 0.75, 1.0, 2.0])  # ai.models.features.SIZE_FRACTIONS
LOG_FRACTIONS = np.log(FRACTIONS)
OUR_FRACTIONS = np.array([0.5, 1.0, 2.0])  # ai.search.abstraction.OUR_FRACTIONS
if tuple(FRACTIONS) != SIZE_FRACTIONS:
    raise RuntimeError("ai.search.kernel's size fractions disagree with ai.models.features")
_LOW53 = (1 << 53) - 1
_UNIT = 1.0 / (1 << 53)

# Table fields (last axis of the packed tables).
T_RAISE_ABOVE, T_CONTINUE_ABOVE, T_RAISE_SHARE, T_CONTINUE_SHARE = 0, 1, 2, 3
T_SHARES, T_SIZES, T_CDF, T_KAPPA, T_OVERBET, T_BLUEPRINT, T_FIELDS = 4, 7, 13, 19, 20, 21, 22
# Tree layout: node rows, edge rows (one per action of a node), child rows (a list per
# edge of the lines that led to a child node, keyed by a slice of `keys`).
# NODE_FOLD: our chips since the hand began at the node, what folding there leaves us.
NODE_FIRST, NODE_K, NODE_TOTAL, NODE_RULE, NODE_FOLD, NODE_FIELDS = 0, 1, 2, 3, 6, 7
E_KIND, E_TO, E_N, E_HEAD, E_FIELDS = 0, 1, 2, 3, 4
# EF_FOLDS: the iterations through the edge in which every opponent folded (the folds an
# action's value assumes, shown with a big bet's advice).
EF_W, EF_W2, EF_PRIOR, EF_FOLDS, EF_FIELDS = 0, 1, 2, 3, 4
C_NODE, C_NEXT, C_KEY, C_LEN, C_HASH, C_FIELDS = 0, 1, 2, 3, 4, 5
COUNT_NODES, COUNT_EDGES, COUNT_CHILDREN, COUNT_KEYS = 0, 1, 2, 3
MAX_ACTIONS = 7  # fold, check/call and five raise sizes
MAX_KEY = 64  # a line between two of our decisions is at most ~2 (n - 1) actions + 3 cards
MAX_DEPTH = 256
CARD_CLASSES = 1000  # keys of strength classes start here (cards are 0..51)
# Integer settings (`settings` array). S_BP_ROOT: our decision's node on the blueprint's
# tree (`ai.search.rollout_blueprint`), -1: no blueprint is followed. S_BP_OURS: whether
# the blueprint plays our later decisions (else it is followed for the opponents only).
S_ME, S_PUCT, S_WARMUP, S_RANDOM, S_BUCKETS, S_BP_ROOT, S_BP_OURS = 0, 1, 2, 3, 4, 5, 6
# The packed blueprint (ai.search.rollout_blueprint.Pack; tests/ai/test_kernel_constants.py).
B_PLAYER, B_ROUND, B_NACT, B_BASE, B_CHILD, B_ACT = 0, 1, 2, 3, 4, 10
A_FOLD, A_CALL, A_RAISE = 0, 1, 2  # ai.policy.nway.tree's action codes
BP_ALL_IN = -1.0  # ai.policy.nway.tree.ALL_IN
# Float settings (`params` array).
P_EXPLORATION, P_SCALE = 0, 1


def table_array(tables: OpponentTables) -> F64:
    """The tables packed as [player, street, cost, field] for the kernels."""
    n = tables.shares.shape[0]
    out = np.zeros((n, 4, 3, T_FIELDS))
    out[..., T_RAISE_ABOVE] = tables.raise_above
    out[..., T_CONTINUE_ABOVE] = tables.continue_above
    out[..., T_RAISE_SHARE] = tables.raise_share
    out[..., T_CONTINUE_SHARE] = tables.continue_share
    out[..., T_SHARES : T_SHARES + 3] = tables.shares
    out[..., T_SIZES : T_SIZES + 6] = tables.sizes
    out[..., T_CDF : T_CDF + 6] = tables.size_cdf
    out[..., T_KAPPA] = np.asarray(tables.kappa)[:, None, None]
    out[..., T_OVERBET] = np.asarray(tables.overbet)[:, None, None]
    out[..., T_BLUEPRINT] = np.asarray(tables.blueprint)[:, None, None]
    return out


# -- random numbers -------------------------------------------------------------------


@jit
def uniform(rng: I64) -> float:
    """A float in [0, 1) from the stream in rng[0] (advanced)."""
    x = next_state(rng[0])
    rng[0] = x
    return ((x >> 11) & _LOW53) * _UNIT


@jit
def reseed(rng: I64, seed: int) -> None:
    rng[0] = seed_state(seed)


# -- the policies (tests/ai/search_policy.py, ai.search.abstraction) -----------------


@jit
def continue_scale(call: int, pot: int, limit: bool, exponent: float) -> float:
    """policy.continue_scale: a No-Limit bet beyond the pot is met less often."""
    if limit or call <= 0:
        return 1.0
    ratio = call / max(pot - call, 1)
    return 1.0 if ratio <= 1.0 else (2.0 / (1.0 + ratio)) ** exponent


@jit
def opponent_choice(
    tab: F64, i: int, street: int, cost: int, s: float, u: float, scale: float
) -> int:
    """0 fold, 1 check/call, 2 bet/raise (policy.opponent_choice)."""
    return opponent_choice_at(tab, i, street, cost, s, u, scale, tab[i, street, cost, T_KAPPA])


@jit
def opponent_choice_at(
    tab: F64, i: int, street: int, cost: int, s: float, u: float, scale: float, kappa: float
) -> int:
    """opponent_choice with the share `kappa` of card-following play given."""
    row = tab[i, street, cost]
    raise_above = 1.0 - (1.0 - row[T_RAISE_ABOVE]) * scale
    p_raise = (s - raise_above + SIGMA) / (2 * SIGMA)
    if kappa < 1.0:
        p_raise = kappa * min(max(p_raise, 0.0), 1.0) + (1.0 - kappa) * row[T_RAISE_SHARE] * scale
    if u < p_raise:
        return 2
    if cost == 0:
        return 1
    continue_above = 1.0 - (1.0 - row[T_CONTINUE_ABOVE]) * scale
    p_continue = (s - continue_above + SIGMA) / (2 * SIGMA)
    if kappa < 1.0:
        p_continue = (
            kappa * min(max(p_continue, 0.0), 1.0) + (1.0 - kappa) * row[T_CONTINUE_SHARE] * scale
        )
    return 1 if u < p_continue else 0


@jit
def opponent_act(
    tab: F64, bpi: I64, bps: F64, node: int, st: I64, i: int, street: int, cost: int,
    s: float, bucket: int, rng: I64, scale: float,
) -> tuple[int, int]:  # fmt: skip
    """Player i's (choice, blueprint slot or -1). Its card-following play (the share
    kappa) is, with probability its blueprint weight b, where the hand is on the
    blueprint's tree at its decision, the blueprint's strategy for its card bucket
    `bucket` (how an unread player plays), else the tables' thresholds; the rest card-blind
    as in `opponent_choice`: b kappa by the blueprint, the thresholds and the card-blind
    shares mixed at kappa (1 - b) / (1 - b kappa) for the remainder."""
    b = tab[i, 0, 0, T_BLUEPRINT]
    if b > 0.0 and bp_at(bpi, node, st, i):
        kappa = tab[i, 0, 0, T_KAPPA]
        p = b * kappa
        if uniform(rng) < p:
            slot = bp_choice(bpi, bps, node, bucket, uniform(rng))
            return int(bpi[node, B_ACT + slot]), slot  # A_FOLD, A_CALL, A_RAISE: 0, 1, 2
        rest = kappa * (1.0 - b) / (1.0 - p) if p < 1.0 else 1.0
        return opponent_choice_at(tab, i, street, cost, s, uniform(rng), scale, rest), -1
    return opponent_choice(tab, i, street, cost, s, uniform(rng), scale), -1


@jit
def our_choice(s: float, call: int, pot: int, trust: float) -> int:
    """policy.our_choice: value-raise strong hands, call on pot odds plus a margin."""
    if s >= (0.5 + 0.3 * trust if call else 0.5 + 0.15 * trust):
        return 2
    if not call or s >= call / (call + pot) + 0.15 * trust:
        return 1
    return 0


@jit
def trust_of(st: I64, tab: F64, me: int) -> float:
    """policy.trust_of: the least any opponent still in the hand follows its cards."""
    trust = 1.0
    for i in range(st[N]):
        if i != me and st[IN_HAND + i] and tab[i, 0, 0, T_KAPPA] < trust:
            trust = tab[i, 0, 0, T_KAPPA]
    return trust


@jit
def blind_bluff_gain(s: float, call: int, pot: int, bet: int, kappa: float, row: F64) -> float:
    """policy.blind_bluff_gain: a Limit raise's worth beyond checking or calling,
    heads-up, from the folds that do not follow the opponent's cards."""
    blind = 1.0 - kappa
    fold = blind * (1.0 - row[T_CONTINUE_SHARE])
    raised = blind * row[T_RAISE_SHARE]
    called = 1.0 - fold - raised
    gain: float = fold * (pot + call) * (1.0 - s) + bet * (2.0 * s - 1.0) * (called + 2.0 * raised)
    return gain


@jit
def rollout_choice(st: I64, rules: I64, tab: F64, me: int, s: float, call: int, pot: int) -> int:
    """policy.rollout_choice: our_choice at the trust of the opponents still in; heads-up
    Limit, below average strength, a raise where the opponent's card-blind folds pay."""
    choice = our_choice(s, call, pot, trust_of(st, tab, me))
    if choice == 2 or s >= 0.5 or rules[IS_LIMIT] == 0 or st[N_IN_HAND] != 2:
        return choice
    if not raise_bounds(st, rules, me, call)[0]:
        return choice
    other = 0
    for i in range(st[N]):
        if i != me and st[IN_HAND + i]:
            other = i
    street = st[STREET]
    bet = rules[MIN_INC + street]
    row = tab[other, street, 1]
    gain = blind_bluff_gain(s, call, pot, bet, tab[other, 0, 0, T_KAPPA], row)
    if choice == 0:
        gain += s * (pot + call) - call  # the rule folds: the raise must beat the fold
    return 2 if gain > 0.0 else choice


@jit
def opponent_bucket(tab: F64, i: int, street: int, cost: int, u: float) -> int:
    row = tab[i, street, cost]
    bucket = 0
    while u > row[T_CDF + bucket]:
        bucket += 1
    return bucket


@jit
def raise_to(pot: int, committed: int, call: int, low: int, high: int, fraction: float) -> int:
    """abstraction.raise_to: `fraction` of the pot after calling, made legal."""
    wanted = committed + call + int(np.rint(fraction * (pot + call)))
    return min(max(wanted, low), high)


@jit
def bucket_amount(pot: int, committed: int, call: int, low: int, high: int, bucket: int) -> int:
    if bucket >= ALL_IN:
        return high
    return raise_to(pot, committed, call, low, high, FRACTIONS[bucket])


@jit
def size_bucket(pot: int, committed: int, call: int, stack: int, to: int) -> int:
    """abstraction.size_bucket: all-in, else the nearest fraction on a log scale."""
    if to >= committed + stack:
        return ALL_IN
    extra = to - committed - call
    fraction = max(extra, 1) / max(pot + call, 1)
    lf = math.log(fraction)
    best = 0
    gap = abs(LOG_FRACTIONS[0] - lf)
    for b in range(1, 5):
        g = abs(LOG_FRACTIONS[b] - lf)
        if g < gap:
            best, gap = b, g
    return best


@jit
def advance(
    st: I64,
    rules: I64,
    holes: I64,
    runout: I64,
    strength: F64,
    tab: F64,
    me: int,
    rng: I64,
    key: I64,
    length: int,
    ev: tuple[I64, I64, I32, I32],
    bp: tuple[I64, F64, F64],
    cur: I64,
    theirs: I64,
) -> int:
    """Opponents act (`opponent_act`; their card buckets per street `theirs[i]`) until
    it is our turn or the hand ends; their actions are appended to `key` (street * 64 +
    16 + size bucket for a bet or raise, + 8 for check/call, + 0 for a fold), and followed
    on the blueprint's tree (cur[0]). Returns the key's new length."""
    pack, bits, plain, flush = ev
    bpi, bpf, bps = bp
    limit = rules[IS_LIMIT] != 0
    while not st[OVER] and st[QUEUE] != me:
        i = st[QUEUE]
        street = st[STREET]
        call = to_call(st, i)
        pot = pot_of(st)
        cost = cost_of(call, pot, rules[MIN_INC + street], limit)
        scale = continue_scale(call, pot, limit, tab[i, 0, 0, T_OVERBET])
        node = cur[0]
        choice, slot = opponent_act(tab, bpi, bps, node, st, i, street, cost,
                                    strength[i, street], theirs[i, street], rng, scale)  # fmt: skip
        kind = CHECK if call == 0 else (CALL if choice >= 1 else FOLD)
        to = 0
        code = street * 64 + (8 if kind != FOLD else 0)
        if choice == 2:
            ok, low, high = raise_bounds(st, rules, i, call)
            if ok:
                kind = BET
                bucket = 0
                if limit:
                    to = low
                elif slot >= 0:
                    to = bp_raise_to(bpf, node, slot, pot, st[BETS + i], call, low, high, limit)
                    bucket = size_bucket(pot, st[BETS + i], call, st[STACKS + i], to)
                else:
                    bucket = opponent_bucket(tab, i, street, cost, uniform(rng))
                    to = bucket_amount(pot, st[BETS + i], call, low, high, bucket)
                code = street * 64 + 16 + bucket
        cur[0] = bp_follow(bpi, bpf, node, st, rules, i, kind, to)
        step(st, rules, kind, to, holes, runout, pack, bits, plain, flush)
        if length < MAX_KEY:
            key[length] = code
        length += 1
    return length


@jit
def play_out(
    st: I64,
    rules: I64,
    holes: I64,
    runout: I64,
    strength: F64,
    tab: F64,
    me: int,
    rng: I64,
    ev: tuple[I64, I64, I32, I32],
    bp: tuple[I64, F64, F64],
    cur: I64,
    ours: I64,
    theirs: I64,
    bp_ours: bool,
) -> None:
    """policy.play_out: opponents by `opponent_act` (their buckets `theirs`), us (with
    `bp_ours`) by the blueprint while the hand is on its tree (cur[0], our bucket per
    street `ours`) with probability the opponents' trust, else by our_choice, to the end."""
    pack, bits, plain, flush = ev
    bpi, bpf, bps = bp
    limit = rules[IS_LIMIT] != 0
    while not st[OVER]:
        i = st[QUEUE]
        street = st[STREET]
        call = to_call(st, i)
        pot = pot_of(st)
        s = strength[i, street]
        cost = 0
        slot = -1
        node = cur[0]
        # The blueprint as far as the opponents' bets follow their cards (`trust_of`):
        # against card-blind betting the rule's exploitation, not the equilibrium's folds.
        if (
            i == me
            and bp_ours
            and bp_at(bpi, node, st, me)
            and uniform(rng) < trust_of(st, tab, me)
        ):
            slot = bp_choice(bpi, bps, node, ours[street], uniform(rng))
            choice = bpi[node, B_ACT + slot]  # A_FOLD, A_CALL, A_RAISE: 0, 1, 2 as below
        elif i == me:
            choice = rollout_choice(st, rules, tab, me, s, call, pot)
        else:
            cost = cost_of(call, pot, rules[MIN_INC + street], limit)
            scale = continue_scale(call, pot, limit, tab[i, 0, 0, T_OVERBET])
            choice, slot = opponent_act(tab, bpi, bps, node, st, i, street, cost, s,
                                        theirs[i, street], rng, scale)  # fmt: skip
        kind = CHECK if call == 0 else (CALL if choice >= 1 else FOLD)
        to = 0
        if choice == 2:
            ok, low, high = raise_bounds(st, rules, i, call)
            if ok:
                kind = BET
                if slot >= 0:
                    to = bp_raise_to(bpf, node, slot, pot, st[BETS + i], call, low, high, limit)
                elif limit:
                    to = low
                elif i == me:
                    to = raise_to(pot, st[BETS + i], call, low, high, 1.0)
                else:
                    bucket = opponent_bucket(tab, i, street, cost, uniform(rng))
                    to = bucket_amount(pot, st[BETS + i], call, low, high, bucket)
        cur[0] = bp_follow(bpi, bpf, node, st, rules, i, kind, to)
        step(st, rules, kind, to, holes, runout, pack, bits, plain, flush)


@jit
def random_play_out(
    st: I64, rules: I64, holes: I64, runout: I64, rng: I64, ev: tuple[I64, I64, I32, I32]
) -> None:
    """policy.random_play_out: uniform over fold / check-call / bet-raise (pot-sized)."""
    pack, bits, plain, flush = ev
    limit = rules[IS_LIMIT] != 0
    while not st[OVER]:
        i = st[QUEUE]
        call = to_call(st, i)
        ok, low, high = raise_bounds(st, rules, i, call)
        # The legal kinds in SimLegal.kinds' order: (fold, call | check)[, raise].
        count = (2 if call > 0 else 1) + (1 if ok else 0)
        pick = int(uniform(rng) * count)
        if call > 0:
            kind = FOLD if pick == 0 else (CALL if pick == 1 else BET)
        else:
            kind = CHECK if pick == 0 else BET
        to = 0
        if kind >= BET:
            to = low if limit else raise_to(pot_of(st), st[BETS + i], call, low, high, 1.0)
        step(st, rules, kind, to, holes, runout, pack, bits, plain, flush)


# -- the blueprint as our later play (ai.search.rollout_blueprint) -------------------


@jit
def bp_at(bpi: I64, node: int, st: I64, i: int) -> bool:
    """Whether blueprint node `node` is player i's decision on the current street."""
    return (
        node >= 0
        and bpi[node, B_NACT] > 0
        and bpi[node, B_PLAYER] == i
        and bpi[node, B_ROUND] == st[STREET]
    )


@jit
def _bp_slot(bpi: I64, node: int, act: int) -> int:
    for s in range(bpi[node, B_NACT]):
        if bpi[node, B_ACT + s] == act:
            return s
    return -1


@jit
def pseudo_harmonic(x: float, a: float, b: float) -> float:
    """ai.policy.nway.translate.pseudo_harmonic."""
    if b <= a:
        return 1.0
    x = min(max(x, a), b)
    return (b - x) * (1.0 + a) / ((b - a) * (1.0 + x))


@jit
def bp_follow(bpi: I64, bpf: F64, node: int, st: I64, rules: I64, i: int, kind: int,
              to: int) -> int:  # fmt: skip
    """The blueprint node after player i's (kind, to) at `st` (before it is stepped), as
    `NWayBlueprint.walk` maps a real action; -1 once the hand has left the tree."""
    if not bp_at(bpi, node, st, i):
        return -1
    if kind == FOLD:
        s = _bp_slot(bpi, node, A_FOLD)
        if s < 0:
            s = _bp_slot(bpi, node, A_CALL)
    elif kind < BET:
        s = _bp_slot(bpi, node, A_CALL)
    elif rules[IS_LIMIT] != 0:
        s = _bp_slot(bpi, node, A_RAISE)
    else:
        call = to_call(st, i)
        facing = st[BETS + i] + call
        cap = st[BETS + i] + st[STACKS + i]
        pot = max(pot_of(st) + call, 1)
        x = (to - facing) / pot
        last = -1
        for m in range(bpi[node, B_NACT]):
            if bpi[node, B_ACT + m] == A_RAISE:
                last = m
        if last < 0:
            return -1
        if to >= cap and bpf[node, last] == BP_ALL_IN:
            return int(bpi[node, B_CHILD + last])
        # translate.translate: the pseudo-harmonic mapping, the likelier side.
        s = -1
        prev = -1
        prev_size = 0.0
        for m in range(bpi[node, B_NACT]):
            if bpi[node, B_ACT + m] != A_RAISE:
                continue
            f = bpf[node, m]
            size = (cap - facing) / pot if f == BP_ALL_IN else f
            if prev < 0:
                s = m
                if x <= size:
                    break
            elif x <= size:
                s = prev if pseudo_harmonic(x, prev_size, size) >= 0.5 else m
                break
            else:
                s = m
            prev, prev_size = m, size
    if s < 0:
        return -1
    return int(bpi[node, B_CHILD + s])


@jit
def bp_choice(bpi: I64, bps: F64, node: int, bucket: int, u: float) -> int:
    """The action slot the blueprint's strategy at (node, bucket) picks for draw u."""
    k = bpi[node, B_NACT]
    o = bpi[node, B_BASE] + bucket * k
    acc = 0.0
    for s in range(k):
        acc += bps[o + s]
        if u < acc:
            return s
    return int(k - 1)


@jit
def bp_raise_to(bpf: F64, node: int, slot: int, pot: int, committed: int, call: int,
                low: int, high: int, limit: bool) -> int:  # fmt: skip
    """A blueprint raise's amount: Limit's fixed one, the pot fraction, or all-in."""
    if limit:
        return low
    f = bpf[node, slot]
    if f == BP_ALL_IN:
        return high
    return raise_to(pot, committed, call, low, high, f)


# -- the tree -------------------------------------------------------------------------


@jit
def new_node(
    nodes: I64,
    edges: I64,
    edge_f: F64,
    counts: I64,
    st: I64,
    rules: I64,
    tab: F64,
    me: int,
    puct: bool,
    root: bool,
) -> int:
    """A node for our decision at `st` (Search.new_node): our abstract actions
    (abstraction.our_actions; no fold at the root, valued exactly), their prior and our
    rule's give-up, passive and pot-sized actions. Returns its id."""
    limit = rules[IS_LIMIT] != 0
    street = st[STREET]
    call = to_call(st, me)
    pot = pot_of(st)
    committed = st[BETS + me]
    stack = st[STACKS + me]
    ok, low, high = raise_bounds(st, rules, me, call)
    kinds = np.zeros(MAX_ACTIONS, dtype=np.int64)
    tos = np.zeros(MAX_ACTIONS, dtype=np.int64)
    k = 0
    if call > 0 and not root:
        kinds[k] = FOLD
        k += 1
    kinds[k] = CALL if call > 0 else CHECK
    k += 1
    if ok:
        kind = raise_kind(st)
        if limit:
            kinds[k] = kind
            tos[k] = low
            k += 1
        else:
            amounts = np.empty(5, dtype=np.int64)
            amounts[0] = low
            amounts[1] = high
            for f in range(3):
                amounts[2 + f] = raise_to(pot, committed, call, low, high, OUR_FRACTIONS[f])
            sort(amounts)
            for m in range(5):
                if m and amounts[m] == amounts[m - 1]:
                    continue
                kinds[k] = kind
                tos[k] = amounts[m]
                k += 1
    node = counts[COUNT_NODES]
    first = counts[COUNT_EDGES]
    counts[COUNT_NODES] += 1
    counts[COUNT_EDGES] += k
    nodes[node, NODE_FIRST] = first
    nodes[node, NODE_K] = k
    nodes[node, NODE_TOTAL] = 0
    prior = np.empty(k)
    if puct:
        cost = cost_of(call, pot, rules[MIN_INC + street], limit)
        row = tab[me, street, cost]
        buckets = np.zeros(k, dtype=np.int64)
        for a in range(k):
            if kinds[a] >= BET:
                buckets[a] = size_bucket(pot, committed, call, stack, tos[a])
        total = 0.0
        for a in range(k):
            if kinds[a] == FOLD:
                p = row[T_SHARES]
            elif kinds[a] < BET:
                p = row[T_SHARES + 1]
            else:
                same = 0
                for b in range(k):
                    if kinds[b] >= BET and buckets[b] == buckets[a]:
                        same += 1
                p = row[T_SHARES + 2] * (row[T_SIZES + buckets[a]] + 0.05) / max(same, 1)
            prior[a] = max(p, 0.05)
            total += prior[a]
        for a in range(k):
            prior[a] /= total
    else:
        for a in range(k):
            prior[a] = 1.0 - 0.01 * a  # tie order: as listed
    passive = 1 if kinds[0] == FOLD else 0
    give_up = 0 if kinds[0] == FOLD else passive
    aggressive = passive
    if ok:
        pot_sized = raise_to(pot, committed, call, low, high, 1.0)
        gap = -1
        for a in range(k):
            if kinds[a] >= BET and (gap < 0 or abs(tos[a] - pot_sized) < gap):
                aggressive, gap = a, abs(tos[a] - pot_sized)
    nodes[node, NODE_RULE] = give_up
    nodes[node, NODE_RULE + 1] = passive
    nodes[node, NODE_RULE + 2] = aggressive
    # Folding loses the chips already in front of us this street (pokerkit moves a folded
    # player's bet into the pot): counting them as ours made betting and then folding to
    # a raise look free, and every bet's value optimistic (`showdown calibration`).
    nodes[node, NODE_FOLD] = st[STACKS + me] - st[START + me]
    for a in range(k):
        e = first + a
        edges[e, E_KIND] = kinds[a]
        edges[e, E_TO] = tos[a]
        edges[e, E_N] = 0
        edges[e, E_HEAD] = -1
        edge_f[e, EF_W] = 0.0
        edge_f[e, EF_W2] = 0.0
        edge_f[e, EF_PRIOR] = prior[a]
        edge_f[e, EF_FOLDS] = 0.0
    return int(node)


@jit
def select(
    nodes: I64, edges: I64, edge_f: F64, node: int, exploration: float, scale: float,
    puct: bool,
) -> int:  # fmt: skip
    """Tree.select: UCT (w/n + c sqrt(ln t / n)) or PUCT (w/n + c P sqrt(t) / (1 + n))
    on values divided by `scale`; untried actions first, the likeliest first."""
    first = nodes[node, NODE_FIRST]
    k = nodes[node, NODE_K]
    untried = -1
    for a in range(k):
        e = first + a
        if edges[e, E_N] == 0 and (
            untried < 0 or edge_f[e, EF_PRIOR] > edge_f[first + untried, EF_PRIOR]
        ):
            untried = a
    if untried >= 0:
        return untried
    total = nodes[node, NODE_TOTAL]
    best = 0
    best_score = -np.inf
    if puct:
        coef = exploration * math.sqrt(total)
        for a in range(k):
            e = first + a
            n = edges[e, E_N]
            score = edge_f[e, EF_W] / (n * scale) + coef * edge_f[e, EF_PRIOR] / (1 + n)
            if score > best_score:
                best, best_score = a, score
    else:
        log_t = math.log(total)
        for a in range(k):
            e = first + a
            n = edges[e, E_N]
            score = edge_f[e, EF_W] / (n * scale) + exploration * math.sqrt(log_t / n)
            if score > best_score:
                best, best_score = a, score
    return best


@jit
def _find_child(edges: I64, children: I64, keys: I64, e: int, key: I64, length: int,
                h: int) -> int:  # fmt: skip
    c = edges[e, E_HEAD]
    while c >= 0:
        if children[c, C_HASH] == h and children[c, C_LEN] == length:
            start = children[c, C_KEY]
            same = True
            for m in range(length):
                if keys[start + m] != key[m]:
                    same = False
                    break
            if same:
                return int(children[c, C_NODE])
        c = children[c, C_NEXT]
    return -1


@jit
def _add_child(edges: I64, children: I64, keys: I64, counts: I64, e: int, node: int,
               key: I64, length: int, h: int) -> None:  # fmt: skip
    c = counts[COUNT_CHILDREN]
    counts[COUNT_CHILDREN] += 1
    start = counts[COUNT_KEYS]
    counts[COUNT_KEYS] += length
    keys[start : start + length] = key[:length]
    children[c, C_NODE] = node
    children[c, C_NEXT] = edges[e, E_HEAD]
    children[c, C_KEY] = start
    children[c, C_LEN] = length
    children[c, C_HASH] = h
    edges[e, E_HEAD] = c


@jit
def bp_edge(nodes: I64, edges: I64, bpi: I64, bpf: F64, bps: F64, bpn: int, node: int,
            st: I64, rules: I64, me: int, bucket: int, u: float, limit: bool) -> int:  # fmt: skip
    """Our action at a tree node below the root by the blueprint: its fold, check/call,
    or the node's raise nearest to the blueprint's size (passive where none is legal)."""
    slot = bp_choice(bpi, bps, bpn, bucket, u)
    act = bpi[bpn, B_ACT + slot]
    if act == A_FOLD:
        return int(nodes[node, NODE_RULE])
    passive = int(nodes[node, NODE_RULE + 1])
    if act == A_CALL:
        return passive
    if limit:
        return int(nodes[node, NODE_RULE + 2])
    call = to_call(st, me)
    ok, low, high = raise_bounds(st, rules, me, call)
    if not ok:
        return passive
    wanted = bp_raise_to(bpf, bpn, slot, pot_of(st), st[BETS + me], call, low, high, limit)
    first = nodes[node, NODE_FIRST]
    best = passive
    gap = -1
    for a in range(nodes[node, NODE_K]):
        e = first + a
        if edges[e, E_KIND] >= BET and (gap < 0 or abs(edges[e, E_TO] - wanted) < gap):
            best, gap = a, abs(edges[e, E_TO] - wanted)
    return best


@jit
def run_schedule(
    nodes: I64,
    edges: I64,
    edge_f: F64,
    children: I64,
    keys: I64,
    counts: I64,
    root: int,
    root_state: I64,
    rules: I64,
    holes: I64,
    runouts: I64,
    strengths: F64,
    tab: F64,
    schedule: I64,
    settings: I64,
    params: F64,
    rng: I64,
    ev: tuple[I64, I64, I32, I32],
    out: F64,
    bp: tuple[I64, F64, F64],
    bp_buckets: I64,
    opp_buckets: I64,
) -> None:
    """Run the iterations of `schedule` (rows: deal, forced root action or -1, seed or -1);
    out[0], out[1] accumulate the values and their squares (for the scale). Our later
    decisions below the root (while the rule plays there) and in the rollouts are the
    blueprint's (`bp`, from node settings[S_BP_ROOT], our buckets per deal and street
    `bp_buckets`) while the hand is on its tree (with settings[S_BP_OURS]); the opponents'
    buckets per deal, player and street are `opp_buckets` (`opponent_act`)."""
    me = settings[S_ME]
    puct = settings[S_PUCT] != 0
    warmup = settings[S_WARMUP]
    random_rollout = settings[S_RANDOM] != 0
    buckets = settings[S_BUCKETS]
    exploration = params[P_EXPLORATION]
    scale = params[P_SCALE]
    bp_root = settings[S_BP_ROOT]
    bp_ours = settings[S_BP_OURS] != 0
    bpi, bpf, bps = bp
    limit = rules[IS_LIMIT] != 0
    cur = np.empty(1, dtype=np.int64)
    st = np.empty(STATE_SIZE, dtype=np.int64)
    key = np.empty(MAX_KEY + 8, dtype=np.int64)
    path_nodes = np.empty(MAX_DEPTH, dtype=np.int64)
    path_edges = np.empty(MAX_DEPTH, dtype=np.int64)
    pack, bits, plain, flush = ev
    for row in range(schedule.shape[0]):
        d = schedule[row, 0]
        a = schedule[row, 1]
        if schedule[row, 2] >= 0:
            reseed(rng, schedule[row, 2])
        st[:] = root_state
        hole = holes[d]
        runout = runouts[d]
        strength = strengths[d]
        ours = bp_buckets[d]
        theirs = opp_buckets[d]
        cur[0] = bp_root
        node = root
        depth = 0
        value = 0.0
        while True:
            if a < 0:
                if nodes[node, NODE_TOTAL] < warmup and node != root:
                    if (
                        bp_ours
                        and bp_at(bpi, cur[0], st, me)
                        and uniform(rng) < trust_of(st, tab, me)
                    ):
                        a = bp_edge(nodes, edges, bpi, bpf, bps, cur[0], node, st, rules,
                                    me, ours[st[STREET]], uniform(rng), limit)  # fmt: skip
                    else:
                        s = strength[me, st[STREET]]
                        rule = rollout_choice(st, rules, tab, me, s, to_call(st, me), pot_of(st))
                        a = nodes[node, NODE_RULE + rule]
                else:
                    a = select(nodes, edges, edge_f, node, exploration, scale, puct)
            e = nodes[node, NODE_FIRST] + a
            path_nodes[depth] = node
            path_edges[depth] = e
            depth += 1
            kind = edges[e, E_KIND]
            if kind == FOLD:
                value = st[STACKS + me] - st[START + me]  # our bet this street is lost
                break
            seen = st[BOARD_LEN]
            cur[0] = bp_follow(bpi, bpf, cur[0], st, rules, me, kind, edges[e, E_TO])
            step(st, rules, kind, edges[e, E_TO], hole, runout, pack, bits, plain, flush)
            length = advance(st, rules, hole, runout, strength, tab, me, rng, key, 0, ev, bp,
                             cur, theirs)  # fmt: skip
            if st[OVER]:
                value = st[STACKS + me] + st[BETS + me] - st[START + me]
                break
            if buckets and st[BOARD_LEN] != seen:
                # The new cards as our strength class on this street, not the cards
                # themselves: lines that differ only in cards of the same worth share
                # a node, so our later decisions are searched, not left to the rule.
                if length < MAX_KEY:
                    s = strength[me, st[STREET]]
                    key[length] = CARD_CLASSES + min(int(s * buckets), buckets - 1)
                length += 1
            else:
                for c in range(seen, st[BOARD_LEN]):
                    if length < MAX_KEY:
                        key[length] = runout[c]
                    length += 1
            child = -1
            h = 0
            if length <= MAX_KEY and depth < MAX_DEPTH:
                for m in range(length):
                    h = h * 1000003 + key[m] + 1
                child = _find_child(edges, children, keys, e, key, length, h)
                if child < 0:  # expand one node per iteration, then play out
                    child = new_node(nodes, edges, edge_f, counts, st, rules, tab, me, puct,
                                     False)  # fmt: skip
                    _add_child(edges, children, keys, counts, e, child, key, length, h)
                    child = -1
            if child < 0:
                if random_rollout:
                    random_play_out(st, rules, hole, runout, rng, ev)
                else:
                    play_out(st, rules, hole, runout, strength, tab, me, rng, ev, bp, cur, ours,
                             theirs, bp_ours)  # fmt: skip
                value = st[STACKS + me] + st[BETS + me] - st[START + me]
                break
            node = child
            a = -1
        # Values are our chips since the hand began (a constant apart from the root's
        # fold, so a tree kept from an earlier decision of the hand stays comparable).
        folded_out = 1.0 if st[OVER] and st[N_IN_HAND] == 1 and st[IN_HAND + me] else 0.0
        out[0] += value
        out[1] += value * value
        for m in range(depth):
            e = path_edges[m]
            edges[e, E_N] += 1
            edge_f[e, EF_W] += value
            edge_f[e, EF_W2] += value * value
            edge_f[e, EF_FOLDS] += folded_out
            nodes[path_nodes[m], NODE_TOTAL] += 1


@jit
def best_values(
    nodes: I64, edges: I64, edge_f: F64, children: I64, counts: I64, root: int,
    min_visits: int, q: F64, v: F64,
) -> None:  # fmt: skip
    """Every action's value as the best continuation we could play after it (q, per edge),
    and every node's value as its best action's (v), in chips since the hand began.

    The iterations through an edge split into those that reached one of our later nodes
    and those that did not (the hand ended first, or the line was just expanded and
    played out by the rollout rule). A later node counts at v: its most visited action's
    value once that has `min_visits` visits (UCT visits the best action most; the most
    visited, not the highest mean, so that noise in a few visits is not taken as value;
    before that, the average of what was played there), replaced by folding there (exact:
    our chips at the node, a fold always ours to make) where that estimate is clearly
    below it, by two standard errors. A free check at the root is never below folding
    there: after it we can still fold to any bet, and otherwise the hand goes on at no
    cost. Children are created after their parents, so one pass in
    decreasing id order sees every child first; the root (a later row when a kept
    tree's child was made a root) goes last.
    """
    total = counts[COUNT_NODES]
    for step_ in range(total + 1):
        node = root if step_ == total else total - 1 - step_
        if node == root and step_ < total:
            continue
        first = nodes[node, NODE_FIRST]
        k = nodes[node, NODE_K]
        fold_here = float(nodes[node, NODE_FOLD])
        node_w = 0.0
        most = -1
        for a in range(k):
            e = first + a
            n = edges[e, E_N]
            if n == 0:
                q[e] = fold_here
                continue
            rest_w = edge_f[e, EF_W]
            backed = 0.0
            c = edges[e, E_HEAD]
            while c >= 0:
                child = children[c, C_NODE]
                nc = nodes[child, NODE_TOTAL]
                if nc > 0:
                    cf = nodes[child, NODE_FIRST]
                    for b in range(nodes[child, NODE_K]):
                        rest_w -= edge_f[cf + b, EF_W]
                    backed += nc * v[child]
                c = children[c, C_NEXT]
            node_w += edge_f[e, EF_W]
            value = (rest_w + backed) / n
            if node == root and edges[e, E_KIND] == CHECK and value < fold_here:
                value = fold_here  # a free check now: never below folding now
            q[e] = value
            if most < 0 or n > edges[first + most, E_N]:
                most = a
        total_n = nodes[node, NODE_TOTAL]
        if total_n == 0:
            v[node] = fold_here
            continue
        if most >= 0 and edges[first + most, E_N] >= min_visits:
            # The action the search settled on there (UCT visits the best most).
            e = first + most
            estimate = q[e]
            n = edges[e, E_N]
            w, w2 = edge_f[e, EF_W], edge_f[e, EF_W2]
        else:
            # Too few visits to tell: what was played there, on average.
            estimate = node_w / total_n
            n = total_n
            w = node_w
            w2 = 0.0
            for a in range(k):
                w2 += edge_f[first + a, EF_W2]
        mean = w / n
        spread = math.sqrt(max(w2 / n - mean * mean, 0.0) / n) if n > 1 else math.inf
        # Folding there replaces the estimate only when clearly better (by two standard
        # errors): a floor under every noisy estimate would favour the lines with the
        # most later decisions.
        v[node] = fold_here if estimate + 2.0 * spread < fold_here else estimate
