"""Playing a line-up of our bots against each external opponent, on the same deals.

Every (bot, opponent) pair is one arena match (`ai.arena.match`): our bot in one
seat, copies of the opponent in the others, each deal played once per rotation
of the seats in duplicate format. The deals are a function of the seed only, so
every bot of the line-up meets an opponent on the same cards, and the difference
between two bots is measured per deal (a paired difference): that is what says
whether the first bot wins at least what the others win from the same deals.

Win rates are in big blinds per 100 hands with a 95% CI whose samples are whole
deals, as `ai.arena.stats` computes them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from ai.arena.exact import ExactProbe
from ai.arena.match import DEFAULT_STACK_BB, MatchConfig, MatchResult
from ai.arena.play import play_match
from ai.arena.stats import half_width95
from ai.gauntlet.known import known_policy
from ai.gauntlet.opponents import make_player
from holdem.config import Variant

# (bot, opponent, hands played so far in the whole gauntlet, hands in total)
GauntletProgress = Callable[[int, int], None]
# Told each finished pair, for a line of progress.
CellDone = Callable[["Cell"], None]


@dataclass(frozen=True, slots=True)
class GauntletConfig:
    game: Variant
    bots: tuple[str, ...]  # our styles; the first is the one the differences are about
    opponents: tuple[str, ...]  # external opponents (or any style `make_player` knows)
    hands: int  # per (bot, opponent) pair
    seats: int = 2
    seed: int = 0
    duplicate: bool = True
    stack_bb: int = DEFAULT_STACK_BB
    # Also measure the first bot minus each compared bot exactly per decision, wherever
    # the opponent's and the compared bot's policies are known (Limit; `ai.arena.exact`).
    exact: bool = False

    def match(self, bot: str, opponent: str) -> MatchConfig:
        return MatchConfig(
            game=self.game,
            bots=(bot, *[opponent] * (self.seats - 1)),
            hands=self.hands,
            seed=self.seed,
            duplicate=self.duplicate,
            stack_bb=self.stack_bb,
        )

    @property
    def rotations(self) -> int:
        return self.seats if self.duplicate else 1

    @property
    def hands_per_pair(self) -> int:
        """Hands a pair really plays: whole deals of `rotations` hands (as Match does)."""
        rotations = self.rotations
        return max(1, self.hands // rotations) * rotations


@dataclass(frozen=True, slots=True)
class Cell:
    """One of our bots against one opponent (and its copies)."""

    bot: str
    opponent: str
    hands: int
    bb_per_100: float
    ci95: tuple[float, float]
    total_bb: float  # the bot's net
    opponents_total_bb: float  # the opponent copies' net: -total_bb, chips being conserved
    per_deal: npt.NDArray[np.float64]  # the bot's bb per hand, one sample per deal


@dataclass(frozen=True, slots=True)
class Difference:
    """What `bot` won minus what `other` won from the same opponent on the same deals."""

    opponent: str
    bot: str
    other: str
    bb_per_100: float
    ci95: tuple[float, float]


@dataclass(frozen=True, slots=True)
class ExactRow:
    """The first bot's advantages over `other` in one kind of decision (`row_key`)."""

    key: str
    decisions: int
    bb_per_100: float  # of the whole: the row's sum over the hands played, per 100 hands
    ci95: tuple[float, float]  # clustered by deal
    per_deal: npt.NDArray[np.float64]  # the row's bb per hand, one sample per deal


@dataclass(frozen=True, slots=True)
class ExactDifference:
    """`bot` minus `other` against `opponent`, exactly per decision: the sum of the first
    bot's advantages over `other` (`ai.arena.exact`), one sample per deal; and `other`'s own
    exact value of the same deals. `rows`: the breakdown, for the first compared bot only."""

    opponent: str
    bot: str
    other: str
    bb_per_100: float
    ci95: tuple[float, float]
    other_bb_per_100: float
    other_ci95: tuple[float, float]
    per_deal: npt.NDArray[np.float64]  # bot minus other, bb per hand, one sample per deal
    rows: tuple[ExactRow, ...] = ()


@dataclass(frozen=True, slots=True)
class GauntletResult:
    config: GauntletConfig
    cells: list[Cell]
    exact: list[ExactDifference] = field(default_factory=list)

    def cell(self, bot: str, opponent: str) -> Cell:
        return next(c for c in self.cells if c.bot == bot and c.opponent == opponent)

    def differences(self) -> list[Difference]:
        """The first bot against each other bot of the line-up, per opponent."""
        first, *others = self.config.bots
        return [
            paired(self.cell(first, o), self.cell(other, o))
            for o in self.config.opponents
            for other in others
        ]

    def best_other(self, opponent: str) -> Difference | None:
        """The first bot against the other bot that won most from `opponent`."""
        first, *others = self.config.bots
        if not others:
            return None
        best = max(others, key=lambda b: self.cell(b, opponent).bb_per_100)
        return paired(self.cell(first, opponent), self.cell(best, opponent))


