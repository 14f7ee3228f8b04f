"""`showdown equity`: equity of hands or ranges, exact where feasible, else Monte Carlo.

showdown equity AhKh QsQd --board 2c7d9h [--dead 5s] [--json] [--trials N] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import sys

from showdown.commands import Subparsers, parser_for


def add_parser(subparsers: Subparsers) -> None:
    parser = parser_for(
        subparsers, "equity", "showdown equity of two or more hands or ranges (e.g. QQ+,AKs)"
    )
    parser.add_argument(
        "hands",
        nargs="+",
        metavar="HAND",
        help="a holding (AhKh) or a range (QQ+,AKs,ATs+,KQo,99-66,random)",
    )
    parser.add_argument("--board", default="", help="0 to 5 board cards, e.g. 2c7d9h")
    parser.add_argument("--dead", default="", help="cards known to be out of play, e.g. 5s")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--trials",
        type=int,
        default=None,
        help="Monte Carlo deals when exact enumeration is too large (default 200000)",
    )
    parser.add_argument("--seed", type=int, default=0, help="Monte Carlo seed (default 0)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ai.math.equity import DEFAULT_TRIALS, equity
    from ai.math.ranges import parse_range
    from holdem.cards import parse_cards

    try:
        if len(args.hands) < 2:
            raise ValueError("give at least two hands or ranges")
        if args.trials is not None and args.trials < 2:
            raise ValueError("--trials must be at least 2")
        if args.seed < 0:
            raise ValueError("--seed must be non-negative")
        ranges = [parse_range(hand) for hand in args.hands]
        board = parse_cards(args.board)
        dead = parse_cards(args.dead)
        result = equity(
            ranges,
            board,
            dead,
            trials=args.trials or DEFAULT_TRIALS,
            seed=args.seed,
        )
    except ValueError as exc:  # CardError and RangeError are ValueErrors
        print(f"showdown equity: {exc}", file=sys.stderr)
        return 2

    if args.json:
        print(
            json.dumps(
                {
                    "hands": list(args.hands),
                    "board": list(board),
                    "dead": list(dead),
                    "equities": [round(e, 6) for e in result.equities],
                    "wins": [round(w, 6) for w in result.wins],
                    "ties": [round(t, 6) for t in result.ties],
                    "exact": result.exact,
                    "stderr": None
                    if result.stderr is None
                    else [round(s, 6) for s in result.stderr],
                    "samples": result.samples,
                    "seed": None if result.exact else args.seed,
                }
            )
        )
        return 0

    width = max(10, *(len(h) for h in args.hands))
    if result.exact:
        print(f"exact: {result.samples} deals enumerated")
    else:
        print(f"Monte Carlo: {result.samples} deals, seed {args.seed} (± = standard error)")
    if board or dead:
        print(f"board: {' '.join(board) or '-'}   dead: {' '.join(dead) or '-'}")
    print(f"{'hand':<{width}}  {'equity':>8}  {'win':>7}  {'tie':>7}")
    for i, hand in enumerate(args.hands):
        err = f"  ± {100 * result.stderr[i]:.2f}%" if result.stderr else ""
        print(
            f"{hand:<{width}}  {100 * result.equities[i]:7.2f}%  {100 * result.wins[i]:6.2f}%"
            f"  {100 * result.ties[i]:6.2f}%{err}"
        )
    return 0
