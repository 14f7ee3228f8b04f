"""Playing a match: in this process, or its deals split over processes (`ai.arena.parallel`)."""

from __future__ import annotations

from ai.arena.match import BotMaker, Match, MatchConfig, MatchResult, Progress
from ai.arena.parallel import play_in_processes
from ai.bots import make_bot


def play_match(
    config: MatchConfig,
    progress: Progress | None = None,
    jobs: int = 1,
    make: BotMaker = make_bot,
) -> MatchResult:
    """Play the match; `jobs` > 1 splits the deals over that many processes.

    Results depend on (config, jobs): each process has its own bots (seeded the same),
    so learning bots learn within their share of the deals only. `make` must be a
    module-level function when jobs > 1 (the processes get it by name).
    """
    match = Match(config, make)
    if jobs <= 1 or match.deals < 2 * jobs:
        return match.play(progress)
    net, records, decisions = play_in_processes(
        config, match.deals, match.rotations, jobs, progress, make
    )
    return MatchResult(match.names, net, match.rotations, config, records, decisions)
