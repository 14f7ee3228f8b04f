"""`showdown lbr`: a Local Best Response against our bots, exploitability in mbb per hand."""

from __future__ import annotations

import argparse

from showdown.commands import Subparsers, fail, parser_for

GAMES = {"limit": "limit", "no-limit": "no-limit", "nolimit": "no-limit"}


def add_parser(subparsers: Subparsers) -> None:
    parser = parser_for(
        subparsers,
        "lbr",
        "Play a Local Best Response (Lisý and Bowling, 2017) against heads-up bots and report "
        "what it wins in mbb per hand with a 95%% CI: a lower bound on their exploitability "
        "(folding every hand loses 750).",
    )
    parser.add_argument(
        "--bot", default="mcts", help="comma-separated target styles (default mcts)"
    )
    parser.add_argument("--game", choices=sorted(GAMES), default="nolimit")
    parser.add_argument("--hands", type=int, default=200, help="hands per target (whole deals)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stack", type=int, default=100, help="stack in big blinds, every hand")
    parser.add_argument(
        "--particles",
        type=int,
        help="holdings kept in the target's range (0: all; default: all where the target's "
        "probabilities are exact, 24 where they are estimated)",
    )
    parser.add_argument(
        "--samples", type=int, default=1, help="answers per spot of an estimated target"
    )
    parser.add_argument(
        "--runouts", type=int, default=64, help="sampled runouts for equity before the turn"
    )
    parser.add_argument(
        "--preflop",
        choices=("call", "lbr"),
        default="call",
        help="LBR preflop: check/call (the paper's setting, default) or its rule as later",
    )
    parser.add_argument("--half-pot", action="store_true", help="No-Limit: also bet half the pot")
    parser.add_argument(
        "--iterations", type=int, help="the targets' search budget per decision (mcts)"
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--chart", metavar="PATH", help="write a bar chart as a PNG")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import json
    import sys
    from pathlib import Path

    from ai.arena.progress import ProgressLine
    from ai.bots import canonical_style
    from ai.gauntlet import OPPONENTS
    from ai.gauntlet.lbr import LbrConfig, LbrResult, play_lbrs
    from ai.gauntlet.lbr_report import format_lbr, lbr_json, write_lbr_chart
    from holdem.config import Variant

    game = Variant(GAMES[args.game])
    targets = []
    for name in (s.strip() for s in args.bot.split(",") if s.strip()):
        if name in OPPONENTS:
            targets.append(name)
            continue
        try:
            targets.append(canonical_style(name))
        except KeyError as error:
            return fail("lbr", str(error.args[0]))
    if not targets:
        return fail("lbr", "--bot names no target")
    if args.hands < 2:
        return fail("lbr", "--hands must be at least 2 (one deal, both seats)")
    if args.samples < 1 or args.runouts < 1 or (args.particles is not None and args.particles < 0):
        return fail("lbr", "--samples and --runouts must be at least 1, --particles at least 0")
    if args.stack < 1 or (args.iterations is not None and args.iterations < 1):
        return fail("lbr", "--stack and --iterations must be at least 1")
    configs = [
        LbrConfig(
            game=game,
            target=target,
            hands=args.hands,
            seed=args.seed,
            stack_bb=args.stack,
            particles=args.particles,
            samples=args.samples,
            runouts=args.runouts,
            preflop=args.preflop,
            half_pot=args.half_pot,
            iterations=args.iterations,
        )
        for target in targets
    ]
    progress = ProgressLine()

    def done(result: LbrResult) -> None:
        lo, hi = result.ci95
        clear = "\r\033[K" if progress.tty else ""
        print(
            f"{clear}lbr: against {result.config.target}: {result.mbb_per_hand:+.0f} mbb/hand "
            f"[{lo:.0f}, {hi:.0f}] over {result.hands} hands ({progress.elapsed:.0f} s so far)",
            file=sys.stderr,
        )

    results = play_lbrs(configs, progress, done)
    if args.chart:
        write_lbr_chart(results, Path(args.chart))
        print(f"lbr: chart written to {args.chart}", file=sys.stderr)
    if args.json:
        print(json.dumps(lbr_json(results)))
    else:
        print(format_lbr(results))
    return 0
