"""The `showdown` command: one program, a subcommand per job.

Each subcommand lives in `showdown/commands/<name>.py` and exposes
`add_parser(subparsers)`; heavy imports happen inside its `run`, so
`showdown --help` stays fast and the backend image never imports PyTorch.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

# Order is the order shown in --help.
COMMANDS: tuple[str, ...] = (
    "serve",
    "worker",
    "replay",
    "equity",
    "pushfold",
    "arena",
    "gauntlet",
    "lbr",
    "calibration",
    "spots",
    "records",
    "bench",
    "train",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="showdown",
        description="Showdown: real-time Texas Hold'em with AI opponents.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        module = importlib.import_module(f"showdown.commands.{name}")
        module.add_parser(subparsers)
    return parser


# What a shell reports for a program a closed pipe stopped (128 + SIGPIPE).
PIPE_CLOSED = 141


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.run(args)
    except BrokenPipeError:
        # The reader went away (`showdown records compare ... | head`): stop quietly.
        # Python would flush stdout again at exit and fail once more, so point it
        # at /dev/null first.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return PIPE_CLOSED
    return code


if __name__ == "__main__":
    sys.exit(main())
