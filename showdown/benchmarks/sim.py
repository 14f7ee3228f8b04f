"""Hands per second through the AI's simulator (ai.sim) next to the rules core, 6-max.

Both play the same random policy (uniform legal kind, uniform amount) from 200-chip
stacks at 1/2 blinds, with a fresh shuffle per hand, timed the same way in one run.
"""

from __future__ import annotations

import argparse
import random

from ai.sim.rollout import random_playout
from ai.sim.rules import Rules
from ai.sim.state import SimState
from holdem.config import TableConfig, Variant
from showdown.benchmarks.engine import PLAYERS, STACK, play_ours, rate

_SEATS = tuple(range(1, PLAYERS + 1))


def play_sim(config: TableConfig, rng: random.Random) -> None:
    cards = rng.sample(range(52), 2 * PLAYERS + 5)
    holes = [(cards[i], cards[i + PLAYERS]) for i in range(PLAYERS)]
    state = SimState(Rules.of(config), _SEATS, [STACK] * PLAYERS, holes, cards[2 * PLAYERS :])
    random_playout(state, rng)


def run(args: argparse.Namespace) -> int:
    print(f"sim: {PLAYERS}-max, random legal actions, {args.seconds:.0f} s each", flush=True)
    for variant in (Variant.NO_LIMIT, Variant.LIMIT):
        config = TableConfig(variant=variant, seats=PLAYERS, small_blind=1, big_blind=2)
        sim = rate(play_sim, config, args.seconds, args.seed)
        core = rate(play_ours, config, args.seconds, args.seed)
        print(
            f"  {variant.value:9}  ai.sim {sim:8.0f} hands/s   "
            f"holdem.Hand {core:6.0f} hands/s   ratio {sim / core:5.1f}x",
            flush=True,
        )
    return 0
