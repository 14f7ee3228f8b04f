"""`showdown records`: read matches recorded with `showdown arena --record FILE`.

`compare A B --player X --as Y`: two recordings of the same deals, X in A's
seat where Y sat in B's: the seat's difference in bb/100 with its 95% CI and where
it comes from, each hand filed under the first event where the two differ. `flows FILE
--player X`: what X took from (or lost to) each opponent. `versus FILE... --player X
[--allin-ev]`: X's result minus each other player's at the same tables, per deal,
pooled over the recordings (seeds): "is X ahead of every other style?".
`correction FILE... --player X`: from decisions written by `showdown arena --decisions
FILE`, what X's chosen actions made beyond their searched values, per street, action and
crowd (how well the searched values are calibrated).
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from showdown.commands import Subparsers, parser_for

if TYPE_CHECKING:
    from pathlib import Path

    from ai.arena.compare import Comparison, Flow
    from ai.arena.misses import Cell
    from ai.arena.versus import Versus


def add_parser(subparsers: Subparsers) -> None:
    parser = parser_for(
        subparsers,
        "records",
        "Read matches recorded by `showdown arena --record`: where two bots differ on the "
        "same deals, and whose chips a player won.",
    )
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)
    compare = verbs.add_parser(
        "compare",
        help="the seat's difference between two recordings of the same deals, by the "
        "first event where each hand differs",
    )
    compare.add_argument("first", metavar="A.jsonl")
    compare.add_argument("second", metavar="B.jsonl")
    compare.add_argument("--player", required=True, help="the player in A's seat")
    compare.add_argument(
        "--as", dest="other", help="the player in that seat in B (default: the same name)"
    )
    compare.add_argument("--json", action="store_true", help="print the rows as JSON")
    compare.set_defaults(run=run_compare)
    flows = verbs.add_parser(
        "flows", help="what a player took from each opponent (a loss split among the winners)"
    )
    flows.add_argument("file", metavar="FILE.jsonl")
    flows.add_argument("--player", required=True)
    flows.add_argument("--json", action="store_true", help="print the rows as JSON")
    flows.set_defaults(run=run_flows)
    against = verbs.add_parser(
        "versus",
        help="a player's result minus each other player's at the same tables, per deal "
        "(a deal's rotations one sample), pooled over the recordings",
    )
    against.add_argument("files", metavar="FILE.jsonl", nargs="+")
    against.add_argument("--player", required=True)
    against.add_argument(
        "--allin-ev",
        action="store_true",
        help="count hands all in before the river and shown down at their equity then "
        "(the runout's luck taken out; slower)",
    )
    against.add_argument("--json", action="store_true", help="print the rows as JSON")
    against.set_defaults(run=run_versus)
    correction = verbs.add_parser(
        "correction",
        help="what a player's chosen actions made beyond their searched values, per street, "
        "action and crowd (from showdown arena --decisions FILE)",
    )
    correction.add_argument("files", metavar="DECISIONS.jsonl", nargs="+")
    correction.add_argument("--player", required=True)
    correction.add_argument("--json", action="store_true", help="print the rows as JSON")
    correction.set_defaults(run=run_correction)


def run_compare(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ai.arena.compare import compare
    from ai.arena.record import read_records

    other = args.other or args.player
    try:
        result = compare(
            read_records(Path(args.first)), read_records(Path(args.second)), args.player, other
        )
    except (OSError, ValueError, KeyError) as error:
        return _fail(error)
    print(_compare_json(result) if args.json else _compare_text(result, args.player, other))
    return 0


def run_flows(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ai.arena.compare import flows
    from ai.arena.record import read_records

    try:
        result = flows(read_records(Path(args.file)), args.player)
    except (OSError, ValueError, KeyError) as error:
        return _fail(error)
    if args.json:
        import json

        rows = [{"opponent": f.opponent, "bb": f.bb, "bb_per_100": f.bb_per_100} for f in result]
        print(json.dumps(rows))
    else:
        print(_flows_text(result, args.player))
    return 0


def run_versus(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ai.arena.progress import ProgressLine
    from ai.arena.record import read_records
    from ai.arena.versus import versus

    paths = [Path(f) for f in args.files]
    try:
        total = sum(_lines(p) for p in paths)
        line = ProgressLine()
        result = versus(
            (read_records(p) for p in paths),
            args.player,
            args.allin_ev,
            progress=lambda done: line(done, total),
        )
    except (OSError, ValueError, KeyError) as error:
        return _fail(error)
    if args.json:
        import json

        rows = [
            {
                "opponent": v.opponent,
                "hands": v.hands,
                "bb_per_100": v.bb_per_100,
                "ci95": _json_ci(v.ci95),
            }
            for v in result
        ]
        print(json.dumps({"player": args.player, "allin_ev": args.allin_ev, "rows": rows}))
    else:
        print(_versus_text(result, args.player, args.allin_ev))
    return 0


def _versus_text(result: list[Versus], player: str, allin_ev: bool) -> str:
    how = ", all-in hands at their equity" if allin_ev else ""
    lines = [
        f"{player} minus each opponent, per deal{how}:",
        f"{'opponent':24s} {'hands':>7s} {'bb/100':>9s} {'95% CI':>20s}",
    ]
    for v in result:
        lo, hi = v.ci95
        ci = f"[{lo:+.1f}, {hi:+.1f}]"
        lines.append(f"{v.opponent:24s} {v.hands:7d} {v.bb_per_100:+9.1f} {ci:>20s}")
    return "\n".join(lines)


def _compare_text(result: Comparison, player: str, other: str) -> str:
    lo, hi = result.ci95
    lines = [
        f"{result.hands} hands: {player} {result.bb_per_100:+.1f} bb/100 (95% CI "
        f"[{lo:+.1f}, {hi:+.1f}]) against {other} in the same seat ({result.bb:+.1f} bb)",
        f"{'first difference':48s} {'hands':>6s} {'bb':>9s} {'bb/hand':>8s}",
    ]
    for row in result.rows:
        lines.append(f"{row.key:48s} {row.hands:6d} {row.bb:+9.1f} {row.bb / row.hands:+8.2f}")
    return "\n".join(lines)


def _compare_json(result: Comparison) -> str:
    import json

    rows = [{"first_difference": r.key, "hands": r.hands, "bb": r.bb} for r in result.rows]
    payload = {"hands": result.hands, "bb": result.bb, "ci95": _json_ci(result.ci95), "rows": rows}
    return json.dumps(payload)


def run_correction(args: argparse.Namespace) -> int:
    import json
    from pathlib import Path

    from ai.arena.misses import measure

    try:
        rows = [
            json.loads(line)
            for name in args.files
            for line in Path(name).read_text(encoding="utf-8").splitlines()
            if line.strip()
        ]
        cells = measure(rows, args.player)
    except (OSError, ValueError, KeyError, StopIteration) as error:
        if isinstance(error, KeyError | StopIteration):
            error = ValueError("not a searched decision (showdown arena --decisions FILE)")
        return _fail(error)
    if not cells:
        print(f"showdown records: no searched decision of {args.player}", file=sys.stderr)
        return 2
    if args.json:
        out = [
            {"street": c.street, "kind": c.kind, "crowded": c.crowded, "decisions": c.decisions,
             "missed_bb": c.missed_bb, "ci95": _json_ci(c.ci95)}
            for c in cells
        ]  # fmt: skip
        print(json.dumps(out))
    else:
        print(_correction_text(cells, args.player))
    return 0


def _correction_text(cells: list[Cell], player: str) -> str:
    streets = ("preflop", "flop", "turn", "river")
    actions = ("fold", "check", "call", "bet", "raise")
    lines = [
        f"what {player}'s chosen actions made beyond their searched values (bb a decision):",
        f"{'street':8s} {'action':7s} {'in hand':>8s} {'decisions':>10s} {'missed':>8s}  95% CI",
    ]
    for c in cells:
        crowd = "3+" if c.crowded else "2"
        low, high = c.ci95
        lines.append(
            f"{streets[c.street]:8s} {actions[c.kind]:7s} {crowd:>8s} "
            f"{c.decisions:10d} {c.missed_bb:+8.2f}  [{low:+.2f}, {high:+.2f}]"
        )
    return "\n".join(lines)


def _lines(path: Path) -> int:
    """Non-blank lines: the hands a recording holds (for the progress line)."""
    with path.open(encoding="utf-8") as lines:
        return sum(1 for line in lines if line.strip())


def _json_ci(ci95: tuple[float, float]) -> list[float] | None:
    """JSON has no infinity: an interval from fewer than two deals is null."""
    import math

    return list(ci95) if all(map(math.isfinite, ci95)) else None


def _flows_text(result: list[Flow], player: str) -> str:
    lines = [f"{player} took, from each opponent:", f"{'opponent':24s} {'bb/100':>9s} {'bb':>10s}"]
    lines += [f"{f.opponent:24s} {f.bb_per_100:+9.1f} {f.bb:+10.1f}" for f in result]
    return "\n".join(lines)


def _fail(error: Exception) -> int:
    reason = error.strerror if isinstance(error, OSError) and error.strerror else error
    if isinstance(error, KeyError):
        reason = f"not a recorded hand (no {error.args[0]!r} field)"
    filename = f"{error.filename}: " if isinstance(error, OSError) and error.filename else ""
    print(f"showdown records: {filename}{reason}", file=sys.stderr)
    return 2
