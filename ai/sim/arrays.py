"""`ai.sim.state`'s betting machine on a flat int64 array, compiled by numba: the search's
hot path (MCTS iterations and rollouts) steps hands here without touching Python objects.

The array mirrors SimState variable for variable (same names, same order of updates, the
same pokerkit edge cases: short all-ins, uncalled bets, side pots, odd chips), so the two
cannot drift apart unnoticed: tests/ai/test_sim_arrays.py plays random seeded hands
(Limit and No-Limit, short stacks and antes) through both and requires the same legal
bounds at every step and the same chips at the end. A state is built from a SimState
(`state_array`); actions given to `step` must be legal (the callers read `raise_bounds`
first): nothing is validated here, that is SimState's job at the edges.

Showdowns rank hands with the numba evaluator (`ai.math.evaluator.value_of`), which
orders hands exactly as pkrbot does (`showdown bench ai` counts disagreements: none).

Numba's disk cache is keyed on each kernel's own file: after editing this one, delete
ai/search/__pycache__/kernel.*.nb[ic] too (the search's kernels compile these functions
into theirs), as `ai.math._jit` says.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ai.math._jit import jit
from ai.math.evaluator import CARD_BITS, CARD_PACK, OFFSET_7, value_of
from ai.math.tables import build_tables
from ai.sim.rules import Rules
from ai.sim.state import MAX_PLAYERS, SimState

I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]

# The state's layout: scalars, then per-player rows of MAX_PLAYERS (10) entries.
N, STREET, MAX_BET, COMPLETION, RAISES, ACTED, SHORT_SUM, OPENER = 0, 1, 2, 3, 4, 5, 6, 7
OVER, N_IN_HAND, BOARD_LEN, QLEN = 8, 9, 10, 11
QUEUE, STACKS, BETS, CONTRIB, IN_HAND, START = 12, 22, 32, 42, 52, 62
STATE_SIZE = 72
# The rules' layout.
IS_LIMIT, SMALL_BLIND, BIG_BLIND, ANTE, MIN_INC, MAX_RAISES, BB_ANTE = 0, 1, 2, 3, 4, 8, 12
RULES_SIZE = 13
# Literal copies of ai.sim.rules' constants (numba's disk cache does not see imported ones).
FOLD, CHECK, CALL, BET, RAISE = 0, 1, 2, 3, 4
PREFLOP, RIVER, SHOWDOWN = 0, 3, 4
if MAX_PLAYERS != 10 or QUEUE + 6 * MAX_PLAYERS != STATE_SIZE:
    raise RuntimeError("ai.sim.arrays' layout disagrees with ai.sim.state")


def rules_array(rules: Rules) -> I64:
    out = np.zeros(RULES_SIZE, dtype=np.int64)
    out[IS_LIMIT] = int(rules.is_limit)
    out[SMALL_BLIND], out[BIG_BLIND], out[ANTE] = rules.small_blind, rules.big_blind, rules.ante
    out[MIN_INC : MIN_INC + 4] = rules.min_increment
    out[MAX_RAISES : MAX_RAISES + 4] = rules.max_raises
    out[BB_ANTE] = int(rules.big_blind_ante)
    return out


def state_array(state: SimState) -> I64:
    """The betting state of `state` (its cards stay with the caller: holes and runout)."""
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    n = state.n
    st[N], st[STREET], st[MAX_BET] = n, state.street, state.max_bet
    st[COMPLETION], st[RAISES], st[ACTED] = state.completion, state.raises, state.acted
    st[SHORT_SUM], st[OPENER], st[OVER] = state.short_sum, state.opener, int(state.over)
    st[N_IN_HAND], st[BOARD_LEN], st[QLEN] = state.n_in_hand, state.board_len, len(state.queue)
    st[QUEUE : QUEUE + len(state.queue)] = state.queue
    st[STACKS : STACKS + n] = state.stacks
    st[BETS : BETS + n] = state.bets
    st[CONTRIB : CONTRIB + n] = state.contrib
    st[IN_HAND : IN_HAND + n] = state.in_hand
    st[START : START + n] = state.start
    return st


def cards_arrays(state: SimState) -> tuple[I64, I64]:
    """(holes[n, 2], runout[5]) of a SimState, as the kernels take them."""
    return np.array(state.holes, dtype=np.int64), np.array(state.runout, dtype=np.int64)


def evaluator_tables() -> tuple[I64, I64, I32, I32]:
    """What `step` needs for showdowns: (pack, bits, plain, flush)."""
    tables = build_tables()
    return CARD_PACK, CARD_BITS, tables.plain, tables.flush


# -- reading ------------------------------------------------------------------------


@jit
def to_call(st: I64, i: int) -> int:
    """Chips player i must add to call (capped by its stack)."""
    call = st[MAX_BET] - st[BETS + i]
    stack = st[STACKS + i]
    return int(stack if stack < call else call)


@jit
def pot(st: I64) -> int:
    """Collected pots plus this street's bets."""
    total = 0
    for j in range(st[N]):
        total += st[CONTRIB + j] + st[BETS + j]
    return total


