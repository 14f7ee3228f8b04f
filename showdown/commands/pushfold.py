"""`showdown pushfold`: the heads-up push/fold equilibrium chart, in chips or in ICM.

showdown pushfold --stack 10 [--ante 0.1 | --bb-ante 1] [--png chart.png] [--json]
showdown pushfold --stack 10 --prizes 50,30,20 --others 3,50 [--bb-stack 10] [--png ...]
showdown pushfold --thresholds thresholds.png

Stacks are in big blinds. With --prizes the payoffs are prize equity (ICM) with the
other players' stacks (--others) still in; without, chips, and the chart is compared
with the published HoldemResources chart (no antes only).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from showdown.commands import Subparsers, parser_for


def add_parser(subparsers: Subparsers) -> None:
    parser = parser_for(
        subparsers, "pushfold", "heads-up push/fold Nash chart by fictitious play (chips or ICM)"
    )
    parser.add_argument("--stack", type=float, default=10.0, help="SB stack in bb (default 10)")
    parser.add_argument("--bb-stack", type=float, default=None, help="BB stack (default: same)")
    parser.add_argument("--ante", type=float, default=0.0, help="ante per player, in bb")
    parser.add_argument("--bb-ante", type=float, default=0.0, help="big-blind ante, in bb")
    parser.add_argument("--prizes", default="", help="prizes per place, e.g. 50,30,20 (ICM)")
    parser.add_argument("--others", default="", help="other players' stacks in bb, e.g. 3,50")
    parser.add_argument("--iterations", type=int, default=3000, help="fictitious play rounds")
    parser.add_argument("--png", type=Path, default=None, help="write the chart as a PNG")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--thresholds",
        type=Path,
        default=None,
        help="instead: plot each hand's largest push/call stack against the published chart",
    )
    parser.set_defaults(run=run)


def _numbers(text: str, what: str) -> list[float]:
    try:
        values = [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ValueError(f"{what}: give numbers separated by commas, not {text!r}") from None
    if any(v < 0 for v in values):
        raise ValueError(f"{what} must be non-negative")
    return values


def run(args: argparse.Namespace) -> int:
    from ai.tournament.chart import comparison, grid_text, write_png, write_threshold_png

    if args.thresholds is not None:
        push_err, call_err = write_threshold_png(args.thresholds)
        print(
            f"mean |ours - published| largest stack: push {push_err:.2f} bb, call {call_err:.2f} bb"
        )
        print(f"wrote {args.thresholds}")
        return 0
    from ai.tournament.pushfold import Payoffs, solve
    from ai.tournament.spot import Blinds, Valuation, icm_payoffs

    try:
        bb_stack = args.stack if args.bb_stack is None else args.bb_stack
        if min(args.stack, bb_stack) <= 1 or max(args.stack, bb_stack) > 1000:
            raise ValueError("stacks must be above 1 bb and at most 1000 bb")
        if args.ante < 0 or args.bb_ante < 0 or (args.ante and args.bb_ante):
            raise ValueError("give a non-negative --ante or --bb-ante, not both")
        if not 1 <= args.iterations <= 100_000:
            raise ValueError("--iterations must be 1..100000")
        prizes = _numbers(args.prizes, "--prizes")
        others = _numbers(args.others, "--others")
        if others and not prizes:
            raise ValueError("--others needs --prizes")
        blinds = Blinds(0.5, 1.0, args.ante, args.ante + args.bb_ante)
        if prizes:
            payoffs = icm_payoffs(
                args.stack, bb_stack, blinds, Valuation(tuple(prizes), tuple(others))
            )
            title = f"ICM push/fold, {args.stack:g} vs {bb_stack:g} bb, prizes {args.prizes}"
        elif args.stack == bb_stack:
            payoffs = Payoffs.chips(args.stack, args.ante, args.bb_ante)
            title = f"Heads-up push/fold Nash, {args.stack:g} bb"
        else:
            raise ValueError(
                "unequal stacks play the smaller one in chips: give --prizes or one stack"
            )
    except ValueError as exc:
        print(f"showdown pushfold: {exc}")
        return 2
    chart = solve(payoffs, args.iterations)
    published = None
    if not prizes and not args.ante and not args.bb_ante:
        published = comparison(chart, args.stack)
    if args.json:
        out: dict[str, object] = {
            "stack_bb": args.stack,
            "push": [round(float(p), 4) for p in chart.push],
            "call": [round(float(c), 4) for c in chart.call],
            "exploitability": chart.exploitability,
        }
        if published is not None:
            out["agreement"] = {"push": published[0], "call": published[1]}
        print(json.dumps(out))
    else:
        print(title)
        print(grid_text(chart))
        print(f"exploitability {chart.exploitability:.2e} (payoff units per hand)")
        if published is not None:
            push, call = published
            print(f"agreement with the published chart: push {push:.1%}, call {call:.1%}")
    if args.png is not None:
        write_png(chart, args.png, title, args.stack if published is not None else None)
        if not args.json:
            print(f"wrote {args.png}")
    return 0
