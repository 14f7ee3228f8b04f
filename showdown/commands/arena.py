"""`showdown arena`: bot-vs-bot matches, headless, with win rates and a chart."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from showdown.commands import Subparsers, parser_for

if TYPE_CHECKING:  # heavy imports stay inside run (fast --help)
    from ai.arena import MatchConfig, WinRate
    from ai.arena.progress import ProgressLine


def add_parser(subparsers: Subparsers) -> None:
    parser = parser_for(
        subparsers,
        "arena",
        "Play bots against each other through the fast simulator and report bb/100.",
    )
    parser.add_argument("--game", choices=["limit", "no-limit"], default="limit")
    parser.add_argument(
        "--bots",
        default="rational,aggressive,cautious,calling-station,always-raise,random",
        help="comma-separated styles, one seat each (2-10), e.g. loki,poki,rational",
    )
    parser.add_argument("--hands", type=int, default=10_000, help="hands to play in total")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--duplicate",
        action="store_true",
        help="replay every deal with the seats rotated (each bot plays each seat's cards)",
    )
    parser.add_argument(
        "--shuffle-seats",
        action="store_true",
        help="seat the bots in a new random order for each deal (with --duplicate, a bot's "
        "place relative to the others then averages out, not only its cards)",
    )
    parser.add_argument("--stack", type=int, default=200, help="stack in big blinds, every hand")
    parser.add_argument(
        "--jobs", type=int, default=1, help="processes to share the deals (results depend on it)"
    )
    parser.add_argument(
        "--table-size",
        type=int,
        default=0,
        help="seats per table when listing more bots: 2 plays every pair (a bb/100 matrix), "
        "more plays the bot list's cyclic windows; --hands is then per table",
    )
    parser.add_argument(
        "--record",
        metavar="FILE",
        help="write every hand as a stored-hand document, one JSON per line "
        "(training data: showdown train --records FILE)",
    )
    parser.add_argument(
        "--decisions",
        metavar="FILE",
        help="write every searched decision (each action's searched value, the choice, the "
        "chips it made), one JSON per line (showdown records correction FILE)",
    )
    parser.add_argument(
        "--straddle",
        choices=["off", "utg", "button"],
        default="off",
        help="no-limit home-game rule: every bot in the straddle position straddles (2 bb)",
    )
    parser.add_argument(
        "--bomb-pot-every",
        type=int,
        default=0,
        metavar="N",
        help="home-game rule: every Nth deal is a bomb pot (2 bb from every seat, no blinds, "
        "dealt to the flop)",
    )
    parser.add_argument(
        "--run-it",
        type=int,
        default=1,
        metavar="N",
        help="home-game rule: all-in before the river, the board is run N times (1 to 3; "
        "every bot agrees)",
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--chart", metavar="PATH", help="write cumulative winnings as a PNG")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import sys

    from ai.arena import MatchConfig
    from ai.arena.progress import ProgressLine
    from ai.bots import canonical_style
    from holdem.config import MAX_RUNS, Straddle, Variant

    try:
        styles = tuple(canonical_style(s) for s in args.bots.split(",") if s.strip())
    except KeyError as error:
        print(f"showdown arena: {error.args[0]}", file=sys.stderr)
        return 2
    size = args.table_size or len(styles)
    if not 2 <= size <= 10 or len(styles) < 2 or (len(styles) > 10 and not args.table_size):
        print("showdown arena: list 2 to 10 bots (or more with --table-size 2-10)", file=sys.stderr)
        return 2
    if args.hands < 1:
        print("showdown arena: --hands must be at least 1", file=sys.stderr)
        return 2
    if args.straddle != "off" and args.game == "limit":
        print("showdown arena: --straddle is a no-limit rule (--game no-limit)", file=sys.stderr)
        return 2
    if args.bomb_pot_every < 0:
        print("showdown arena: --bomb-pot-every must be 0 (off) or more", file=sys.stderr)
        return 2
    if not 1 <= args.run_it <= MAX_RUNS:
        print(f"showdown arena: --run-it must be 1 (off) to {MAX_RUNS}", file=sys.stderr)
        return 2
    config = MatchConfig(
        game=Variant(args.game),
        bots=styles,
        hands=args.hands,
        seed=args.seed,
        duplicate=args.duplicate,
        stack_bb=args.stack,
        record=bool(args.record),
        shuffle_seats=args.shuffle_seats,
        decisions=bool(args.decisions),
        straddle=Straddle(args.straddle),
        bomb_pot_every=args.bomb_pot_every,
        run_it_max=args.run_it,
    )
    progress = ProgressLine()
    if size < len(styles):
        return _round_robin(args, config, size, progress)
    return _match(args, config, progress)


def _match(args: argparse.Namespace, config: MatchConfig, progress: ProgressLine) -> int:
    import json
    from pathlib import Path

    from ai.arena import format_table, play_match, win_rates

    result = play_match(config, progress, jobs=args.jobs)
    rates = win_rates(result)
    _done(result.hands, progress)
    if args.record:
        _write_records(Path(args.record), result.records)
    if args.decisions:
        _write_decisions(Path(args.decisions), result.decisions)
    if args.chart:
        from ai.arena.chart import write_chart

        write_chart(result, Path(args.chart))
        _note(f"chart written to {args.chart}")
    if args.json:
        print(json.dumps({**_header(result.hands, config), "bots": _rates_json(rates)}))
    else:
        print(format_table(result, rates))
    return 0


def _round_robin(
    args: argparse.Namespace, config: MatchConfig, size: int, progress: ProgressLine
) -> int:
    import json
    from pathlib import Path

    from ai.arena.roundrobin import format_round_robin, play_round_robin

    result = play_round_robin(config, size, progress, jobs=args.jobs)
    hands = sum(match.hands for _, match in result.tables)
    _done(hands, progress)
    if args.record:
        _write_records(Path(args.record), [d for _, m in result.tables for d in m.records])
    if args.decisions:
        _write_decisions(Path(args.decisions), [d for _, m in result.tables for d in m.decisions])
    if args.chart:
        from ai.arena.chart import write_round_robin_chart

        write_round_robin_chart(result, config, Path(args.chart))
        _note(f"chart written to {args.chart}")
    if args.json:
        tables = [
            {"bots": [result.names[k] for k in lineup], "hands": match.hands}
            for lineup, match in result.tables
        ]
        payload = {
            **_header(hands, config),
            "table_size": size,
            "bots": _rates_json(result.overall),
            "tables": tables,
        }
        print(json.dumps(payload))
    else:
        print(format_round_robin(result, config, size))
    return 0


def _header(hands: int, config: MatchConfig) -> dict[str, object]:
    return {
        "hands": hands,
        "game": config.game.value,
        "seed": config.seed,
        "duplicate": config.duplicate,
        "shuffle_seats": config.shuffle_seats,
        "straddle": config.straddle.value,
        "bomb_pot_every": config.bomb_pot_every,
        "run_it": config.run_it_max,
    }


def _rates_json(rates: list[WinRate]) -> list[dict[str, object]]:
    return [
        {
            "name": r.name,
            "bb_per_100": round(r.bb_per_100, 3),
            "ci95": [round(r.ci95[0], 3), round(r.ci95[1], 3)],
        }
        for r in rates
    ]


def _write_decisions(path: Path, rows: list[dict[str, Any]]) -> None:
    import json

    with path.open("w") as out:
        for row in rows:
            out.write(json.dumps(row) + "\n")
    _note(f"{len(rows)} searched decisions written to {path}")


def _write_records(path: Path, records: list[dict[str, Any]]) -> None:
    from ai.arena.record import write_records

    count = write_records(path, records)
    _note(f"{count} hands recorded to {path}")


def _done(hands: int, progress: ProgressLine) -> None:
    elapsed = max(progress.elapsed, 1e-9)
    _note(f"{hands} hands in {elapsed:.2f} s ({hands / elapsed:.0f} hands/s)")


def _note(text: str) -> None:
    import sys

    print(f"arena: {text}", file=sys.stderr)
