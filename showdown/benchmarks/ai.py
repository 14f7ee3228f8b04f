"""`showdown bench ai`: the AI's hot paths, each next to a PyPI reference measured in the same run.

1. 7-card evaluations/s: ai.math (numba lookup tables, batched; pkrbot translated to a
   strength, single), against pkrbot and eval7 called one hand at a time.
2. Simulator hands/s, 6-max random actions: ai.sim against pokerkit.
3. Flop HS + two-card potential against a weighted range, ms per call: ai.math's exact
   enumeration and its Monte Carlo (the bots'), against eval7's exact equity against a range.
4. poki's decision time at 500 rollouts (flop, 6-max Limit and No-Limit); MCTS
   iterations/s and its 2,000-iteration decision time, beside poki's rollouts/s.
5. Arena hands/s, 6-max Limit, the simple personalities (wall clock and CPU time).
6. The opponent model's inference, numpy beside torch (`showdown.benchmarks.models`).
"""

from __future__ import annotations

import argparse
import random
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from holdem.cards import FULL_DECK
from holdem.config import TableConfig, Variant

ARENA_BOTS = ("rational", "aggressive", "cautious", "calling-station", "always-raise", "random")


def _per_second(fn: Callable[[], int], seconds: float) -> float:
    """Calls fn (which returns how many items it did) until `seconds` pass; items per second."""
    done = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        done += fn()
    return done / elapsed


def _ms_per_call(fn: Callable[[], object], seconds: float, at_most: int = 1000) -> float:
    calls = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds and calls < at_most:
        fn()
        calls += 1
    return 1000 * elapsed / calls


def _line(label: str, value: str, reference: str = "") -> None:
    print(f"  {label:<44}{value:>18}   {reference}", flush=True)


def _eval7() -> object:
    with warnings.catch_warnings():  # its range parser uses deprecated pyparsing names
        warnings.simplefilter("ignore", DeprecationWarning)
        import eval7
    return eval7


def bench_evaluator(seconds: float, rng: random.Random) -> None:
    import pkrbot

    eval7: Any = _eval7()

    from ai.math.evaluator import evaluate_batch, strength_of

    print("7-card evaluation (random hands)", flush=True)
    hands = np.array([rng.sample(range(52), 7) for _ in range(100_000)], dtype=np.int64)
    pkr_hands = [[pkrbot.Card(FULL_DECK[c]) for c in row] for row in hands[:20_000]]
    e7_hands = [[eval7.Card(FULL_DECK[c]) for c in row] for row in hands[:20_000]]
    rows = hands[:20_000].tolist()
    evaluate_batch(hands[:10])

    def pkr() -> int:
        evaluate = pkrbot.evaluate
        for h in pkr_hands:
            evaluate(h)
        return len(pkr_hands)

    def e7() -> int:
        evaluate = eval7.evaluate
        for h in e7_hands:
            evaluate(h)
        return len(e7_hands)

    def ours_single() -> int:
        for row in rows:
            strength_of(row)
        return len(rows)

    pkr_rate = _per_second(pkr, seconds / 4)
    e7_rate = _per_second(e7, seconds / 4)
    reference = f"pkrbot {pkr_rate / 1e6:5.2f} M/s, eval7 {e7_rate / 1e6:5.2f} M/s (single)"
    rate = _per_second(lambda: len(evaluate_batch(hands)) or len(hands), seconds / 4)
    _line("ai.math evaluate_batch (numba tables)", f"{rate / 1e6:7.2f} M evals/s", reference)
    rate = _per_second(ours_single, seconds / 4)
    _line("ai.math strength_of, one call per hand", f"{rate / 1e6:7.2f} M evals/s", reference)


def bench_simulator(seconds: float, seed: int) -> None:
    from showdown.benchmarks.engine import PLAYERS, play_pokerkit, rate
    from showdown.benchmarks.sim import play_sim

    print(f"simulator ({PLAYERS}-max, random legal actions)", flush=True)
    warnings.filterwarnings("ignore", module="pokerkit")
    for variant in (Variant.LIMIT, Variant.NO_LIMIT):
        config = TableConfig(variant=variant, seats=PLAYERS, small_blind=1, big_blind=2)
        sim = rate(play_sim, config, seconds / 4, seed)
        raw = rate(play_pokerkit, config, seconds / 4, seed)
        _line(f"ai.sim {variant.value}", f"{sim:8.0f} hands/s", f"pokerkit {raw:6.0f} hands/s")


