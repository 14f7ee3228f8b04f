"""Bot A minus bot B against a known opponent, exactly per decision (Fixed-Limit).

The performance-difference identity: with the deal fixed (every holding and the runout)
and the opponents' policy O known, the chips bot A makes in expectation minus those bot
B makes from the same seat are

    E_A[ sum over A's decisions s of  Q_B(s, a_A) - sum_b pi_B(b | s) Q_B(s, b) ]

where Q_B(s, a) is the chips at the hand's end after action a at s with B playing our
later decisions and O every other seat's, enumerated exactly over both policies'
probabilities. The expectation is over the trajectories A actually played against O, so
the sum over a match's hands estimates A - B without bias, and with far less variance
than the chips: O's sampling and the cards dealt after each decision are integrated out
(the idea of AIVAT, Burch et al. 2018, with both holdings known to the referee). It
needs A's actions only, B's and O's probabilities (`Policy`), and Limit betting, where
an action's kind fixes its amount.

`ExactProbe` is what a `Match` calls; one `HandProbe` per hand (memoised by the action
sequence, which fixes the state once the deal is fixed).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ai.game.observation import KIND_NAMES, ActionRecord
from ai.sim.rules import BET, CALL, PREFLOP
from ai.sim.state import SimState

# A policy known exactly: the probability of each legal kind (bets and raises at the
# Limit size) for the actor of `state`, given the public history.
Policy = Callable[[SimState, Sequence[ActionRecord]], dict[int, float]]

STREET_NAMES = ("preflop", "flop", "turn", "river")


def step(state: SimState, kind: int, history: list[ActionRecord]) -> None:
    """The actor's `kind` (a bet or raise to the Limit size), recorded as `apply` does."""
    legal = state.legal_actions()
    assert legal is not None, "nobody is to act"
    i = legal.player
    to = legal.min_to if kind >= BET else (state.bets[i] + legal.call_amount if kind == CALL else 0)
    pot = sum(state.contrib) + sum(state.bets)
    street = state.street
    state.step(kind, to if kind >= BET else 0)
    history.append(ActionRecord(i, street, kind, to, legal.call_amount, pot))


def row_key(state: SimState, history: Sequence[ActionRecord], kind: int) -> str:
    """A decision's row in the breakdown: street, facing a bet or not, bets on the street
    (preflop the big blind counts as one), the action."""
    legal = state.legal_actions()
    assert legal is not None
    street = state.street
    bets = sum(1 for r in history if r.street == street and r.kind >= BET)
    bets += street == PREFLOP
    facing = "facing" if legal.call_amount > 0 else "free"
    return f"{STREET_NAMES[street]}, {facing}, {bets} bets, {KIND_NAMES[kind]}"


@dataclass(slots=True)
class HandProbe:
    """One hand: Q_B by enumeration, for bot `me` (an index of the state) and each baseline."""

    me: int
    baselines: tuple[Policy, ...]
    opponent: Policy
    advantage: list[float]  # per baseline: the sum of A's advantages so far, chips
    root: list[float]  # per baseline: V_B of the hand's start, chips
    rows: dict[str, float] = field(default_factory=dict)  # first baseline's, by row_key
    _memo: list[dict[tuple[int, ...], float]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self._memo:  # one memo of values per baseline, filled as the hand goes
            self._memo = [{} for _ in self.baselines]

    def value(self, j: int, state: SimState, history: list[ActionRecord]) -> float:
        """V_B(state): baseline j in our seat, the opponent policy elsewhere, exactly."""
        if state.over:
            return float(state.payoffs()[self.me])
        memo = self._memo[j]
        key = tuple(r.kind for r in history)
        known = memo.get(key)
        if known is not None:
            return known
        policy = self.baselines[j] if state.actor_index == self.me else self.opponent
        total = 0.0
        for kind, p in policy(state, history).items():
            if p > 0:
                total += p * self.q(j, state, history, kind)
        memo[key] = total
        return total

    def q(self, j: int, state: SimState, history: list[ActionRecord], kind: int) -> float:
        child = state.clone()
        after = list(history)
        step(child, kind, after)
        return self.value(j, child, after)

    def decision(self, state: SimState, history: list[ActionRecord], kind: int) -> None:
        """Bot A chose `kind` at `state` (before it is applied): add its advantage."""
        key = row_key(state, history, kind)
        for j, policy in enumerate(self.baselines):
            probs = policy(state, history)
            v = sum(p * self.q(j, state, history, b) for b, p in probs.items() if p > 0)
            a = self.q(j, state, history, kind) - v
            self.advantage[j] += a
            if j == 0:
                self.rows[key] = self.rows.get(key, 0.0) + a


@dataclass(frozen=True, slots=True)
class ExactProbe:
    """Bot A's seat measured against `baselines` (B policies), the others playing `opponent`.

    Module-level functions as policies keep it picklable (a match split over processes)."""

    baselines: tuple[Policy, ...]
    opponent: Policy

    def hand(self, state: SimState, me: int, history: Sequence[ActionRecord] = ()) -> HandProbe:
        """A probe for bot `me`'s decisions from `state` on (a hand's start, or the point
        `history` led to: the memo's keys are whole action sequences)."""
        if not state.rules.is_limit:
            raise ValueError("the exact decomposition needs Limit betting")
        k = len(self.baselines)
        probe = HandProbe(me, self.baselines, self.opponent, [0.0] * k, [0.0] * k)
        for j in range(k):
            probe.root[j] = probe.value(j, state.clone(), list(history))
        return probe
