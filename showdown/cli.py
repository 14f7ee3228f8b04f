"""The `showdown` command: one program, a subcommand per job.

Each subcommand lives in `showdown/commands/<name>.py` and exposes
`add_parser(subparsers)`; heavy imports happen inside its `run`, so
`showdown --help` stays fast and the backend image never imports PyTorch.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Order is the order shown in --help.
COMMANDS: tuple[str, ...] = (
    "serve",
    "worker",
    "replay",
    "equity",
    "arena",
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    code: int = args.run(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
