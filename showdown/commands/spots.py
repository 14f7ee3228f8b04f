"""`showdown spots`: a searching bot's values of its actions against the exact ones, per
spot, in heads-up Limit against an opponent whose policy is known (`ai.gauntlet.spots`)."""

from __future__ import annotations

import argparse

from showdown.commands import Subparsers, fail, parser_for


def add_parser(subparsers: Subparsers) -> None:
    parser = parser_for(
        subparsers,
        "spots",
        "Play a searching bot heads-up Limit (duplicate) against an opponent whose policy is "
        "known and, per kind of spot, compare the search's margin of the action taken over "
        "its runner-up with the exact margin (both holdings known, afterwards only for "
        "measuring): search - exact with 95%% CIs (docs/gauntlet.md).",
    )
    parser.add_argument("--bot", default="mcts", help="the searching style (default mcts)")
    parser.add_argument(
        "--opponent",
        default="blueprint",
        help="an opponent with a known policy: blueprint (default), rlcard-random, random, "
        "always-raise, calling-station",
    )
    parser.add_argument(
        "--continuation",
        default="blueprint",
        help="the known policy playing our seat after each decision in the exact values "
        "(default blueprint)",
    )
    parser.add_argument("--hands", type=int, default=300, help="hands in total (two per deal)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stack", type=int, default=200, help="stack in big blinds, every hand")
    parser.add_argument(
        "--iterations", type=int, help="the search's budget per decision (default: its profile's)"
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import json
    import sys

    from ai.arena.progress import ProgressLine
    from ai.bots import Bot, canonical_style
    from ai.bots.mcts import MctsBot
    from ai.gauntlet.known import KNOWN, known_policy
    from ai.gauntlet.opponents import make_player
    from ai.gauntlet.spots import SpotConfig, format_spots, play_spots, spots_json

    try:
        bot = canonical_style(args.bot)
    except KeyError as error:
        return fail("spots", str(error.args[0]))
    opponent = known_policy(args.opponent, 2)
    continuation = known_policy(args.continuation, 2)
    if opponent is None or continuation is None:
        return fail("spots", f"--opponent and --continuation must be one of {', '.join(KNOWN)}")
    if args.hands < 2:
        return fail("spots", "--hands must be at least 2 (one deal, both seats)")
    iterations: int | None = args.iterations

    def make(style: str, seed: int) -> Bot:
        player = make_player(style, seed)
        if iterations is not None and isinstance(player, MctsBot):
            player.iterations = iterations
        return player

    config = SpotConfig(bot, args.opponent, args.hands, args.seed, args.continuation, args.stack)
    progress = ProgressLine()
    spots = play_spots(config, opponent, continuation, make, progress)
    print(
        f"spots: {spots.result.hands} hands in {progress.elapsed:.1f} s, "
        f"{len(spots.decisions)} searched decisions measured",
        file=sys.stderr,
    )
    print(json.dumps(spots_json(spots)) if args.json else format_spots(spots))
    return 0