def rate_ci(samples: npt.NDArray[np.float64]) -> tuple[float, tuple[float, float]]:
    """bb per hand samples as bb/100 and its 95% CI."""
    mean = float(samples.mean())
    half = half_width95(samples)
    return 100 * mean, (100 * (mean - half), 100 * (mean + half))


def cell_of(bot: str, opponent: str, result: MatchResult) -> Cell:
    rotations = result.rotations
    net = result.net_bb
    per_deal = net[:, 0].reshape(-1, rotations).sum(axis=1) / rotations
    rate, ci = rate_ci(per_deal)
    return Cell(
        bot=bot,
        opponent=opponent,
        hands=result.hands,
        bb_per_100=rate,
        ci95=ci,
        total_bb=float(net[:, 0].sum()),
        opponents_total_bb=float(net[:, 1:].sum()),
        per_deal=per_deal,
    )


def _per_deal(samples: npt.NDArray[np.float64], rotations: int) -> npt.NDArray[np.float64]:
    per_deal: npt.NDArray[np.float64] = samples.reshape(-1, rotations).sum(axis=1) / rotations
    return per_deal


def exact_differences(
    bot: str, opponent: str, others: Sequence[str], result: MatchResult
) -> list[ExactDifference]:
    """The probe's figures of a match of `bot` (its baselines: `others`, in order)."""
    exact = result.exact
    assert exact is not None
    k = len(others)
    rotations = result.rotations
    out = []
    for j, other in enumerate(others):
        per_deal = _per_deal(exact[:, j], rotations)
        rate, ci = rate_ci(per_deal)
        own, own_ci = rate_ci(_per_deal(exact[:, k + j], rotations))
        rows: tuple[ExactRow, ...] = ()
        if j == 0:
            rows = _rows(result.exact_rows, rotations)
        out.append(ExactDifference(opponent, bot, other, rate, ci, own, own_ci, per_deal, rows))
    return out


def _rows(per_hand: list[dict[str, float]], rotations: int) -> tuple[ExactRow, ...]:
    keys = sorted({key for hand in per_hand for key in hand})
    counts = {key: sum(key in hand for hand in per_hand) for key in keys}
    rows = []
    for key in keys:
        samples = np.array([hand.get(key, 0.0) for hand in per_hand], dtype=np.float64)
        per_deal = _per_deal(samples, rotations)
        rate, ci = rate_ci(per_deal)
        rows.append(ExactRow(key, counts[key], rate, ci, per_deal))
    return tuple(sorted(rows, key=lambda r: r.bb_per_100))


def paired(a: Cell, b: Cell) -> Difference:
    """a minus b, deal by deal (the same deals: the same seed, seats and hands)."""
    if a.per_deal.shape != b.per_deal.shape:
        raise ValueError(f"{a.bot} and {b.bot} did not play the same deals")
    rate, ci = rate_ci(a.per_deal - b.per_deal)
    return Difference(a.opponent, a.bot, b.bot, rate, ci)


def play_gauntlet(
    config: GauntletConfig,
    progress: GauntletProgress | None = None,
    done: CellDone | None = None,
    jobs: int = 1,
) -> GauntletResult:
    """Every bot of the line-up against every opponent, opponent by opponent."""
    if not 2 <= config.seats <= 10:
        raise ValueError("a gauntlet table has 2 to 10 seats")
    if not config.bots or not config.opponents:
        raise ValueError("a gauntlet needs at least one bot and one opponent")
    pairs = [(b, o) for o in config.opponents for b in config.bots]
    per_pair = config.hands_per_pair
    total = per_pair * len(pairs)
    cells = []
    exact: list[ExactDifference] = []
    for k, (bot, opponent) in enumerate(pairs):
        offset = k * per_pair

        def tick(played: int, _: int, offset: int = offset) -> None:
            if progress is not None:
                progress(offset + played, total)

        probe, baselines = _probe(config, bot, opponent)
        match = config.match(bot, opponent)
        result = play_match(match, tick, jobs=jobs, make=make_player, probe=probe)
        cell = cell_of(bot, opponent, result)
        cells.append(cell)
        if probe is not None:
            exact += exact_differences(bot, opponent, baselines, result)
        if done is not None:
            done(cell)
    return GauntletResult(config, cells, exact)


def _probe(
    config: GauntletConfig, bot: str, opponent: str
) -> tuple[ExactProbe | None, tuple[str, ...]]:
    """The exact probe for the first bot's match, when its baselines can be had."""
    first, *others = config.bots
    if not config.exact or bot != first or config.game is not Variant.LIMIT:
        return None, ()
    against = known_policy(opponent, config.seats)
    known = [(b, known_policy(b, config.seats)) for b in others]
    baselines = tuple((b, p) for b, p in known if p is not None)
    if against is None or not baselines:
        return None, ()
    return ExactProbe(tuple(p for _, p in baselines), against), tuple(b for b, _ in baselines)


def lineup(bot: str, compare: Sequence[str]) -> tuple[str, ...]:
    """`bot` first, then the compared styles in their order, each once."""
    names = [bot]
    for name in compare:
        if name not in names:
            names.append(name)
    return tuple(names)
