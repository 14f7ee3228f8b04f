"""Local Best Response (Lisý and Bowling, 2017): a lower bound on a heads-up bot's
exploitability, in milli-big-blinds per hand (mbb/g).

LBR plays the target on our rules core (the arena's `Match`, duplicate: each deal
twice, LBR holding each seat's cards once). At each of its decisions it keeps the
target's range by Bayes' rule from the target's own action probabilities
(`ai.gauntlet.lbr_range`, asked through `ai.gauntlet.lbr_probe`), values each of
its actions as if both players then checked or called to the end
(`ai.gauntlet.lbr_value`), and takes the best:

- Limit: fold, check/call, bet/raise;
- No-Limit: fold, check/call, a pot-sized bet/raise, all-in (half-pot optional);
- preflop, as in the paper's main setting, LBR only checks or calls
  (`preflop="call"`); `preflop="lbr"` applies the same rule preflop (a variant).

Whatever LBR wins on average is at most what a best response wins: LBR is one
strategy among those a best response maximises over, so the mean is a lower bound
on exploitability in expectation, and the 95% CI says how far the sample may be
from that mean. LBR sees what a player in its seat sees (`LbrView`: its own cards,
the board, the public actions) and the target's policy, never the target's cards.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from ai.arena.match import MatchConfig, Progress
from ai.arena.play import play_match
from ai.bots.base import Bot
from ai.game.observation import ActionRecord, Decision, Observation
from ai.game.observe import observe
from ai.game.summary import HandSummary
from ai.gauntlet.lbr_probe import STATELESS, ProbeMaker, probe_maker
from ai.gauntlet.lbr_range import Range, Table
from ai.gauntlet.lbr_value import (
    DEFAULT_RUNOUTS,
    call_value,
    equities,
    raise_value,
    weighted_mean,
)
from ai.gauntlet.opponents import make_player
from ai.gauntlet.run import cell_of
from ai.sim.rules import CALL, CHECK, FOLD, PREFLOP, Rules, SimLegal
from holdem.config import Variant

LBR_NAME = "lbr"
DEFAULT_PARTICLES = 24  # holdings kept for targets whose probabilities are estimated
# Folding every hand heads-up loses the blinds: (0.5 + 1) / 2 big blinds a hand.
ALWAYS_FOLD_MBB = 750.0
Preflop = Literal["call", "lbr"]


@dataclass(frozen=True, slots=True)
class LbrConfig:
    game: Variant
    target: str  # any name `make_player` knows: our styles, the gauntlet's agents
    hands: int
    seed: int = 0
    stack_bb: int = 100
    # Holdings in the range: None = all for exact probes, DEFAULT_PARTICLES otherwise;
    # 0 = all holdings whatever the probe.
    particles: int | None = None
    samples: int = 1  # probe answers per spot for estimated probabilities
    runouts: int = DEFAULT_RUNOUTS
    preflop: Preflop = "call"
    half_pot: bool = False  # No-Limit: also a half-pot bet/raise
    iterations: int | None = None  # the target's search budget, if it has one

    def match(self) -> MatchConfig:
        return MatchConfig(
            game=self.game,
            bots=(LBR_NAME, self.target),
            hands=self.hands,
            seed=self.seed,
            duplicate=True,
            stack_bb=self.stack_bb,
        )


@dataclass(frozen=True, slots=True)
class LbrView:
    """What LBR decides from: its seat's view, without the simulator state (which holds
    the target's cards). Sequences are copied: LBR keeps nothing that aliases the hand."""

    limit: bool
    index: int
    seats: tuple[int, ...]
    hole: tuple[int, int]
    board: tuple[int, ...]
    street: int
    pot: int
    legal: SimLegal
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    collected: tuple[int, ...]
    history: tuple[ActionRecord, ...]
    hand_key: object
    players: tuple[str, ...]

    @classmethod
    def of(cls, obs: Observation) -> LbrView:
        return cls(
            obs.limit, obs.index, tuple(obs.seats), obs.hole, tuple(obs.board), obs.street,
            obs.pot, obs.legal, tuple(obs.stacks), tuple(obs.bets), tuple(obs.collected),
            tuple(obs.history), obs.hand_key, tuple(obs.players),
        )  # fmt: skip

    @property
    def start(self) -> tuple[int, ...]:
        """Each stack at the start of the hand (public: what is behind plus what is in)."""
        return tuple(
            s + b + c for s, b, c in zip(self.stacks, self.bets, self.collected, strict=True)
        )


