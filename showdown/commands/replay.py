"""`showdown replay FILE.phh ...`: play PHH hand histories through our rules core."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from showdown.commands import Subparsers, parser_for


def add_parser(subparsers: Subparsers) -> None:
    parser = parser_for(
        subparsers,
        "replay",
        "Play PHH hand histories through Showdown's rules core and print finishing stacks "
        "(a history whose recorded finishing_stacks differ fails).",
    )
    parser.add_argument("files", nargs="+", metavar="FILE.phh")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from holdem.phh import PhhError, replay_text

    failed = 0
    for name in args.files:
        try:
            text = Path(name).read_text(encoding="utf-8")
            stacks = replay_text(text, check_recorded=True)
        except (OSError, UnicodeDecodeError, PhhError) as error:
            failed += 1
            reason = error.strerror if isinstance(error, OSError) and error.strerror else error
            message = f"{name}: {reason}"
            if args.json:
                print(json.dumps({"file": name, "error": str(reason)}), flush=True)
            print(f"showdown replay: {message}", file=sys.stderr, flush=True)
            continue
        if args.json:
            print(json.dumps({"file": name, "finishing_stacks": stacks}), flush=True)
        else:
            print(f"{name}: {' '.join(map(str, stacks))}", flush=True)
    return 1 if failed else 0