def bench_strength(seconds: float, rng: random.Random) -> None:
    eval7: Any = _eval7()

    from ai.math.evaluator import strength_of
    from ai.math.potential import analyse
    from ai.math.range_strength import combo_values, hand_strength, potential

    print("flop HS + two-card potential against a weighted range (random 1326 weights)", flush=True)
    weights = np.random.default_rng(rng.getrandbits(32)).random(1326)
    spots = [rng.sample(range(52), 5) for _ in range(8)]
    # Every holding: "22+" and each high card with any kicker, suited and offsuit.
    text = ",".join(["22+"] + [f"{high}2{s}+" for high in "AKQJT98765432"[:-1] for s in "so"])
    with warnings.catch_warnings():  # deprecated pyparsing calls inside eval7
        warnings.simplefilter("ignore", DeprecationWarning)
        everything = eval7.HandRange(text)
    k = 0

    def next_spot() -> tuple[tuple[int, int], tuple[int, int, int]]:
        nonlocal k
        cards = spots[k % len(spots)]
        k += 1
        return (cards[0], cards[1]), (cards[2], cards[3], cards[4])

    def eval7_exact() -> None:
        hole, board = next_spot()
        eval7.py_hand_vs_range_exact(
            [eval7.Card(FULL_DECK[c]) for c in hole],
            everything,
            [eval7.Card(FULL_DECK[c]) for c in board],
        )

    def eval7_sampled() -> None:
        hole, board = next_spot()
        eval7.py_hand_vs_range_monte_carlo(
            [eval7.Card(FULL_DECK[c]) for c in hole],
            everything,
            [eval7.Card(FULL_DECK[c]) for c in board],
            10_000,
        )

    hs_ms = _ms_per_call(eval7_exact, seconds / 6, at_most=200)
    mc_ms = _ms_per_call(eval7_sampled, seconds / 6, at_most=200)
    # eval7 has no potential: its exact call is HS on the current board, its Monte Carlo the
    # equity to the river; together they bracket the work of HS + PPot2.
    reference = f"eval7: HS {hs_ms:5.2f} ms, river equity (10k samples) {mc_ms:5.2f} ms"

    def exact() -> None:
        hole, board = next_spot()
        analyse(list(hole), list(board), weights, lookahead=2)

    exact()
    _line(
        "ai.math HS + PPot2 (exact enumeration)",
        f"{_ms_per_call(exact, seconds / 3):7.2f} ms",
        reference,
    )

    def sampled() -> None:
        hole, board = next_spot()
        hand_strength(strength_of((*hole, *board)), combo_values(board), weights)
        potential(hole, board, weights, 300, seed=k)

    sampled()
    ms = _ms_per_call(sampled, seconds / 3)
    _line("ai.math HS + PPot Monte Carlo (300; bots)", f"{ms:7.2f} ms", reference)


def bench_poki(seconds: float, seed: int) -> None:
    from ai.bots.poki import PokiBot
    from ai.game.observation import ActionRecord
    from ai.game.observe import apply, observe
    from ai.sim.rules import CALL, CHECK
    from ai.sim.state import SimState

    print("poki decision at 500 rollouts (flop, 6-max, everyone called preflop)", flush=True)
    for variant in (Variant.LIMIT, Variant.NO_LIMIT):
        config = TableConfig(variant=variant, seats=6, small_blind=1, big_blind=2)
        bot = PokiBot(seed, rollouts=500, early_stop=False)
        times: list[float] = []
        deadline = time.perf_counter() + seconds / 2
        hand = 0
        while time.perf_counter() < deadline or len(times) < 2:
            state = SimState.new_hand(config, dict.fromkeys(range(1, 7), 400), 6, seed=hand)
            history: list[ActionRecord] = []
            while state.street == 0:  # everyone calls preflop
                obs = observe(state, history, hand)
                kind = CALL if obs.legal.can_call else CHECK
                from ai.game.observation import Decision

                apply(state, Decision(kind), history, obs)
            obs = observe(state, history, hand)
            start = time.perf_counter()
            bot.decide(obs)
            times.append(time.perf_counter() - start)
            hand += 1
        mean = 1000 * sum(times) / len(times)
        _line(
            f"poki {variant.value}, {len(obs.opponents)} opponents",
            f"{mean:7.0f} ms/decision",
            f"({len(times)} decisions; values of check/call and every bet size)",
        )


def bench_arena(seconds: float, seed: int) -> None:
    from ai.arena.match import Match, MatchConfig

    print(f"arena 6-max Limit: {', '.join(ARENA_BOTS)}", flush=True)
    match = Match(MatchConfig(Variant.LIMIT, ARENA_BOTS, hands=1, seed=seed))
    match.play_deals(0, 50)  # warm the caches and the numba kernels
    hands = 0
    start, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        match.play_deals(hands, hands + 200)
        hands += 200
    wall = hands / (time.perf_counter() - start)
    per_cpu = hands / max(time.process_time() - cpu, 1e-9)
    _line("arena, one process", f"{wall:8.0f} hands/s", f"CPU time: {per_cpu:6.0f} hands/s")


def bench_agreement(hands: int, seed: int) -> None:
    """Our batched evaluator against pkrbot: every pair of hands must order the same way."""
    from ai.math.bench import agreement_with_pkrbot

    start = time.perf_counter()
    result = agreement_with_pkrbot(hands=hands, seed=seed)
    _line(
        f"agreement with pkrbot, {hands:,} random hands",
        f"{int(result['disagreements'])} disagreements",
        f"({time.perf_counter() - start:.1f} s)",
    )


def run(args: argparse.Namespace) -> int:
    seconds = float(getattr(args, "seconds", 5.0))
    seed = int(getattr(args, "seed", 1))
    rng = random.Random(seed)
    print(f"ai: {seconds:.0f} s per section", flush=True)
    bench_evaluator(seconds, rng)
    bench_agreement(int(getattr(args, "agreement_hands", 1_000_000)), seed)
    bench_simulator(seconds, seed)
    bench_strength(seconds, rng)
    bench_poki(seconds, seed)
    from showdown.benchmarks.search import bench_mcts

    bench_mcts(seconds, seed)
    bench_arena(seconds, seed)
    from showdown.benchmarks.models import bench_models

    bench_models(seconds, seed)
    return 0