class Watched(Bot):
    """The target as it plays, plus a snapshot of it taken between hands: the state from
    which LBR's probes start each hand (never one that has seen this hand's cards)."""

    def __init__(self, bot: Bot) -> None:
        super().__init__(bot.seed)
        self.bot = bot
        self.style = bot.style
        self._stateless = type(bot) in STATELESS
        self._summaries = type(bot).hand_over is not Bot.hand_over
        self.snapshot = bot if self._stateless else copy.deepcopy(bot)

    def decide(self, obs: Observation) -> Decision:
        return self.bot.decide(obs)

    def hand_over(self, summary: HandSummary, me: int) -> None:
        if self._summaries:
            self.bot.hand_over(summary, me)
        if not self._stateless:
            self.snapshot = copy.deepcopy(self.bot)


@dataclass(slots=True)
class LbrStats:
    """What LBR did, for the report: its choices and how well its ranges held."""

    decisions: int = 0
    actions: dict[str, int] = field(default_factory=dict)
    particles: int = 0  # summed over the decisions that read a range
    ranged: int = 0  # decisions that read a range
    collapses: int = 0
    draws: int = 0
    ranges: int = 0  # hands in which LBR read a range (it acted after the flop)


class LbrBot(Bot):
    style = LBR_NAME

    def __init__(self, rules: Rules, config: LbrConfig, seed: int = 0) -> None:
        super().__init__(seed)
        self.rules = rules
        self.config = config
        self.rng = random.Random(seed)
        self.watch: Watched | None = None  # set once the target is made
        self.stats = LbrStats()
        self._hand: object = None
        self._range: Range | None = None
        self._maker: tuple[Bot, ProbeMaker] | None = None

    def decide(self, obs: Observation) -> Decision:
        return self.choose(LbrView.of(obs))

    # -- the range ------------------------------------------------------------

    def probes(self) -> ProbeMaker:
        if self.watch is None:
            raise RuntimeError("LBR has no target to probe")
        snapshot = self.watch.snapshot
        if self._maker is None or self._maker[0] is not snapshot:
            self._maker = (snapshot, probe_maker(snapshot, self.config.samples))
        return self._maker[1]

    def range_for(self, view: LbrView) -> Range:
        if self._range is None or self._hand != view.hand_key:
            if self._range is not None:
                self._close_range(self._range)
            maker = self.probes()
            wanted = self.config.particles
            size = None if wanted == 0 or (wanted is None and maker.exact) else (
                wanted or DEFAULT_PARTICLES
            )  # fmt: skip
            target = 1 - view.index
            table = Table(
                self.rules, view.seats, view.start, view.index, target, view.hand_key,
                view.players,
            )  # fmt: skip
            self._range = Range(table, view.hole, maker, self.rng, size)
            self._hand = view.hand_key
            self.stats.ranges += 1
        self._range.sync(view.history, view.board)
        return self._range

    def _close_range(self, old: Range) -> None:
        self.stats.collapses += old.collapses
        self.stats.draws += old.draws

    def finish(self) -> LbrStats:
        if self._range is not None:
            self._close_range(self._range)
            self._range = None
            self._hand = None
        return self.stats

    # -- deciding -------------------------------------------------------------

    def choose(self, view: LbrView) -> Decision:
        self.stats.decisions += 1
        legal = view.legal
        passive = Decision(CHECK if legal.can_check else CALL)
        if view.street == PREFLOP and self.config.preflop == "call":
            return self._count(passive, "check" if legal.can_check else "call")
        rng = self.range_for(view)
        particles = rng.particles
        self.stats.particles += len(particles)
        self.stats.ranged += 1
        weights = np.array([p.weight for p in particles])
        equity = equities(
            view.hole, view.board, [p.hole for p in particles], self.rng, self.config.runouts
        )
        options: list[tuple[float, Decision, str]] = []
        if legal.can_fold:
            options.append((0.0, Decision(FOLD), "fold"))
        to_call = legal.call_amount
        options.append(
            (
                call_value(weighted_mean(equity, weights), view.pot, to_call),
                passive,
                "check" if legal.can_check else "call",
            )
        )
        for to, label in self._raises(view):
            fold_p = self._fold_probabilities(view, rng, to)
            folds = weighted_mean(fold_p, weights) if weights.sum() > 0 else 0.0
            call_equity = weighted_mean(equity, weights * (1.0 - fold_p))
            me, target = view.index, 1 - view.index
            matched = min(to, view.bets[target] + view.stacks[target])
            cost = matched - view.bets[me]
            their_call = matched - view.bets[target]
            value = raise_value(folds, call_equity, view.pot, cost, their_call)
            assert legal.raise_kind is not None
            options.append((value, Decision(legal.raise_kind, to), label))
        # The best value; ties go to the later (more aggressive) option.
        best = max(range(len(options)), key=lambda k: (options[k][0], k))
        _, decision, label = options[best]
        return self._count(decision, label)

    def _count(self, decision: Decision, label: str) -> Decision:
        self.stats.actions[label] = self.stats.actions.get(label, 0) + 1
        return decision

    def _raises(self, view: LbrView) -> list[tuple[int, str]]:
        legal = view.legal
        if legal.raise_kind is None:
            return []
        if view.limit:
            return [(legal.min_to, "raise")]
        after_call = view.pot + legal.call_amount
        top = legal.committed + legal.call_amount
        fractions = [(1.0, "pot")]
        if self.config.half_pot:
            fractions.insert(0, (0.5, "half-pot"))
        sizes: dict[int, str] = {}
        for fraction, label in fractions:
            to = min(max(top + round(fraction * after_call), legal.min_to), legal.max_to)
            sizes.setdefault(to, label)
        sizes[legal.max_to] = "all-in"
        return sorted(sizes.items())

    def _fold_probabilities(self, view: LbrView, rng: Range, to: int) -> np.ndarray:
        """Each holding's probability of folding to LBR's bet or raise to `to`."""
        legal = view.legal
        assert legal.raise_kind is not None
        record = ActionRecord(
            view.index, view.street, legal.raise_kind, to, legal.call_amount, view.pot
        )
        history = [*view.history, record]
        table = rng.table
        out = np.zeros(len(rng.particles))
        for k, p in enumerate(rng.particles):
            state = p.state.clone()
            state.step(legal.raise_kind, to)
            if state.over or state.actor_index != table.target:
                continue
            obs = observe(state, history, table.hand_key, table.players)
            out[k] = p.probe.probabilities(obs).get((FOLD, 0), 0.0)
        return out


