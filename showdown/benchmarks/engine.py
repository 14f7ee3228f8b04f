"""Hands per second through our rules core next to raw pokerkit, random legal actions;
and a live deal's shuffle next to `secrets.SystemRandom`'s."""

from __future__ import annotations

import argparse
import random
import secrets
import time
import warnings
from collections.abc import Callable
from functools import partial

import pokerkit as pk

from holdem.actions import Action, ActionKind
from holdem.cards import FULL_DECK, Deck, DeckRandom
from holdem.config import TableConfig, Variant
from holdem.hand import Hand

PLAYERS = 6
STACK = 200


def random_action(hand: Hand, rng: random.Random) -> Action:
    legal = hand.legal_actions()
    assert legal is not None
    kind = rng.choice(legal.kinds)
    if kind in (ActionKind.BET, ActionKind.RAISE):
        assert legal.min_to is not None and legal.max_to is not None
        return Action(kind=kind, amount=rng.randint(legal.min_to, legal.max_to))
    return Action(kind=kind)


def play_ours(config: TableConfig, rng: random.Random) -> None:
    hand = Hand(config, dict.fromkeys(range(1, PLAYERS + 1), STACK), PLAYERS, Deck(rng=rng))
    while not hand.is_over:
        actor = hand.actor
        assert actor is not None
        hand.act(actor, random_action(hand, rng))


def play_pokerkit(config: TableConfig, rng: random.Random) -> None:
    automations = tuple(pk.Automation)
    if config.is_limit:
        state = pk.FixedLimitTexasHoldem.create_state(
            automations, True, 0, (1, 2), 2, 4, (STACK,) * PLAYERS, PLAYERS
        )
    else:
        state = pk.NoLimitTexasHoldem.create_state(
            automations, True, 0, (1, 2), 2, (STACK,) * PLAYERS, PLAYERS
        )
    while state.status:
        options: list[Callable[[], object]] = []
        if state.can_fold() and state.checking_or_calling_amount:
            options.append(state.fold)
        if state.can_check_or_call():
            options.append(state.check_or_call)
        if state.can_complete_bet_or_raise_to():
            low = state.min_completion_betting_or_raising_to_amount
            high = state.max_completion_betting_or_raising_to_amount
            assert low is not None and high is not None
            amount = rng.randint(low, high)
            options.append(partial(state.complete_bet_or_raise_to, amount))
        rng.choice(options)()


def rate(
    play: Callable[[TableConfig, random.Random], None],
    config: TableConfig,
    seconds: float,
    seed: int,
) -> float:
    rng = random.Random(seed)
    hands = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        play(config, rng)
        hands += 1
    return hands / elapsed


def shuffle_micros(rng: random.Random, seconds: float) -> float:
    """Microseconds a 52-card shuffle takes with `rng` (the cards copied each time)."""
    shuffles = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(100):
            rng.shuffle(list(FULL_DECK))
        shuffles += 100
    return elapsed / shuffles * 1e6


def run(args: argparse.Namespace) -> int:
    warnings.filterwarnings("ignore", module="pokerkit")  # its "no reason to fold" notes
    print(f"engine: {PLAYERS}-max, random legal actions, {args.seconds:.0f} s each", flush=True)
    for variant in (Variant.NO_LIMIT, Variant.LIMIT):
        config = TableConfig(variant=variant, seats=PLAYERS, small_blind=1, big_blind=2)
        ours = rate(play_ours, config, args.seconds, args.seed)
        raw = rate(play_pokerkit, config, args.seconds, args.seed)
        print(
            f"  {variant.value:9}  showdown core {ours:8.0f} hands/s   "
            f"pokerkit raw {raw:8.0f} hands/s   ratio {ours / raw:5.2f}",
            flush=True,
        )
    # A live deal reads the OS's randomness once (DeckRandom), not once per swap.
    ours_us = shuffle_micros(DeckRandom(), args.seconds)
    system_us = shuffle_micros(secrets.SystemRandom(), args.seconds)
    print(
        f"  live shuffle  DeckRandom {ours_us:6.1f} us   "
        f"secrets.SystemRandom {system_us:6.1f} us   ratio {system_us / ours_us:5.2f}",
        flush=True,
    )
    return 0
