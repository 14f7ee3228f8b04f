"""The search loop: deal, select, expand, play out, back up (DOMAIN.md §4).

Anytime: it stops at an iteration budget or a deadline read from an injectable
clock (checked every `check_every` iterations), whichever comes first. For a
seed and an iteration budget it is deterministic. Values are chips relative to
folding now; our fold is valued exactly, never simulated (at the root it is not
even in the tree). An action's value is the best continuation we could play after
it (`kernel.best_values`), never what a rollout rule's later mistakes make of it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from ai.game.observation import Observation
from ai.math.rollout_strength import showdown_equity
from ai.models.ranges import RangeTracker
from ai.search import kernel, rollout_blueprint
from ai.search.deals import RangeTables, deal_from_ranges, range_tables, street_strengths
from ai.search.opponents import OpponentTables
from ai.search.tree import Node, Tree
from ai.sim.arrays import evaluator_tables, rules_array, state_array
from ai.sim.rules import BET, CALL, CHECK, FOLD
from ai.sim.state import SimState

Clock = Callable[[], float]
MODEL, RANDOM = "model", "random"
HALVING, UCT = "halving", "uct"
BEST, FLOOR, RULE = "best", "floor", "rule"

NEVER = 1 << 40  # a visit count no node reaches
# Standard errors on either side of a value: its 95% confidence interval.
Z95 = 1.96
# A No-Limit bet or raise of more than this many pots after calling is an overbet: made
# only when its whole 95% interval is above every smaller action's. Its value rests on
# the model's guess of how often such a bet is called, where the model has the least
# data (the simulated opponents fold K-high's shove of 100 bb into 6 on A-A-Q nearly as
# often as to a pot bet), so a tie is not enough.
OVERBET_POTS = 1.0


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """The search's settings (the bot's are `ai.search.profiles.MctsConfig`)."""

    iterations: int = 2000  # the budget when the caller gives neither iterations nor deadline
    exploration: float = 0.7  # UCT/PUCT c, on values divided by their standard deviation
    puct: bool = False  # PUCT with the model's prediction for our seat as the prior
    # The root's choice: HALVING (sequential halving on common deals, comparing actions
    # on the same cards and opponents' draws), or UCT: the tree's own rule (UCT/PUCT).
    root: str = HALVING
    rollout: str = MODEL  # MODEL, or RANDOM: everyone at random (an ablation)
    # How an action's value counts our later decisions. FLOOR: the iterations' average
    # (our later decisions by the rollout rule), but a free check never below folding
    # now (after it we can still fold to any bet). BEST: the best continuation the tree
    # knows (`kernel.best_values`): at each later decision of ours, the action the search
    # settled on there, never below folding there; heads-up Limit against loki, 1,000
    # duplicate hands, seed 11: FLOOR +25.7 [0.1, 51.3] bb/100, BEST -29.5 [-57.4, -1.6]
    # (the fold floors of noisy later nodes favour lines that meet bets: an ablation to
    # work on). RULE: the plain average (the values before #33): a rule that calls too
    # much made checking look worse than folding.
    continuation: str = FLOOR
    # Visits a node below the root plays our rollout rule (poki's) before UCT/PUCT take
    # over (NEVER: always the rule, then only the fold can beat it there). Searched from
    # the first visit, the later nodes' few visits each mostly explore: heads-up Limit
    # against loki, 1,000 duplicate hands, seed 11: -38.0 [-63.8, -12.2] bb/100.
    warmup: int = NEVER
    # Visits an action below the root needs before its value can be a node's best.
    min_visits: int = 16
    batch: int = 256  # deals per vectorised batch
    strength_samples: int = 16  # random holdings per strength estimate
    check_every: int = 16  # iterations between clock reads
    min_share: float = 0.1  # visits, relative to the most visited, an action needs to be chosen
    # Below our action, the board cards dealt key the children as our strength class on
    # the new street (this many equal classes of the percentile), or, with 0, as the
    # cards themselves (47 turn cards: a turn node is rarely visited twice).
    chance_buckets: int = 5
    # Our later decisions (below the root while the rule plays there, and in the
    # rollouts) by the table's blueprint while the simulated hand stays on its tree
    # (`ai.search.rollout_blueprint`), as far as the opponents' bets follow their cards:
    # an action's value is then what a sound policy makes of the hand after it. On in
    # the advisor; off in play, where it lost on the training set (heads-up Limit
    # against always-raise -78.6 [-115.3, -41.9] bb/100, level against loki, poki and
    # calling-station: docs/experiments/2026-11-27-rollouts-on-the-blueprint.md).
    blueprint_rollouts: bool = False
    # How the deals mix an opponent's range with every live holding by its reliability
    # kappa (`ai.search.deals.range_tables`): as probabilities (kappa of the deals from
    # the range), or the range's peak-1 weights plus 1 - kappa on every holding, which
    # deals mostly card-blind holdings once the range is narrow (a flop shove read as
    # the top twentieth of holdings). On in the advisor, whose values must mean what
    # they say; the default's play keeps the weights until measured in play.
    mixed_ranges: bool = False


@dataclass(frozen=True, slots=True)
class ActionStats:
    label: str
    kind: int
    to: int
    visits: int
    value_bb: float  # chips won relative to folding now, in big blinds (best continuation)
    stderr_bb: float  # its standard error (0 for the exact fold)
    share: float  # of the root's visits
    folds: float = 0.0  # share of its simulated hands every opponent folded
    # The value is a floor, not what the iterations made: a free check at folding's 0.
    floored: bool = False


@dataclass(frozen=True, slots=True)
class SearchResult:
    actions: list[ActionStats]  # fold first when allowed (exact, unvisited), then the tree's
    choice: ActionStats
    iterations: int
    equity: float  # our showdown equity against the ranges (the deals' average)
    root: Node
    # CPU seconds dealing (holdings, boards, strengths) and in the compiled iterations.
    deal_seconds: float = 0.0
    iteration_seconds: float = 0.0
    # The opponents' weight tables the deals (and so the equity) came from: what the
    # advice's reads show (`ai.search.deals.range_tables`).
    ranges: RangeTables | None = None
    # The runner-up when its confidence interval overlaps the choice's (a close call).
    close: ActionStats | None = None

    @property
    def values(self) -> dict[str, float]:
        return {a.label: a.value_bb for a in self.actions}


class Search:
    """One decision's search; `run` may be called once."""

    def __init__(
        self,
        obs: Observation,
        ranges: RangeTracker,
        tables: OpponentTables,
        config: SearchConfig | None = None,
        seed: int = 0,
        blueprint: tuple[rollout_blueprint.Pack, int] | None = None,
    ) -> None:
        """`blueprint`: the packed blueprint and our decision's node on it that play our
        later decisions (default: the table's, `rollout_blueprint.for_observation`)."""
        if obs.sim is None:
            raise ValueError("the search needs the simulator state behind the observation")
        self.obs = obs
        self.ranges = ranges
        self.tables = tables
        self.config = config or SearchConfig()
        self.me = obs.index
        self.root_state = obs.sim.clone()
        # Our chips since the hand began if we fold now (the chips in front of us this
        # street are lost): the tree's values are chips since the hand began
        # (`ai.search.kernel`), reported relative to this.
        self.base = self.root_state.stacks[self.me] - self.root_state.start[self.me]
        # Values are divided by their spread so that one c suits every pot and stack size;
        # until enough have been seen, by the pot after calling.
        self.scale = float(max(obs.pot + obs.legal.call_amount, obs.big_blind))
        self._floor = float(obs.big_blind)
        self._sum = self._sum2 = 0.0
        self._rng = random.Random(seed)
        self._seed_base = seed * 1_000_003
        self._np_rng = np.random.default_rng(seed)
        self._holes = np.zeros((0, obs.n, 2), dtype=np.int64)
        self._runouts = np.zeros((0, 5), dtype=np.int64)
        self._strengths = np.zeros((0, obs.n, 4))
        self._ranges: RangeTables | None = None  # the opponents' weight tables, once
        self.equity = 0.0
        # The compiled iterations' inputs (ai.search.kernel): the spot, the tables, the
        # settings, and the iterations queued until the tree is next read.
        self.tree = Tree(self.root_state.rules.is_limit)
        self._state = state_array(self.root_state)
        self._rules = rules_array(self.root_state.rules)
        self._tab = kernel.table_array(tables)
        self._ev = evaluator_tables()
        self._stream = np.zeros(1, dtype=np.int64)
        kernel.reseed(self._stream, self._seed_base)
        config = self.config
        found = None
        # The blueprint plays our later decisions, or opponents with a blueprint weight
        # (`OpponentTables.blueprint`): its tree is followed for either.
        self._bp_ours = config.blueprint_rollouts
        self._bp_opponents = [i for i, w in enumerate(tables.blueprint) if w > 0.0 and i != self.me]
        if (self._bp_ours or self._bp_opponents) and config.rollout == MODEL:
            found = blueprint or rollout_blueprint.for_observation(obs)
        self._bp = found[0] if found is not None else None
        self._bp_arrays = found[0].arrays if found is not None else rollout_blueprint.empty_arrays()
        self._bp_buckets = np.zeros((0, 4), dtype=np.int64)
        self._opp_buckets = np.zeros((0, obs.n, 4), dtype=np.int64)
        # Our bucket on this street: the same for every deal, computed once.
        self._bp_current = (
            found[0].abstraction.bucket(obs.hole, obs.board) if found is not None else 0
        )
        self._settings = np.array(
            [
                self.me,
                config.puct,
                config.warmup,
                config.rollout == RANDOM,
                config.chance_buckets,
                found[1] if found is not None else -1,
                self._bp_ours,
            ],
            dtype=np.int64,
        )
        self._params = np.array([config.exploration, self.scale])
        self._sums = np.zeros(2)
        self._pending: list[tuple[int, int, int]] = []
        # CPU seconds spent dealing and in the compiled iterations (`showdown bench ai`).
        self.deal_seconds = self.iteration_seconds = 0.0

    # -- the tree ---------------------------------------------------------------

    def new_node(self, state: SimState, root: bool = False) -> Node:
        """A node of `self.tree` for our decision at `state`."""
        tree = self.tree
        tree.reserve(1)
        node = kernel.new_node(tree.nodes, tree.edges, tree.edge_f, tree.counts,
                               state_array(state), self._rules, self._tab, self.me,
                               self.config.puct, root)  # fmt: skip
        return Node(tree, node)

    def _deal(self) -> None:
        started = time.process_time()
        count = self.config.batch
        if self._ranges is None:
            self._ranges = range_tables(
                self.obs, self.ranges, self.tables.kappa, self.config.mixed_ranges
            )
        holes, runouts = deal_from_ranges(
            self.obs, self.ranges, self._np_rng, count, tables=self._ranges
        )
        strengths = street_strengths(
            holes,
            runouts,
            self.obs.street,
            self.config.strength_samples,
            self._rng.getrandbits(31),
            self.obs.n_opponents,
            self.ranges.potential,
        )
        if self._bp is not None and self._bp_ours:
            self._bp_buckets = rollout_blueprint.deal_buckets(
                self._bp.abstraction, self.obs.hole, self.obs.board, runouts,
                self._rng.getrandbits(31), self._bp_current,
            )  # fmt: skip
        else:
            self._bp_buckets = np.zeros((len(runouts), 4), dtype=np.int64)
        self._opp_buckets = np.zeros((len(runouts), self.obs.n, 4), dtype=np.int64)
        if self._bp is not None:
            for i in self._bp_opponents:
                self._opp_buckets[:, i] = rollout_blueprint.holding_buckets(
                    self._bp.abstraction, holes[:, i], self.obs.board, runouts,
                    self._rng.getrandbits(31),
                )  # fmt: skip
        if not len(self._holes):
            self.equity = showdown_equity(holes, runouts, self.me, self.obs.opponents)
        self._holes = holes
        self._runouts = runouts
        self._strengths = strengths
        self.deal_seconds += time.process_time() - started

    def _iterate(self, root: Node, d: int, forced: int = -1, seed: int = -1) -> None:
        """Queue one iteration on deal d; `forced`: the root action to take (else
        selection); `seed`: restart the random numbers there (else continue them).
        The queue runs (compiled) at the next `_flush`, before anything reads the tree."""
        self._pending.append((d, forced, seed))

    def _flush(self, root: Node) -> None:
        if not self._pending:
            return
        started = time.process_time()
        schedule = np.array(self._pending, dtype=np.int64)
        self._pending.clear()
        tree = self.tree
        tree.reserve(len(schedule))
        self._params[kernel.P_SCALE] = self.scale
        self._sums[:] = 0.0
        kernel.run_schedule(
            *tree.arrays, root.id, self._state, self._rules, self._holes, self._runouts,
            self._strengths, self._tab, schedule, self._settings, self._params, self._stream,
            self._ev, self._sums, self._bp_arrays, self._bp_buckets, self._opp_buckets,
        )  # fmt: skip
        self._sum += float(self._sums[0])
        self._sum2 += float(self._sums[1])
        self.iteration_seconds += time.process_time() - started

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
        up_to: int | None = None,
    ) -> SearchResult:
        """Search until `iterations` are done or `clock()` reaches `deadline`.

        With neither, the config's iteration budget. `root` continues an earlier tree
        whose spot is this one (kept between our decisions of a hand). `up_to`: the root's
        bets and raises to more chips are no candidates (`largest_up_to_pot`) and, under
        sequential halving, never played: they would take the budget of the candidates.
        """
        config = self.config
        if iterations is None and deadline is None:
            iterations = config.iterations
        limit = iterations if iterations is not None else math.inf
        if root is not None:
            self.tree = root.tree
        tree = root if root is not None else self.new_node(self.root_state, root=True)
        alive = [
            a
            for a, act in enumerate(tree.actions)
            if up_to is None or act.kind < BET or act.to <= up_to
        ]
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
                self._flush(tree)
                if deadline is not None and clock() >= deadline:
                    break
                next_check = done + config.check_every
                if done:
                    self._rescale(done)
            d = deals % config.batch
            if d == 0 and deals:
                self._flush(tree)
                self._deal()
            if halving:
                for a in alive:
                    if done >= limit:
                        break
                    # Common random numbers: every action meets the same opponents' draws.
                    self._iterate(tree, d, a, self._seed_base + deals)
                    done += 1
                    used += 1
                if len(alive) > 1 and used >= round_budget:
                    self._flush(tree)
                    values = self._values(tree)
                    alive.sort(key=lambda a: -values[a])
                    alive = sorted(alive[: (len(alive) + 1) // 2])
                    used = 0
            else:
                self._iterate(tree, d)
                done += 1
            deals += 1
        self._flush(tree)
        return replace(
            self._result(tree, done),
            deal_seconds=self.deal_seconds,
            iteration_seconds=self.iteration_seconds,
        )

    def _values(self, root: Node) -> list[float]:
        """Per root action, its value in chips since the hand began: the best
        continuation (BEST) or the mean of its iterations (RULE)."""
        if self.config.continuation != BEST:
            means = [root.mean(a) for a in range(len(root.actions))]
            if self.config.continuation == FLOOR:
                # After a free check we can still fold to any bet: never below folding.
                means = [
                    max(m, float(self.base)) if act.kind == CHECK else m
                    for m, act in zip(means, root.actions, strict=True)
                ]
            return means
        tree = self.tree
        count = int(tree.counts[kernel.COUNT_NODES])
        q = np.zeros(tree.edges.shape[0])
        v = np.zeros(max(count, root.id + 1))
        kernel.best_values(tree.nodes, tree.edges, tree.edge_f, tree.children, tree.counts,
                           root.id, self.config.min_visits, q, v)  # fmt: skip
        first = int(tree.nodes[root.id, kernel.NODE_FIRST])
        return [float(q[first + a]) for a in range(len(root.actions))]

    def _result(self, root: Node, iterations: int) -> SearchResult:
        bb = self.obs.big_blind
        total = max(root.total, 1)
        stats: list[ActionStats] = []
        legal = self.obs.legal
        if legal.can_fold:
            stats.append(ActionStats("fold", FOLD, 0, 0, 0.0, 0.0, 0.0))
        values = self._values(root)
        folds = root.folds
        for a, act in enumerate(root.actions):
            n = root.n[a]
            stats.append(
                ActionStats(
                    act.label,
                    act.kind,
                    act.to,
                    n,
                    (values[a] - self.base) / bb if n else 0.0,
                    root.stderr(a) / bb,
                    n / total,
                    folds[a] / n if n else 0.0,
                    floored=bool(n) and act.kind == CHECK and values[a] > root.mean(a),
                )
            )
        config = self.config
        obs = self.obs
        choice = choose(stats, config.min_share, self.equity, obs)
        return SearchResult(
            stats,
            choice,
            iterations,
            self.equity,
            root,
            ranges=self._ranges,
            close=close_call(stats, choice, config.min_share),
        )


def choose(
    stats: list[ActionStats], min_share: float, equity: float, obs: Observation
) -> ActionStats:
    """The best value among the actions searched enough (the fold exact); ties go to the
    more aggressive. A No-Limit bet or raise of more than OVERBET_POTS pots must be
    clearly best (`clearly_best`). Without any search: check if free, else call on
    equity vs pot odds."""
    most = max((s.visits for s in stats), default=0)
    if most == 0:
        passive = next(s for s in stats if s.kind in (CHECK, CALL))
        fold = next((s for s in stats if s.kind == FOLD), None)
        return fold if fold is not None and equity < obs.pot_odds else passive
    eligible = [s for s in stats if s.kind == FOLD or s.visits >= max(1.0, min_share * most)]
    return clearly_best(eligible, obs)


def clearly_best(actions: list[ActionStats], obs: Observation) -> ActionStats:
    """The best-valued action, but an overbet (`is_overbet`) only when the bottom of its
    95% interval is above the top of every smaller action's; otherwise the best of the
    smaller ones, held to the same test."""
    while True:
        best = _best(actions)
        if not is_overbet(best, obs):
            return best
        smaller = [s for s in actions if s.kind < BET or s.to < best.to]
        if not smaller:
            return best
        top = max(s.value_bb + Z95 * s.stderr_bb for s in smaller)
        if best.value_bb - Z95 * best.stderr_bb > top:
            return best
        actions = smaller


def _best(stats: list[ActionStats]) -> ActionStats:
    best = stats[0]
    for s in stats[1:]:
        if s.value_bb >= best.value_bb:
            best = s
    return best


def largest_up_to_pot(obs: Observation) -> int:
    """The largest total a bet or raise can go to without being an overbet (`is_overbet`)."""
    legal = obs.legal
    call = legal.call_amount
    return legal.committed + call + int(OVERBET_POTS * (obs.pot + call))


def is_overbet(action: ActionStats, obs: Observation) -> bool:
    """Whether `action` is a No-Limit bet or raise of more than OVERBET_POTS pots after
    calling (an all-in of 100 big blinds into 6 is one)."""
    legal = obs.legal
    if action.kind < BET or obs.limit:
        return False
    call = legal.call_amount
    raised = action.to - legal.committed - call
    return raised > OVERBET_POTS * (obs.pot + call)


def close_call(
    stats: list[ActionStats], choice: ActionStats, min_share: float
) -> ActionStats | None:
    """The best other action searched enough whose 95% interval overlaps the choice's:
    the two are a close call, which the advice shows (None: the choice is clear)."""
    most = max((s.visits for s in stats), default=0)
    if most == 0:
        return None
    others = [
        s
        for s in stats
        if s is not choice and (s.kind == FOLD or s.visits >= max(1.0, min_share * most))
    ]
    if not others:
        return None
    runner = max(others, key=lambda s: s.value_bb)
    gap = Z95 * (choice.stderr_bb + runner.stderr_bb)
    return runner if abs(choice.value_bb - runner.value_bb) <= gap else None
