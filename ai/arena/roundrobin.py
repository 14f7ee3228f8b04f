"""Every bot against every other when there are more bots than seats.

Table size 2 plays every pair (a heads-up round robin, with a bb/100 matrix);
a larger size plays the cyclic windows of the bot list (bots 1-5, 2-6, ..., 9-4
for nine bots at 5-max), so each bot sits at `size` tables and meets every
other bot at several of them. Each table is an ordinary match of `hands`
hands; a bot's overall rate pools its hands from all its tables.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from ai.arena.match import MatchConfig, MatchResult, Progress, display_names
from ai.arena.play import play_match
from ai.arena.stats import Z95, WinRate, win_rates


@dataclass(frozen=True, slots=True)
class RoundRobinResult:
    names: tuple[str, ...]
    tables: list[tuple[tuple[int, ...], MatchResult]]  # bot indices per table, its match
    overall: list[WinRate]

    def matrix(self) -> np.ndarray:
        """bb/100 of row bot against column bot (heads-up tables only; NaN elsewhere)."""
        n = len(self.names)
        out = np.full((n, n), np.nan)
        for lineup, result in self.tables:
            if len(lineup) == 2:
                rates = win_rates(result)
                a, b = lineup
                out[a, b] = rates[0].bb_per_100
                out[b, a] = rates[1].bb_per_100
        return out


def lineups(count: int, size: int) -> list[tuple[int, ...]]:
    if count <= size:
        return [tuple(range(count))]
    if size == 2:
        return list(itertools.combinations(range(count), 2))
    return [tuple((start + k) % count for k in range(size)) for start in range(count)]


def play_round_robin(
    config: MatchConfig, size: int, progress: Progress | None = None, jobs: int = 1
) -> RoundRobinResult:
    """Play `config.hands` hands at every table of the round robin (other fields shared)."""
    names = display_names(config.bots)
    tables = lineups(len(config.bots), size)
    total = len(tables) * config.hands
    played: list[tuple[tuple[int, ...], MatchResult]] = []
    for t, lineup in enumerate(tables):
        table_config = MatchConfig(
            game=config.game,
            bots=tuple(config.bots[k] for k in lineup),
            hands=config.hands,
            seed=config.seed * 1009 + t,
            duplicate=config.duplicate,
            stack_bb=config.stack_bb,
            record=config.record,
            shuffle_seats=config.shuffle_seats,
            straddle=config.straddle,
            bomb_pot_every=config.bomb_pot_every,
            run_it_max=config.run_it_max,
        )
        offset = t * config.hands

        def tick(done: int, _total: int, offset: int = offset) -> None:
            if progress is not None:
                progress(min(offset + done, total), total)

        played.append((lineup, play_match(table_config, tick, jobs=jobs)))
    return RoundRobinResult(names, played, _pooled(names, played))


def _pooled(
    names: tuple[str, ...], played: list[tuple[tuple[int, ...], MatchResult]]
) -> list[WinRate]:
    """Each bot's rate over all its tables: per-deal samples pooled, then mean and CI."""
    samples: list[list[float]] = [[] for _ in names]
    totals = [0.0] * len(names)
    for lineup, result in played:
        rotations = result.rotations
        per_deal = result.net_bb.reshape(-1, rotations, len(lineup)).sum(axis=1) / rotations
        for column, bot in enumerate(lineup):
            samples[bot].extend(per_deal[:, column].tolist())
            totals[bot] += float(result.net_bb[:, column].sum())
    rates = []
    for k, name in enumerate(names):
        values = np.array(samples[k])
        mean = float(values.mean()) if len(values) else 0.0
        half = (
            Z95 * float(values.std(ddof=1)) / math.sqrt(len(values))
            if len(values) > 1
            else math.inf
        )
        rates.append(
            WinRate(name, 100 * mean, (100 * (mean - half), 100 * (mean + half)), totals[k])
        )
    return rates


def format_round_robin(result: RoundRobinResult, config: MatchConfig, size: int) -> str:
    lines = [
        f"{config.game.value}, {size}-handed round robin: {len(result.tables)} tables x "
        f"{config.hands} hands ({config.mode}), seed {config.seed}",
        f"{'bot':<18}{'bb/100':>10}{'95% CI':>22}{'total bb':>12}",
    ]
    for rate in sorted(result.overall, key=lambda r: -r.bb_per_100):
        lo, hi = rate.ci95
        lines.append(
            f"{rate.name:<18}{rate.bb_per_100:>10.1f}{f'[{lo:.1f}, {hi:.1f}]':>22}"
            f"{rate.total_bb:>12.1f}"
        )
    if size == 2:
        matrix = result.matrix()
        short = [name[:8] for name in result.names]
        lines.append("")
        lines.append("bb/100 of the row bot against the column bot:")
        lines.append(" " * 16 + "".join(f"{s:>9}" for s in short))
        for k, name in enumerate(result.names):
            cells = "".join(f"{'':>9}" if np.isnan(v) else f"{v:>9.0f}" for v in matrix[k])
            lines.append(f"{name:<16}{cells}")
    else:
        lines.append("")
        for _, match in result.tables:
            rates = win_rates(match)
            lines.append("  " + ", ".join(f"{r.name} {r.bb_per_100:+.0f}" for r in rates))
    return "\n".join(lines)
