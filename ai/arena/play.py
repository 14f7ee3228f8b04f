"""Playing a match: in this process, or its deals split over processes (`ai.arena.parallel`)."""

from __future__ import annotations

from ai.arena.exact import ExactProbe
from ai.arena.match import BotMaker, Match, MatchConfig, MatchResult, Progress
from ai.arena.parallel import play_in_processes
from ai.bots import make_bot


def play_match(
    config: MatchConfig,
    progress: Progress | None = None,
    jobs: int = 1,
    make: BotMaker = make_bot,
    probe: ExactProbe | None = None,
) -> MatchResult:
    """Play the match; `jobs` > 1 splits the deals over that many processes.

    Results depend on (config, jobs): each process has its own bots (seeded the same),
    so learning bots learn within their share of the deals only. `make` must be a
    module-level function when jobs > 1 (the processes get it by name). `probe`: the
    first bot's exact advantages over known baselines (`ai.arena.exact`).
    """
    match = Match(config, make, probe)
    if jobs <= 1 or match.deals < 2 * jobs:
        return match.play(progress)
    net, records, decisions, (exact, rows) = play_in_processes(
        config, match.deals, match.rotations, jobs, progress, make, probe
    )
    match.exact, match.exact_rows = exact, rows
    return MatchResult(
        match.names, net, match.rotations, config, records, decisions, match.exact_array(), rows
    )