@jit
def payoff(st: I64, i: int) -> int:
    """Player i's net chips (final minus starting stack); meaningful once over."""
    return int(st[STACKS + i] + st[BETS + i] - st[START + i])


@jit
def raise_bounds(st: I64, rules: I64, i: int, call: int) -> tuple[bool, int, int]:
    """(allowed, min_to, max_to) for player i facing `call`: SimState._raise_bounds."""
    if call < st[COMPLETION]:
        return False, 0, 0  # facing a short all-in it cannot re-raise
    street = st[STREET]
    if st[RAISES] == rules[MAX_RAISES + street]:
        return False, 0, 0  # capped
    if st[SHORT_SUM] and (st[ACTED] >> i) & 1:
        return False, 0, 0  # a short all-in does not reopen the betting to who acted
    max_bet = st[MAX_BET]
    if st[STACKS + i] <= max_bet - st[BETS + i]:
        return False, 0, 0  # can only call (all-in)
    caller = False
    for j in range(st[N]):
        if j != i and st[IN_HAND + j] and st[STACKS + j] + st[BETS + j] > max_bet:
            caller = True
            break
    if not caller:
        return False, 0, 0  # nobody left who could call a raise
    cap = st[STACKS + i] + st[BETS + i]
    low = rules[MIN_INC + street]
    if st[COMPLETION] > low:
        low = st[COMPLETION]
    low += max_bet
    if low > cap:
        low = cap
    return True, low, (low if rules[IS_LIMIT] else cap)


@jit
def raise_kind(st: I64) -> int:
    """BET when nobody has bet this street (after the flop), else RAISE."""
    return RAISE if st[MAX_BET] > 0 or st[STREET] == PREFLOP else BET


# -- acting -------------------------------------------------------------------------


@jit
def step(
    st: I64,
    rules: I64,
    kind: int,
    to: int,
    holes: I64,
    runout: I64,
    pack: I64,
    bits: I64,
    plain: I32,
    flush: I32,
) -> None:
    """The actor folds, checks/calls or bets/raises to `to` (a legal street total)."""
    i = st[QUEUE]
    call = to_call(st, i)
    if kind >= BET:
        _raise_to(st, i, to)
    else:
        _pop_actor(st)
        st[ACTED] |= 1 << i
        if kind == FOLD:
            st[IN_HAND + i] = 0
            st[N_IN_HAND] -= 1
        else:
            st[BETS + i] += call
            st[STACKS + i] -= call
    if st[QLEN] == 0 or st[N_IN_HAND] <= 1:
        _end_betting(st, rules, holes, runout, pack, bits, plain, flush)


@jit
def _pop_actor(st: I64) -> None:
    length = st[QLEN]
    for k in range(1, length):
        st[QUEUE + k - 1] = st[QUEUE + k]
    st[QLEN] = length - 1


@jit
def _raise_to(st: I64, i: int, to: int) -> None:
    n = st[N]
    increment = to - st[MAX_BET]
    st[STACKS + i] -= to - st[BETS + i]
    st[BETS + i] = to
    st[MAX_BET] = to
    # Everyone else still in with chips acts again, in order from the raiser's left.
    length = 0
    for m in range(1, n):
        j = (i + m) % n
        if st[IN_HAND + j] and st[STACKS + j]:
            st[QUEUE + length] = j
            length += 1
    st[QLEN] = length
    st[OPENER] = i
    completion = st[COMPLETION]
    if increment >= completion:
        st[ACTED] = 1 << i  # a full raise: everyone else may raise again
    else:
        st[ACTED] |= 1 << i
    if increment > completion:
        st[COMPLETION] = increment
    st[RAISES] += 1
    if st[STACKS + i]:
        st[SHORT_SUM] = 0
    else:
        st[SHORT_SUM] += increment
        if st[SHORT_SUM] >= st[COMPLETION]:
            st[SHORT_SUM] = 0  # short all-ins adding up to a full raise reopen it


