"""`showdown arena`."""

from __future__ import annotations

import argparse

from showdown.commands import Subparsers, not_yet, parser_for


def add_parser(subparsers: Subparsers) -> None:
    parser = parser_for(subparsers, "arena", "arena (coming soon)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    return not_yet("arena")
