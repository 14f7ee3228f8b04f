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
from dataclasses import dataclass, replace

import numpy as np

from ai.game.observation import Observation
from ai.math.rollout_strength import showdown_equity
from ai.models.ranges import RangeTracker
from ai.search import kernel
from ai.search.correction import Offsets, corrected
from ai.search.deals import RangeTables, deal_from_ranges, range_tables, street_strengths
from ai.search.opponents import OpponentTables
from ai.search.tree import Node, Tree
from ai.sim.arrays import evaluator_tables, rules_array, state_array
from ai.sim.rules import CALL, CHECK, FOLD
from ai.sim.state import SimState

Clock = Callable[[], float]
MODEL, RANDOM = "model", "random"
HALVING, UCT = "halving", "uct"


NEVER = 1 << 40  # a visit count no node reaches


@dataclass(frozen=True, slots=True)
class SearchConfig:
    iterations: int = 2000  # the budget when the caller gives neither iterations nor deadline
    exploration: float = 0.7  # UCT/PUCT c, on values divided by their standard deviation
    puct: bool = False  # PUCT with the model's prediction for our seat as the prior
    # The root's choice: HALVING (sequential halving on common deals, comparing actions
    # on the same cards and opponents' draws), or UCT: the tree's own rule (UCT/PUCT).
    root: str = HALVING
    # Extra loss counted for our folds below the root (the thesis' fold penalty). From 0
    # to 1 bb no trend showed, in Limit or No-Limit (docs/search.md, 2026-11-24): our
    # folds there are our rollout rule's.
    fold_penalty_bb: float = 0.1
    rollout: str = MODEL  # MODEL, or RANDOM: everyone at random (an ablation)
    batch: int = 256  # deals per vectorised batch
    strength_samples: int = 16  # random holdings per strength estimate
    check_every: int = 16  # iterations between clock reads
    min_share: float = 0.1  # visits, relative to the most visited, an action needs to be chosen
    # Standard errors by which a bet or raise must beat the best of folding, checking and
    # calling to be chosen.
    # The simulated opponents do not adapt to how often we bet; real ones do (pokis
    # raise and call our flop bets more once they have seen us bet often). Limit 5-max,
    # 10,000 duplicate hands, seed 5: against four pokis 0 -18.3 bb/100, 1 +23.8,
    # 2 +27.1; against four lokis 1 +28.9, 2 +27.9, and +16.0 before this margin and
    # the answers to our bets (`ai.search.versus`) came (CIs about +-5.5).
    aggression_margin: float = 1.0
    # Standard errors by which a call must beat the exact fold to be made (0: whenever
    # it is valued higher). Close flop calls realised less than searched where a loki
    # folded, but a margin of 2 did worse: 6-max No-Limit -2.8 bb/100 over four seeds,
    # Limit against four lokis -5.8 (docs/search.md, 2026-11-24 afternoon).
    call_margin: float = 0.0
    # Visits a node below the root plays our rollout rule (poki's) before UCT/PUCT take
    # over; by default never: exploring our later actions fills the values above with
    # exploration's blunders. Against four lokis (Limit, 10,000 duplicate hands, seeds 5
    # and 6): never +16.0 and +12.2 bb/100, after 256 visits +6.2 and +2.6.
    warmup: int = NEVER
    # Below our action, the board cards dealt key the children as our strength class on
    # the new street (this many equal classes of the percentile), or, with 0, as the
    # cards themselves (47 turn cards: a turn node is rarely visited twice).
    chance_buckets: int = 5
    # With ranges that count draws (`RangeTracker.potential`), the simulated opponents
    # act by that strength too (their river strength averaged over random runouts), not
    # by their strength on the board now.
    potential_play: bool = True
    # No-Limit: our bets and raises above a pot-sized raise (two pots, all-in) are
    # searched only while at most this many players are in the hand. Against a loki in
    # our seat (6-max, seed 9) the flop and turn overbets made with three or more in
    # the hand cost -1,726 bb over about 100 hands, but leaving them out there (2, the
    # arena style `mcts-potcap`) made only +7.0 [-9.2, 23.3] bb/100 over the eight
    # seeds, paired (docs/search.md, "Arena (2026-11-25, later …)"): kept everywhere.
    overbet_players: int = 10
    # Added to the searched values before the choice, per street, action and crowd: what
    # each kind of action made in play beyond its searched value (`ai.search.correction`).
    # None: the searched values as they are.
    offsets: Offsets | None = None


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
    # CPU seconds dealing (holdings, boards, strengths) and in the compiled iterations.
    deal_seconds: float = 0.0
    iteration_seconds: float = 0.0
    corrected: bool = False  # the values include `SearchConfig.offsets`

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
        self._settings = np.array(
            [
                self.me,
                config.puct,
                config.warmup,
                config.rollout == RANDOM,
                config.chance_buckets,
                config.overbet_players,
            ],
            dtype=np.int64,
        )
        self._params = np.array([config.exploration, self.scale, self.fold_penalty, self.base])
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
                               self.config.puct, root, self.config.overbet_players)  # fmt: skip
        return Node(tree, node)

    def _deal(self) -> None:
        started = time.process_time()
        count = self.config.batch
        if self._ranges is None:
            self._ranges = range_tables(self.obs, self.ranges, self.tables.kappa)
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
            self.ranges.potential and self.config.potential_play,
        )
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
            self._ev, self._sums,
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
    ) -> SearchResult:
        """Search until `iterations` are done or `clock()` reaches `deadline`.

        With neither, the config's iteration budget. `root` continues an earlier tree
        whose spot is this one (kept between our decisions of a hand).
        """
        config = self.config
        if iterations is None and deadline is None:
            iterations = config.iterations
        limit = iterations if iterations is not None else math.inf
        if root is not None:
            self.tree = root.tree
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
                    alive.sort(key=lambda a: -tree.mean(a))
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
        config = self.config
        obs = self.obs
        if config.offsets is not None:
            stats = corrected(stats, obs.street, obs.n_in_hand, config.offsets)
        choice = choose(
            stats, config.min_share, self.equity, obs, config.aggression_margin, config.call_margin
        )
        return SearchResult(
            stats, choice, iterations, self.equity, root, corrected=config.offsets is not None
        )


def choose(
    stats: list[ActionStats],
    min_share: float,
    equity: float,
    obs: Observation,
    aggression_margin: float = 0.0,
    call_margin: float = 0.0,
) -> ActionStats:
    """The best value among the actions searched enough (the fold exact); ties go to the
    more aggressive, unless `aggression_margin` > 0: then a bet or raise must beat the
    best of folding, checking and calling by that many standard errors of the
    difference (a bluff raise that calling loses to must beat the fold, not the call).
    With `call_margin` > 0, a call so chosen must beat the fold by that many standard
    errors, or we fold. Without any search: check if free, else call on equity vs pot
    odds."""
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
    if aggression_margin > 0 and best.kind not in (FOLD, CHECK, CALL):
        calm_options = [s for s in eligible if s.kind in (FOLD, CHECK, CALL)]
        calm = max(calm_options, key=lambda s: s.value_bb, default=None)
        if calm is not None:
            spread = math.hypot(best.stderr_bb, calm.stderr_bb)
            if best.value_bb - calm.value_bb < aggression_margin * spread:
                best = calm
    fold = next((s for s in eligible if s.kind == FOLD), None)
    if call_margin > 0 and best.kind == CALL and fold is not None:
        spread = math.hypot(best.stderr_bb, fold.stderr_bb)
        if best.value_bb - fold.value_bb < call_margin * spread:
            return fold
    return best