class LbrPair:
    """The arena's player factory for one LBR match: LBR first, then its watched target."""

    def __init__(self, config: LbrConfig) -> None:
        self.config = config
        self.lbr: LbrBot | None = None
        self.target: Watched | None = None

    def __call__(self, name: str, seed: int) -> Bot:
        config = self.config
        if name == LBR_NAME and self.lbr is None:
            self.lbr = LbrBot(Rules.of(config.match().table()), config, seed)
            return self.lbr
        bot = make_player(name, seed)
        if config.iterations is not None and hasattr(bot, "iterations"):
            bot.iterations = config.iterations
        self.target = Watched(bot)
        if self.lbr is None:
            raise RuntimeError("LBR must be made before its target")
        self.lbr.watch = self.target
        return self.target


@dataclass(frozen=True, slots=True)
class LbrResult:
    config: LbrConfig
    hands: int
    mbb_per_hand: float  # LBR's winnings: the lower bound on the target's exploitability
    ci95: tuple[float, float]
    per_deal: np.ndarray  # LBR's big blinds per hand, one sample per deal (both seats)
    total_bb: float
    target_total_bb: float
    exact: bool  # the target's probabilities were exact (else estimated by its copies)
    stats: LbrStats


def play_lbr(config: LbrConfig, progress: Progress | None = None) -> LbrResult:
    if config.hands < 2:
        raise ValueError("LBR needs at least one deal: two hands")
    if config.samples < 1 or config.runouts < 1 or (config.particles or 0) < 0:
        raise ValueError("samples and runouts must be at least 1, particles at least 0")
    pair = LbrPair(config)
    result = play_match(config.match(), progress, make=pair)
    assert pair.lbr is not None
    cell = cell_of(LBR_NAME, config.target, result)
    stats = pair.lbr.finish()
    return LbrResult(
        config=config,
        hands=cell.hands,
        mbb_per_hand=10.0 * cell.bb_per_100,
        ci95=(10.0 * cell.ci95[0], 10.0 * cell.ci95[1]),
        per_deal=cell.per_deal,
        total_bb=cell.total_bb,
        target_total_bb=cell.opponents_total_bb,
        exact=pair.lbr.probes().exact,
        stats=stats,
    )


def play_lbrs(
    configs: list[LbrConfig],
    progress: Progress | None = None,
    done: Callable[[LbrResult], None] | None = None,
) -> list[LbrResult]:
    """One LBR match per config, one after the other."""
    results = []
    for config in configs:
        result = play_lbr(config, progress)
        results.append(result)
        if done is not None:
            done(result)
    return results
