"""`showdown calibration`: does the advisor's predicted value of the action it took agree
with the chips that action went on to win? Per bucket of the prediction, with CIs."""

from __future__ import annotations

import argparse

from showdown.commands import Subparsers, parser_for


def add_parser(subparsers: Subparsers) -> None:
    parser = parser_for(
        subparsers,
        "calibration",
        "Play the advisor heads-up (duplicate) and compare the value it predicted for each "
        "action it took with the chips that action went on to win, per bucket, with 95%% CIs.",
    )
    parser.add_argument("--bot", default="mcts-advisor", help="the searching style measured")
    parser.add_argument(
        "--against",
        default="loki",
        help="the opponent: one of our styles or an outside agent of the gauntlet "
        "(texasholdem-random, rlcard-random, ...)",
    )
    parser.add_argument("--game", choices=["limit", "no-limit"], default="no-limit")
    parser.add_argument("--hands", type=int, default=400, help="hands in total (two per deal)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stack", type=int, default=100, help="stack in big blinds, every hand")
    parser.add_argument(
        "--iterations", type=int, help="the search's budget per decision (default: its profile's)"
    )
    parser.add_argument("--rows", metavar="FILE", help="read decision rows (JSON lines) instead")
    parser.add_argument("--write-rows", metavar="FILE", help="also write the decision rows")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--chart", metavar="PATH", help="write the calibration chart as a PNG")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import json
    import sys
    from pathlib import Path

    from ai.arena.calibration import (
        calibrate,
        calibration_json,
        format_calibration,
        play,
        write_chart,
    )
    from ai.bots import canonical_style
    from ai.gauntlet.opponents import OPPONENTS, make_player
    from holdem.config import Variant

    if args.rows:
        lines = Path(args.rows).read_text().splitlines()
        rows = [json.loads(line) for line in lines if line.strip()]
        player = canonical_style(args.bot)
    else:
        try:
            bot = canonical_style(args.bot)
            against = args.against if args.against in OPPONENTS else canonical_style(args.against)
        except KeyError as error:
            print(f"showdown calibration: {error.args[0]}", file=sys.stderr)
            return 2
        opponent = OPPONENTS.get(against)
        if opponent is not None and not opponent.plays(Variant(args.game)):
            print(f"showdown calibration: {against} does not play {args.game}", file=sys.stderr)
            return 2
        if args.hands < 2:
            print("showdown calibration: --hands must be at least 2", file=sys.stderr)
            return 2
        rows, player = play(
            Variant(args.game),
            bot,
            against,
            args.hands,
            args.seed,
            args.stack,
            args.iterations,
            make_player,
        )
        if args.write_rows:
            Path(args.write_rows).write_text("".join(json.dumps(r) + "\n" for r in rows))
    try:
        result = calibrate(rows, player)
    except ValueError as error:
        print(f"showdown calibration: {error}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(calibration_json(result), indent=2))
    else:
        print(format_calibration(result))
    if args.chart:
        if args.rows:  # the match's settings are not in the rows
            title = f"{player}, {result.overall.hands} hands from {Path(args.rows).name}"
        else:
            title = f"{player} against {args.against}, {args.game}, {args.hands} hands"
            title += f", seed {args.seed}"
        write_chart(result, Path(args.chart), title)
    return 0