@jit
def _begin_betting(
    st: I64,
    rules: I64,
    holes: I64,
    runout: I64,
    pack: I64,
    bits: I64,
    plain: I32,
    flush: I32,
) -> None:
    n = st[N]
    if st[STREET] == PREFLOP:
        # Left of the largest blind (ties: the later index); after the flop index 0.
        top = 0
        for j in range(1, n):
            if st[BETS + j] >= st[BETS + top]:
                top = j
        opener = (top + 1) % n
    else:
        opener = 0
    st[OPENER] = opener
    first = 0
    second = 0  # the two largest bet + stack among players in the hand
    for j in range(n):
        if st[IN_HAND + j]:
            total = st[BETS + j] + st[STACKS + j]
            if total > first:
                second = first
                first = total
            elif total > second:
                second = total
    # Only players with chips who could still lose some of them act.
    length = 0
    for m in range(n):
        j = (opener + m) % n
        if st[IN_HAND + j] and st[STACKS + j] and second > st[BETS + j]:
            st[QUEUE + length] = j
            length += 1
    st[QLEN] = length
    st[COMPLETION] = 0
    st[RAISES] = 0
    st[ACTED] = 0
    st[SHORT_SUM] = 0
    if length == 0 or (length == 1 and st[BETS + st[QUEUE]] >= st[MAX_BET]):
        _end_betting(st, rules, holes, runout, pack, bits, plain, flush)


@jit
def _end_betting(
    st: I64,
    rules: I64,
    holes: I64,
    runout: I64,
    pack: I64,
    bits: I64,
    plain: I32,
    flush: I32,
) -> None:
    # A loop rather than recursion: each street that opens with nobody to act ends at once.
    while True:
        st[QLEN] = 0
        n = st[N]
        survivor = -1
        if st[N_IN_HAND] == 1:
            for j in range(n):
                if st[IN_HAND + j]:
                    survivor = j
                    break
        if st[MAX_BET]:
            # Uncalled chips (above the second-largest bet) go back to their owner.
            largest = -1
            cutoff = -1
            for j in range(n):
                bet = st[BETS + j]
                if bet > largest:
                    cutoff = largest
                    largest = bet
                elif bet > cutoff:
                    cutoff = bet
            for j in range(n):
                bet = st[BETS + j]
                if bet and j != survivor:  # pokerkit leaves the winner's bet in front of them
                    if bet > cutoff:
                        st[STACKS + j] += bet - cutoff
                        bet = cutoff
                    st[CONTRIB + j] += bet
                    st[BETS + j] = 0
            st[MAX_BET] = 0
        if survivor >= 0:
            collected = 0
            for j in range(n):
                collected += st[CONTRIB + j]
            st[STACKS + survivor] += collected + st[BETS + survivor]
            st[BETS + survivor] = 0
            st[OVER] = 1
            st[STREET] = SHOWDOWN
            return
        # The rest of the board is dealt without betting once at most one player has chips.
        with_chips = 0
        for j in range(n):
            if st[IN_HAND + j] and st[STACKS + j]:
                with_chips += 1
        if st[STREET] == RIVER or with_chips <= 1:
            st[BOARD_LEN] = 5
            # A big-blind ante is dead money in the main pot (SimState._live_contrib).
            dead = 0
            big = 0 if n == 2 else 1
            if rules[BB_ANTE] and rules[ANTE]:
                dead = min(rules[ANTE], st[START + big])
            st[CONTRIB + big] -= dead
            _showdown(st, holes, runout, pack, bits, plain, flush, dead)
            st[CONTRIB + big] += dead
            st[OVER] = 1
            st[STREET] = SHOWDOWN
            return
        st[STREET] += 1
        st[BOARD_LEN] = 3 if st[STREET] == 1 else st[STREET] + 2
        # _begin_betting after the flop, inlined: it ends the street at once or returns.
        opener = 0
        st[OPENER] = opener
        first = 0
        second = 0
        for j in range(n):
            if st[IN_HAND + j]:
                total = st[BETS + j] + st[STACKS + j]
                if total > first:
                    second = first
                    first = total
                elif total > second:
                    second = total
        length = 0
        for j in range(n):
            if st[IN_HAND + j] and st[STACKS + j] and second > st[BETS + j]:
                st[QUEUE + length] = j
                length += 1
        st[QLEN] = length
        st[COMPLETION] = 0
        st[RAISES] = 0
        st[ACTED] = 0
        st[SHORT_SUM] = 0
        if not (length == 0 or (length == 1 and st[BETS + st[QUEUE]] >= st[MAX_BET])):
            return


