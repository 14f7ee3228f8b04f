"""`showdown gauntlet`: our bots against agents that public poker packages ship."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from showdown.commands import Subparsers, fail, parser_for

if TYPE_CHECKING:  # heavy imports stay inside run (fast --help)
    from holdem.config import Variant

DEFAULT_COMPARE = "always-raise,calling-station"
GAMES = {"limit": "limit", "no-limit": "no-limit", "nolimit": "no-limit"}


def add_parser(subparsers: Subparsers) -> None:
    parser = parser_for(
        subparsers,
        "gauntlet",
        "Play a bot against opponents written outside this project (the agents of public "
        "poker packages) and report bb/100 with 95%% CIs, beside reference bots on the same "
        "deals.",
    )
    parser.add_argument("--bot", default="mcts", help="the style under test (default mcts)")
    parser.add_argument(
        "--compare",
        default=DEFAULT_COMPARE,
        help="comma-separated styles played against each opponent on the same deals, for "
        f"paired differences with --bot (default {DEFAULT_COMPARE})",
    )
    parser.add_argument("--game", choices=sorted(GAMES), default="limit")
    parser.add_argument(
        "--seats",
        type=int,
        default=2,
        help="table size: our bot and seats-1 copies of the opponent",
    )
    parser.add_argument(
        "--opponents",
        help="comma-separated external opponents (default: every one that plays --game; "
        "`showdown gauntlet --list` names them), or `blueprint` (self-play) or `random`",
    )
    parser.add_argument("--hands", type=int, default=2000, help="hands per bot and opponent")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--duplicate",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="play every deal once per rotation of the seats (default: on)",
    )
    parser.add_argument("--stack", type=int, default=200, help="stack in big blinds, every hand")
    parser.add_argument(
        "--jobs", type=int, default=1, help="processes per match (results depend on it)"
    )
    parser.add_argument(
        "--exact",
        action="store_true",
        help="Limit: also measure --bot minus each compared bot exactly per decision where "
        "both the opponent's and the compared bot's policies are known (rlcard-random, "
        "random, always-raise, calling-station, heads-up blueprint), with the decisions "
        "where it is won or lost (docs/gauntlet.md)",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--chart", metavar="PATH", help="write a bar chart with the CIs as a PNG")
    parser.add_argument("--list", action="store_true", help="list the external opponents and exit")
    parser.add_argument(
        "--paired",
        nargs=2,
        metavar=("NEW.json", "BASE.json"),
        help="play nothing: compare two runs of the same deals (each written with --json), "
        "e.g. a branch against main, deal by deal: the first bot, the exact measures and "
        "their decisions, new minus base with paired 95%% CIs (--chart: as a chart)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ai.bots import canonical_style
    from ai.gauntlet import BASELINE_OPPONENTS, OPPONENTS
    from holdem.config import Variant

    if args.paired:
        return _paired(*args.paired, as_json=args.json, chart=args.chart)
    if args.list:
        for o in OPPONENTS.values():
            games = ", ".join(g.value for g in o.games)
            print(f"{o.name:<20}{o.package} {o.agent} ({games}): {o.summary}")
        return 0
    game = Variant(GAMES[args.game])
    try:
        bot = canonical_style(args.bot)
        compare = [canonical_style(s) for s in args.compare.split(",") if s.strip()]
    except KeyError as error:
        return fail("gauntlet", str(error.args[0]))
    if args.opponents:
        opponents = [o.strip() for o in args.opponents.split(",") if o.strip()]
    else:
        opponents = [o.name for o in OPPONENTS.values() if o.plays(game)]
    for name in opponents:
        if name in BASELINE_OPPONENTS:
            continue  # our own styles play every game at every table size
        known = OPPONENTS.get(name)
        if known is None:
            names = ", ".join([*OPPONENTS, *BASELINE_OPPONENTS])
            return fail("gauntlet", f"unknown opponent {name!r} (known: {names})")
        if not known.plays(game):
            return fail("gauntlet", f"{name} does not play {game.value}")
    if not 2 <= args.seats <= 10:
        return fail("gauntlet", "--seats must be 2 to 10")
    if args.hands < 1 or args.jobs < 1:
        return fail("gauntlet", "--hands and --jobs must be at least 1")
    return _play(args, game, bot, compare, opponents)


def _paired(new: str, base: str, *, as_json: bool, chart: str | None) -> int:
    import json
    import sys
    from pathlib import Path

    from ai.gauntlet.paired_runs import format_paired, paired_json, paired_runs

    try:
        runs = [json.loads(Path(name).read_text(encoding="utf-8")) for name in (new, base)]
        differences = paired_runs(*runs)
    except (OSError, ValueError, KeyError, TypeError) as error:
        return fail("gauntlet", f"--paired: {error}")
    if chart:
        from ai.gauntlet.chart import write_paired_chart

        write_paired_chart(differences, Path(chart))
        print(f"gauntlet: chart written to {chart}", file=sys.stderr)
    print(json.dumps(paired_json(differences)) if as_json else format_paired(differences))
    return 0


def _play(
    args: argparse.Namespace, game: Variant, bot: str, compare: list[str], opponents: list[str]
) -> int:
    import json
    import sys
    from pathlib import Path

    from ai.arena.progress import ProgressLine
    from ai.gauntlet import Cell, GauntletConfig, play_gauntlet
    from ai.gauntlet.report import format_exact_rows, format_gauntlet, gauntlet_json
    from ai.gauntlet.run import lineup

    config = GauntletConfig(
        game=game,
        bots=lineup(bot, compare),
        opponents=tuple(opponents),
        hands=args.hands,
        seats=args.seats,
        seed=args.seed,
        duplicate=args.duplicate,
        stack_bb=args.stack,
        exact=args.exact,
    )
    progress = ProgressLine()

    def done(cell: Cell) -> None:
        lo, hi = cell.ci95
        clear = "\r\033[K" if progress.tty else ""  # over the progress line
        print(
            f"{clear}gauntlet: {cell.bot} against {cell.opponent}: {cell.bb_per_100:+.1f} bb/100 "
            f"[{lo:.1f}, {hi:.1f}] over {cell.hands} hands",
            file=sys.stderr,
        )

    result = play_gauntlet(config, progress, done, jobs=args.jobs)
    hands = config.hands_per_pair * len(result.cells)
    elapsed = max(progress.elapsed, 1e-9)
    print(f"gauntlet: {hands} hands in {elapsed:.1f} s", file=sys.stderr)
    if args.chart:
        from ai.gauntlet.chart import write_gauntlet_chart

        write_gauntlet_chart(result, Path(args.chart))
        print(f"gauntlet: chart written to {args.chart}", file=sys.stderr)
    if args.json:
        print(json.dumps(gauntlet_json(result)))
    else:
        print(format_gauntlet(result))
        for e in result.exact:
            if e.rows:
                print(format_exact_rows(e))
    return 0
