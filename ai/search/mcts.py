"""The search loop: deal, select, expand, play out, back up (DOMAIN.md §4).

Anytime: it stops at an iteration budget or a deadline read from an injectable
clock (checked every `check_every` iterations), whichever comes first. For a
seed and an iteration budget it is deterministic. Values are chips relative to
folding now; our fold is valued exactly, never simulated (at the root it is not
even in the tree). Below the root a fold costs `fold_penalty_bb` more, the
thesis' cure for a search that folds too much, tuned rather than fixed.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ai.bots.observation import Observation
from ai.math.rollout_strength import showdown_equity
from ai.models.ranges import RangeTracker
from ai.search.abstraction import TreeAction, bucket_amount, our_actions, raise_to
from ai.search.deals import deal_from_ranges, street_strengths
from ai.search.opponents import OpponentTables
from ai.search.policy import (
    cost_of,
    opponent_bucket,
    opponent_choice,
    our_choice,
    play_out,
    random_play_out,
)
from ai.search.tree import Node
from ai.sim.rules import BET, CALL, CHECK, FOLD
from ai.sim.state import SimState

Clock = Callable[[], float]
MODEL, RANDOM = "model", "random"
HALVING, UCT = "halving", "uct"


@dataclass(frozen=True, slots=True)
class SearchConfig:
    iterations: int = 2000  # the budget when the caller gives neither iterations nor deadline
    exploration: float = 0.7  # UCT/PUCT c, on values divided by their standard deviation
    puct: bool = False  # PUCT with the model's prediction for our seat as the prior
    # The root's choice: HALVING (sequential halving on common deals, comparing actions
    # on the same cards and opponents' draws), or UCT: the tree's own rule (UCT/PUCT).
    root: str = HALVING
    fold_penalty_bb: float = 0.1  # extra loss counted for our folds below the root
    rollout: str = MODEL  # MODEL, or RANDOM: everyone at random (an ablation)
    batch: int = 256  # deals per vectorised batch
    strength_samples: int = 16  # random holdings per strength estimate
    check_every: int = 16  # iterations between clock reads
    min_share: float = 0.1  # visits, relative to the most visited, an action needs to be chosen
    # Visits a node below the root plays our rollout rule (poki's) before UCT/PUCT take
    # over: with a small budget most deep nodes are barely visited, and trying every
    # action there first fills the values above with exploration's blunders.
    warmup: int = 0


@dataclass(frozen=True, slots=True)
class ActionStats:
    label: str
    kind: int
    to: int
    visits: int
    value_bb: float  # mean chips won relative to folding now, in big blinds
    stderr_bb: float  # its standard error (0 for the exact fold)
    share: float  # of the root's visits


@dataclass(frozen=True, slots=True)
class SearchResult:
    actions: list[ActionStats]  # fold first when allowed (exact, unvisited), then the tree's
    choice: ActionStats
    iterations: int
    equity: float  # our showdown equity against the ranges (the deals' average)
    root: Node

    @property
    def values(self) -> dict[str, float]:
        return {a.label: a.value_bb for a in self.actions}


def _prior(tables: OpponentTables, me: int, street: int, cost: int, acts: list[TreeAction],
           pot: int, state: SimState) -> list[float]:  # fmt: skip
    """PUCT prior over our actions: the model's (fold, call, raise) for our seat, the raise
    share split by its size buckets; floored so that no action is starved."""
    from ai.search.abstraction import size_bucket

    shares = tables.shares[me, street, cost]
    sizes = tables.sizes[me, street, cost]
    legal = state.legal_actions()
    assert legal is not None
    raises = [a for a in acts if a.kind >= BET]
    buckets = [size_bucket(pot, legal, a.to) for a in raises]
    out = []
    for act in acts:
        if act.kind == FOLD:
            p = float(shares[0])
        elif act.kind in (CHECK, CALL):
            p = float(shares[1])
        else:
            b = size_bucket(pot, legal, act.to)
            p = float(shares[2]) * (float(sizes[b]) + 0.05) / max(buckets.count(b), 1)
        out.append(max(p, 0.05))
    total = sum(out)
    return [p / total for p in out]


class Search:
    """One decision's search; `run` may be called once."""

    def __init__(
        self,
        obs: Observation,
        ranges: RangeTracker,
        tables: OpponentTables,
        config: SearchConfig | None = None,
        seed: int = 0,
    ) -> None:
        if obs.sim is None:
            raise ValueError("the search needs the simulator state behind the observation")
        self.obs = obs
        self.ranges = ranges
        self.tables = tables
        self.config = config or SearchConfig()
        self.me = obs.index
        self.root_state = obs.sim.clone()
        self.base = (
            self.root_state.stacks[self.me]
            + self.root_state.bets[self.me]
            - (self.root_state.start[self.me])
        )
        # Values are divided by their spread so that one c suits every pot and stack size;
        # until enough have been seen, by the pot after calling.
        self.scale = float(max(obs.pot + obs.legal.call_amount, obs.big_blind))
        self._floor = float(obs.big_blind)
        self._sum = self._sum2 = 0.0
        self.fold_penalty = self.config.fold_penalty_bb * obs.big_blind
        self._rng = random.Random(seed)
        self._seed_base = seed * 1_000_003
        self._np_rng = np.random.default_rng(seed)
        self._holes: list[tuple[tuple[int, int], ...]] = []
        self._runouts: list[tuple[int, ...]] = []
        self._strengths: list[list[list[float]]] = []
        self.equity = 0.0

    # -- the tree ---------------------------------------------------------------

    def new_node(self, state: SimState, root: bool = False) -> Node:
        legal = state.legal_actions()
        assert legal is not None
        pot = state.pot
        acts = our_actions(pot, legal, state.rules.is_limit)
        if root:
            acts = [a for a in acts if a.kind != FOLD]  # valued exactly: 0
        if self.config.puct:
            units = state.rules.min_increment
            cost = cost_of(legal.call_amount, pot, units[state.street], state.rules.is_limit)
            prior = _prior(self.tables, self.me, state.street, cost, acts, pot, state)
        else:
            prior = [1.0 - 0.01 * k for k in range(len(acts))]  # tie order: as listed
        node = Node(acts, prior)
        passive = next(a for a, act in enumerate(acts) if act.kind in (CHECK, CALL))
        give_up = next((a for a, act in enumerate(acts) if act.kind == FOLD), passive)
        raises = [a for a, act in enumerate(acts) if act.kind >= BET]
        pot_sized = raise_to(pot, legal, 1.0)
        aggressive = min(raises, key=lambda a: abs(acts[a].to - pot_sized), default=passive)
        node.rule = (give_up, passive, aggressive)
        return node

    def _deal(self) -> None:
        count = self.config.batch
        holes, runouts = deal_from_ranges(
            self.obs, self.ranges, self._np_rng, count, self.tables.kappa
        )
        strengths = street_strengths(
            holes,
            runouts,
            self.obs.street,
            self.config.strength_samples,
            self._rng.getrandbits(31),
            self.obs.n_opponents,
        )
        if not self._holes:
            self.equity = showdown_equity(holes, runouts, self.me, self.obs.opponents)
        self._holes = [tuple((h[0], h[1]) for h in deal) for deal in holes.tolist()]
        self._runouts = [tuple(r) for r in runouts.tolist()]
        self._strengths = strengths.tolist()

    def _advance(self, state: SimState, strength: list[list[float]], key: list[int]) -> None:
        """Opponents act (the model's tables) until it is our turn or the hand ends."""
        me = self.me
        tables = self.tables
        rand = self._rng.random
        rules = state.rules
        units = rules.min_increment
        limit = rules.is_limit
        while not state.over and state.queue[0] != me:
            i = state.queue[0]
            street = state.street
            stack = state.stacks[i]
            call = state.max_bet - state.bets[i]
            if stack < call:
                call = stack
            pot = sum(state.contrib) + sum(state.bets)
            cost = cost_of(call, pot, units[street], limit)
            choice = opponent_choice(tables, i, street, cost, strength[i][street], rand())
            if choice == 2:
                legal = state.legal_actions()
                assert legal is not None
                if legal.raise_kind is not None:
                    bucket = 0
                    if limit:
                        to = legal.min_to
                    else:
                        bucket = opponent_bucket(tables, i, street, cost, rand())
                        to = bucket_amount(pot, legal, bucket)
                    state.step(legal.raise_kind, to)
                    key.append(street * 64 + 16 + bucket)
                    continue
                choice = 1
            if choice == 1 or call == 0:
                state.step(CHECK if call == 0 else CALL)
                key.append(street * 64 + 8)
            else:
                state.step(FOLD)
                key.append(street * 64)

    def _iterate(self, root: Node, d: int, forced: int = -1) -> None:
        """One iteration on deal d; `forced`: the root action to take (else selection)."""
        state = self.root_state.clone()
        state.holes = self._holes[d]
        state.runout = self._runouts[d]
        strength = self._strengths[d]
        config = self.config
        me = self.me
        node = root
        path: list[tuple[Node, int]] = []
        a = forced
        warmup = config.warmup
        while True:
            if a < 0:
                if node.total < warmup and node is not root:
                    call = state.max_bet - state.bets[me]
                    if state.stacks[me] < call:
                        call = state.stacks[me]
                    pot = sum(state.contrib) + sum(state.bets)
                    a = node.rule[our_choice(strength[me][state.street], call, pot)]
                else:
                    a = node.select(config.exploration, self.scale, config.puct)
            path.append((node, a))
            act = node.actions[a]
            if act.kind == FOLD:
                value = state.stacks[me] + state.bets[me] - state.start[me] - self.fold_penalty
                break
            seen = state.board_len
            state.step(act.kind, act.to)
            key: list[int] = []
            self._advance(state, strength, key)
            if state.over:
                value = state.stacks[me] + state.bets[me] - state.start[me]
                break
            key.extend(state.runout[seen : state.board_len])
            children = node.children[a]
            child = children.get(tuple(key))
            if child is None:  # expand one node per iteration, then play out
                children[tuple(key)] = self.new_node(state)
                if config.rollout == RANDOM:
                    random_play_out(state, self._rng.random)
                else:
                    play_out(state, strength, self.tables, self._rng.random, me)
                value = state.stacks[me] + state.bets[me] - state.start[me]
                break
            node = child
            a = -1
        value -= self.base
        self._sum += value
        self._sum2 += value * value
        for node, a in path:
            node.update(a, value)

    def _rescale(self, done: int) -> None:
        mean = self._sum / done
        spread = math.sqrt(max(self._sum2 / done - mean * mean, 0.0))
        self.scale = max(spread, self._floor)

    # -- running ------------------------------------------------------------------

    def run(
        self,
        iterations: int | None = None,
        deadline: float | None = None,
        clock: Clock = time.monotonic,
        root: Node | None = None,
    ) -> SearchResult:
        """Search until `iterations` are done or `clock()` reaches `deadline`.

        With neither, the config's iteration budget. `root` continues an earlier tree
        whose spot is this one (kept between our decisions of a hand).
        """
        config = self.config
        if iterations is None and deadline is None:
            iterations = config.iterations
        limit = iterations if iterations is not None else math.inf
        tree = root if root is not None else self.new_node(self.root_state, root=True)
        alive = list(range(len(tree.actions)))
        halving = config.root == HALVING and len(alive) > 1
        # Sequential halving: log2(k) rounds of equal budget, each playing every action
        # still in on the same deals, then dropping the worse half.
        planned = iterations if iterations is not None else config.iterations
        round_budget = planned / max(1, math.ceil(math.log2(len(alive)))) if halving else 0.0
        self._deal()
        done = deals = used = 0
        next_check = 0
        while done < limit:
            if done >= next_check:
                if deadline is not None and clock() >= deadline:
                    break
                next_check = done + config.check_every
                if done:
                    self._rescale(done)
            d = deals % config.batch
            if d == 0 and deals:
                self._deal()
            if halving:
                for a in alive:
                    if done >= limit:
                        break
                    # Common random numbers: every action meets the same opponents' draws.
                    self._rng.seed(self._seed_base + deals)
                    self._iterate(tree, d, a)
                    done += 1
                    used += 1
                if len(alive) > 1 and used >= round_budget:
                    alive.sort(key=lambda a: -tree.mean(a))
                    alive = sorted(alive[: (len(alive) + 1) // 2])
                    used = 0
            else:
                self._iterate(tree, d)
                done += 1
            deals += 1
        return self._result(tree, done)

    def _result(self, root: Node, iterations: int) -> SearchResult:
        bb = self.obs.big_blind
        total = max(root.total, 1)
        stats: list[ActionStats] = []
        legal = self.obs.legal
        if legal.can_fold:
            stats.append(ActionStats("fold", FOLD, 0, 0, 0.0, 0.0, 0.0))
        for a, act in enumerate(root.actions):
            stats.append(
                ActionStats(
                    act.label,
                    act.kind,
                    act.to,
                    root.n[a],
                    root.mean(a) / bb,
                    root.stderr(a) / bb,
                    root.n[a] / total,
                )
            )
        return SearchResult(stats, choose(stats, self.config.min_share, self.equity, self.obs),
                            iterations, self.equity, root)  # fmt: skip


def choose(
    stats: list[ActionStats], min_share: float, equity: float, obs: Observation
) -> ActionStats:
    """The best value among the actions searched enough (the fold exact); ties go to the
    more aggressive. Without any search: check if free, else call on equity vs pot odds."""
    most = max((s.visits for s in stats), default=0)
    if most == 0:
        passive = next(s for s in stats if s.kind in (CHECK, CALL))
        fold = next((s for s in stats if s.kind == FOLD), None)
        return fold if fold is not None and equity < obs.pot_odds else passive
    eligible = [s for s in stats if s.kind == FOLD or s.visits >= max(1.0, min_share * most)]
    best = eligible[0]
    for s in eligible[1:]:
        if s.value_bb >= best.value_bb:
            best = s
    return best