@jit
def _showdown(
    st: I64, holes: I64, runout: I64, pack: I64, bits: I64, plain: I32, flush: I32, dead: int
) -> None:
    """Settle the pots as ai.sim.showdown.settle does (see there for pokerkit's rules);
    `dead` (a big-blind ante, left out of the contributions) joins the main pot."""
    n = st[N]
    board_pack = 0
    board_bits = 0
    for k in range(5):
        board_pack += pack[runout[k]]
        board_bits |= bits[runout[k]]
    ranks = np.full(n, -1, dtype=np.int64)
    for j in range(n):
        if st[IN_HAND + j]:
            a = holes[j, 0]
            b = holes[j, 1]
            ranks[j] = value_of(
                board_pack + pack[a] + pack[b], board_bits | bits[a] | bits[b], OFFSET_7,
                plain, flush,
            )  # fmt: skip
    level = 0
    for j in range(n):
        if st[CONTRIB + j] > level:
            level = st[CONTRIB + j]
    one_pot = True
    for j in range(n):
        if st[IN_HAND + j] and st[CONTRIB + j] != level:
            one_pot = False
    in_hand = 0
    for j in range(n):
        if st[IN_HAND + j]:
            in_hand |= 1 << j
    if one_pot:
        # Nobody is all-in for less: one pot, whatever the folded players put in.
        total = dead
        for j in range(n):
            total += st[CONTRIB + j]
        _award(st, n, total, in_hand, ranks)
        return
    amounts = np.zeros(n + 1, dtype=np.int64)
    players = np.zeros(n + 1, dtype=np.int64)
    count = _pots(st, n, in_hand, amounts, players, dead)
    alive = 0
    for p in range(count):
        best = _best(n, players[p], ranks)
        for j in range(n):
            if players[p] >> j & 1 and ranks[j] == best:
                alive |= 1 << j
    count = _pots(st, n, alive, amounts, players, dead)
    for p in range(count):
        if players[p]:  # pokerkit burns chips nobody is eligible for; betting never makes one
            _award(st, n, amounts[p], players[p], ranks)


@jit
def _best(n: int, players: int, ranks: I64) -> int:
    best = -1
    for j in range(n):
        if players >> j & 1 and ranks[j] > best:
            best = ranks[j]
    return best


@jit
def _award(st: I64, n: int, amount: int, players: int, ranks: I64) -> None:
    """`amount` split evenly among the best hands of `players`; odd chips to the first."""
    best = _best(n, players, ranks)
    winners = 0
    first = -1
    for j in range(n):
        if players >> j & 1 and ranks[j] == best:
            winners += 1
            if first < 0:
                first = j
    share = amount // winners
    for j in range(n):
        if players >> j & 1 and ranks[j] == best:
            st[STACKS + j] += share
    st[STACKS + first] += amount - share * winners


@jit
def sort(values: I64) -> None:
    """Insertion sort in place (at most ten values; cheaper to compile than np.sort)."""
    for k in range(1, values.shape[0]):
        v = values[k]
        m = k - 1
        while m >= 0 and values[m] > v:
            values[m + 1] = values[m]
            m -= 1
        values[m + 1] = v


@jit
def _pots(st: I64, n: int, eligible: int, amounts: I64, players: I64, dead: int) -> int:
    """Main pot then side pots (ai.sim.showdown._pots): one per contribution level,
    consecutive levels with the same eligible players merged, `dead` in the first.
    Returns the count."""
    levels = st[CONTRIB : CONTRIB + n].copy()
    sort(levels)
    count = 0
    previous = 0
    for k in range(n):
        level = levels[k]
        if k and level == levels[k - 1]:
            continue
        amount = dead if k == 0 else 0
        members = 0
        for j in range(n):
            if st[CONTRIB + j] >= level:
                amount += level - previous
                if eligible >> j & 1:
                    members |= 1 << j
        while count and players[count - 1] == members:
            count -= 1
            amount += amounts[count]
        if amount:
            amounts[count] = amount
            players[count] = members
            count += 1
        previous = level
    return count
