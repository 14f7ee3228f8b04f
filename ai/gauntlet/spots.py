"""What a searching bot's values of its actions miss, per spot, against a known opponent.

`showdown spots` (docs/gauntlet.md): the bot plays a heads-up Fixed-Limit duplicate match
against an opponent whose policy is known exactly (`ai.gauntlet.known`). At each of its
decisions where it exposes searched values of its actions (`bot.last`, a `SearchResult`,
as `MctsBot` keeps it), the referee also values the same actions exactly: with both
holdings and the runout known, the opponent playing its known policy and the
`continuation` policy (default the blueprint) playing our later decisions, enumerated
(`ai.arena.exact.HandProbe.q`, the gauntlet's `--exact` decomposition).

The measure, per decision: the margin of the action taken over the alternative the search
valued highest among the others (the search's runner-up; unvisited actions other than the
exact fold are left out), once by the search's values and once exactly, for the same pair
of actions. Both values of an action count from the same point (the search's are relative
to folding now, the exact ones to the hand's start), so their difference is the same for
both actions and the margin cancels it. search - exact > 0: the search puts the action it
took further above its runner-up than it is worth against this opponent when the
continuation plays on. Decisions are grouped by the gauntlet's exact rows
(`ai.arena.exact.row_key`: street, facing a bet or not, bets on the street, the action).

Fair play: the exact values use both holdings and the runout, but only to measure. They are
computed by the match's probe after the bot has decided (`Match.play_hand` calls the probe
after `decide`), from the referee's state; nothing of them reaches the bot, whose decisions
are the same with the probe as without (tests/ai/test_gauntlet_spots.py checks it).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ai.arena.exact import STREET_NAMES, ExactProbe, HandProbe, Policy, row_key
from ai.arena.match import BIG_BLIND, Match, MatchConfig, MatchResult, Progress
from ai.arena.stats import half_width95, win_rates
from ai.bots import Bot
from ai.game.observation import ActionRecord
from ai.search.mcts import ActionStats, SearchResult
from ai.sim.rules import FOLD
from ai.sim.state import SimState
from holdem.config import Variant

BotMaker = Callable[[str, int], Bot]


@dataclass(frozen=True, slots=True)
class SpotDecision:
    """One searched decision: its row, the action taken, the search's runner-up, and the
    margin of the first over the second, by the search and exactly (big blinds)."""

    key: str
    taken: str
    alternative: str
    search_bb: float
    exact_bb: float


@dataclass(slots=True)
class SpotSink:
    """Where the probe finds the bot (set once the match has built it) and keeps what it
    measured."""

    bot: Bot | None = None
    decisions: list[SpotDecision] = field(default_factory=list)
    unsearched: int = 0  # the bot's decisions without searched values (a rule decided)
    alone: int = 0  # searched, but no other action valued: no margin


def searched(bot: Bot | None) -> SearchResult | None:
    """The search behind the bot's latest decision, if it exposes one (a bot exposing `last`
    resets it at every decision, as `MctsBot.decide` does, or a rule's decision would be
    measured by the previous search)."""
    last = getattr(bot, "last", None)
    return last if isinstance(last, SearchResult) else None


def margin(result: SearchResult, kind: int) -> tuple[ActionStats, ActionStats] | None:
    """(the action of `kind`, the search's best other action), among the actions it valued
    (visited, or the exact fold); None when there is no other."""
    valued = [a for a in result.actions if a.visits > 0 or a.kind == FOLD]
    taken = next((a for a in valued if a.kind == kind), None)
    others = [a for a in valued if a.kind != kind]
    if taken is None or not others:
        return None
    return taken, max(others, key=lambda a: a.value_bb)


@dataclass(slots=True)
class SpotHand(HandProbe):
    """One hand's probe: at each of our bot's decisions, after it has decided, the exact
    values of the taken action and of the search's runner-up."""

    sink: SpotSink = field(default_factory=SpotSink)

    def decision(self, state: SimState, history: list[ActionRecord], kind: int) -> None:
        sink = self.sink
        result = searched(sink.bot)
        if result is None:
            sink.unsearched += 1
            return
        pair = margin(result, kind)
        if pair is None:
            sink.alone += 1
            return
        taken, other = pair
        exact = self.q(0, state, history, taken.kind) - self.q(0, state, history, other.kind)
        sink.decisions.append(
            SpotDecision(
                row_key(state, history, kind),
                taken.label,
                other.label,
                taken.value_bb - other.value_bb,
                exact / BIG_BLIND,
            )
        )


@dataclass(frozen=True, slots=True)
class SpotProbe(ExactProbe):
    """The match's probe: `baselines` holds the one continuation policy of our seat."""

    sink: SpotSink

    def hand(self, state: SimState, me: int, history: Sequence[ActionRecord] = ()) -> HandProbe:
        if not state.rules.is_limit:
            raise ValueError("the exact values need Limit betting")
        # No root value: only the decisions' subtrees are enumerated (memoised per hand).
        return SpotHand(me, self.baselines, self.opponent, [0.0], [0.0], sink=self.sink)


@dataclass(frozen=True, slots=True)
class SpotConfig:
    bot: str
    opponent: str
    hands: int
    seed: int
    continuation: str = "blueprint"
    stack_bb: int = 200


@dataclass(frozen=True, slots=True)
class SpotRun:
    config: SpotConfig
    result: MatchResult
    decisions: list[SpotDecision]
    unsearched: int
    alone: int


def play_spots(
    config: SpotConfig,
    opponent: Policy,
    continuation: Policy,
    make: BotMaker,
    progress: Progress | None = None,
) -> SpotRun:
    """Play the match (duplicate, heads-up Limit) and measure every searched decision of
    `config.bot`; `opponent` and `continuation` are the known policies of the opponent and
    of our seat after a decision."""
    sink = SpotSink()
    probe = SpotProbe((continuation,), opponent, sink)
    match_config = MatchConfig(
        Variant.LIMIT,
        (config.bot, config.opponent),
        config.hands,
        config.seed,
        duplicate=True,
        stack_bb=config.stack_bb,
    )
    match = Match(match_config, make, probe)
    sink.bot = match.bots[0]
    result = match.play(progress)
    return SpotRun(config, result, sink.decisions, sink.unsearched, sink.alone)


@dataclass(frozen=True, slots=True)
class Mean:
    mean: float
    ci95: tuple[float, float]

    @staticmethod
    def of(values: Sequence[float]) -> Mean:
        v = np.array(values, dtype=np.float64)
        mean, half = float(v.mean()), half_width95(v)
        return Mean(mean, (mean - half, mean + half))

    @property
    def clear(self) -> bool:
        """Its 95% CI excludes 0."""
        return self.ci95[0] > 0 or self.ci95[1] < 0


@dataclass(frozen=True, slots=True)
class SpotRow:
    """A row's decisions: the margins' means by the search and exactly, and their
    difference per decision (paired), each with its 95% CI over the decisions."""

    key: str
    decisions: int
    search: Mean
    exact: Mean
    gap: Mean  # search - exact


def _row(key: str, decisions: Sequence[SpotDecision]) -> SpotRow:
    return SpotRow(
        key,
        len(decisions),
        Mean.of([d.search_bb for d in decisions]),
        Mean.of([d.exact_bb for d in decisions]),
        Mean.of([d.search_bb - d.exact_bb for d in decisions]),
    )


def _order(key: str) -> tuple[int, str]:
    return STREET_NAMES.index(key.split(",")[0]), key


def spot_rows(decisions: Sequence[SpotDecision]) -> list[SpotRow]:
    """One row per decision row key, in street order; the last row is every decision."""
    by_key: dict[str, list[SpotDecision]] = {}
    for d in decisions:
        by_key.setdefault(d.key, []).append(d)
    rows = [_row(key, by_key[key]) for key in sorted(by_key, key=_order)]
    if decisions:
        rows.append(_row("all", decisions))
    return rows


def _mean_json(m: Mean) -> dict[str, Any]:
    # One decision has no interval: null rather than JSON's non-standard infinities.
    ci = list(m.ci95) if all(math.isfinite(x) for x in m.ci95) else None
    return {"mean_bb": m.mean, "ci95": ci}


def spots_json(run: SpotRun) -> dict[str, Any]:
    c = run.config
    rate = win_rates(run.result)[0]
    return {
        "bot": c.bot,
        "opponent": c.opponent,
        "continuation": c.continuation,
        "hands": run.result.hands,
        "seed": c.seed,
        "bb_per_100": rate.bb_per_100,
        "bb_per_100_ci95": list(rate.ci95),
        "decisions": len(run.decisions),
        "unsearched": run.unsearched,
        "alone": run.alone,
        "rows": [
            {
                "spot": r.key,
                "decisions": r.decisions,
                "search": _mean_json(r.search),
                "exact": _mean_json(r.exact),
                "search_minus_exact": _mean_json(r.gap),
            }
            for r in spot_rows(run.decisions)
        ],
    }


def _cell(m: Mean, bold: bool = False) -> str:
    lo, hi = m.ci95
    text = f"{m.mean:+.2f} [{lo:+.2f}, {hi:+.2f}]" if math.isfinite(lo) else f"{m.mean:+.2f}"
    return f"{text}{' *' if bold and m.clear else '  '}"


def format_spots(run: SpotRun) -> str:
    c = run.config
    rate = win_rates(run.result)[0]
    lo, hi = rate.ci95
    lines = [
        f"{c.bot} against {c.opponent}, heads-up limit, {run.result.hands} duplicate hands, "
        f"seed {c.seed}: {rate.bb_per_100:+.1f} bb/100 [{lo:.1f}, {hi:.1f}]",
        f"{len(run.decisions)} searched decisions measured ({run.unsearched} not searched, "
        f"{run.alone} with one valued action); the taken action's margin over the search's "
        f"runner-up, bb per decision, by the search and exactly ({c.continuation} playing "
        "our seat after the decision); * : the 95% CI excludes 0",
        f"{'spot (our decision)':<30}{'n':>6}{'search':>26}{'exact':>26}{'search - exact':>28}",
    ]
    for r in spot_rows(run.decisions):
        lines.append(
            f"{r.key:<30}{r.decisions:>6}{_cell(r.search):>26}{_cell(r.exact):>26}"
            f"{_cell(r.gap, bold=True):>28}"
        )
    return "\n".join(lines)
