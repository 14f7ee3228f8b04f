"""One module per `showdown` subcommand; see `showdown.cli`."""

from __future__ import annotations

import argparse
import sys
from typing import Any

# argparse's subparsers action has a private generic type; this alias names it.
Subparsers = Any


def parser_for(subparsers: Subparsers, name: str, help_text: str) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        name, help=help_text, description=help_text
    )
    return parser


def fail(command: str, text: str) -> int:
    """Tell why `showdown COMMAND` refused its arguments (on stderr); the exit code 2."""
    print(f"showdown {command}: {text}", file=sys.stderr)
    return 2
