"""The target's range through one hand, by Bayes' rule from its action probabilities.

The range is a set of weighted hypothetical holdings ("particles"), each with its
own replay of the hand (a SimState with LBR's cards, that holding for the target
and the real board) and its own `PolicyProbe`. At each public action of the
target, every particle's weight is multiplied by the probability its probe gives
that action at that spot: P(h | actions) is proportional to P(h) * prod P(a | h),
the prior being uniform over the holdings that LBR's cards and the board leave.

`size=None` keeps every holding (the exact posterior, for cheap exact probes). A
bounded `size` draws that many holdings uniformly without replacement and tops
the set up with fresh ones (replayed through the hand so far, weighted by their
likelihood) when holdings die, at most `max_draws` a hand. Sums over the
particles are then ratio estimates of sums over the posterior; LBR's decisions
built on them are noisier, never unfair (see docs/lbr.md).

Nothing here sees the target's real cards: the holdings are LBR's hypotheses, the
public history and the board are what both players saw.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from ai.game.observation import ActionRecord
from ai.game.observe import observe
from ai.gauntlet.lbr_probe import Choice, PolicyProbe, ProbeMaker
from ai.sim.rules import BET, Rules
from ai.sim.state import SimState

Holding = tuple[int, int]
ALL_HOLDINGS: tuple[Holding, ...] = tuple((a, b) for a in range(52) for b in range(a + 1, 52))


@dataclass(slots=True)
class Particle:
    hole: Holding
    weight: float
    probe: PolicyProbe
    state: SimState  # the hand replayed up to `Range.synced` actions, with `hole` for the target


@dataclass(frozen=True, slots=True)
class Table:
    """The public facts of a heads-up hand that a replay needs (no hidden card)."""

    rules: Rules
    seats: tuple[int, ...]
    start: tuple[int, ...]  # stacks at the start of the hand, by index
    me: int  # LBR's index
    target: int
    hand_key: Hashable
    players: tuple[str, ...]


class Range:
    def __init__(
        self,
        table: Table,
        my_hole: Holding,
        maker: ProbeMaker,
        rng: random.Random,
        size: int | None = None,
        max_draws: int | None = None,
    ) -> None:
        self.table = table
        self.my_hole = my_hole
        self.maker = maker
        self.rng = rng
        self.size = size
        self.max_draws = max_draws if max_draws is not None else 4 * (size or 0)
        self.draws = 0
        self.synced = 0  # public actions replayed so far
        self.board: tuple[int, ...] = ()
        self.history: list[ActionRecord] = []
        self.collapses = 0  # syncs after which no holding explained the actions
        self.particles: list[Particle] = []
        self._tried: set[Holding] = set()
        candidates = self._fresh_holdings()
        chosen = candidates if size is None else rng.sample(candidates, min(size, len(candidates)))
        for hole in chosen:
            self._tried.add(hole)
            self.particles.append(self._particle(hole))

    # -- building -------------------------------------------------------------

    def _dead(self) -> set[int]:
        return {*self.my_hole, *self.board}

    def _fresh_holdings(self) -> list[Holding]:
        dead = self._dead()
        return [
            h
            for h in ALL_HOLDINGS
            if h[0] not in dead and h[1] not in dead and h not in self._tried
        ]

    def _runout(self, hole: Holding) -> list[int]:
        """The real board so far, then filler cards nobody holds (never looked at: the
        replay only reveals cards once the real board has them)."""
        used = {*self.my_hole, *hole, *self.board}
        filler = [c for c in range(52) if c not in used][: 5 - len(self.board)]
        return [*self.board, *filler]

    def _particle(self, hole: Holding) -> Particle:
        table = self.table
        holes = [hole, hole]
        holes[table.me] = self.my_hole
        state = SimState(table.rules, table.seats, table.start, holes, self._runout(hole))
        probe = self.maker.new(self.rng.getrandbits(31))
        self.draws += 1
        return Particle(hole, 1.0, probe, state)

    # -- following the hand ---------------------------------------------------

    def sync(self, history: Sequence[ActionRecord], board: tuple[int, ...]) -> None:
        """Replay the public actions not seen yet, re-weighting at each of the target's."""
        if len(board) > len(self.board):
            self.board = tuple(board)
            dead = self._dead()
            for p in self.particles:
                if p.hole[0] in dead or p.hole[1] in dead:
                    p.weight = 0.0  # the board holds one of its cards
                else:
                    p.state.set_cards(runout=self._runout(p.hole))
        new = list(history[self.synced :])
        for record in new:
            self._replay(self.particles, record)
            self.history.append(record)
        self.synced = len(history)
        self.particles = [p for p in self.particles if p.weight > 0]
        self._top_up()
        if not self.particles:
            # No holding tried explains what the target did: LBR falls back to the prior
            # over holdings the board allows (still a strategy of LBR's own; counted).
            self.collapses += 1
            self._tried.clear()
            fresh = self._fresh_holdings()
            for hole in self.rng.sample(fresh, min(self.size or len(fresh), len(fresh))):
                p = self._particle(hole)
                self._follow_without_weights(p)
                self.particles.append(p)

    def _replay(self, particles: list[Particle], record: ActionRecord) -> None:
        history = self.history  # the actions before `record`
        for p in particles:
            if p.weight <= 0:
                continue
            if record.player == self.table.target:
                obs = observe(p.state, list(history), self.table.hand_key, self.table.players)
                p.weight *= p.probe.act(obs, _choice(record))
                if p.weight <= 0:
                    continue
            _step(p.state, record)

    def _top_up(self) -> None:
        if self.size is None:
            return
        while len(self.particles) < self.size and self.draws < self.max_draws:
            fresh = self._fresh_holdings()
            if not fresh:
                return
            hole = self.rng.choice(fresh)
            self._tried.add(hole)
            p = self._particle(hole)
            for k, record in enumerate(self.history):
                if p.weight <= 0:
                    break
                if record.player == self.table.target:
                    obs = observe(
                        p.state, self.history[:k], self.table.hand_key, self.table.players
                    )
                    p.weight *= p.probe.act(obs, _choice(record))
                    if p.weight <= 0:
                        break
                _step(p.state, record)
            if p.weight > 0:
                self.particles.append(p)

    def _follow_without_weights(self, p: Particle) -> None:
        for record in self.history:
            _step(p.state, record)

    # -- reading --------------------------------------------------------------

    @property
    def total(self) -> float:
        return sum(p.weight for p in self.particles)

    def weights(self) -> dict[Holding, float]:
        """The normalised range over the holdings kept."""
        total = self.total
        return {p.hole: p.weight / total for p in self.particles} if total > 0 else {}


def _choice(record: ActionRecord) -> Choice:
    return (record.kind, record.to if record.kind >= BET else 0)


def _step(state: SimState, record: ActionRecord) -> None:
    state.step(record.kind, record.to if record.kind >= BET else 0)
