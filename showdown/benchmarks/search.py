"""MCTS speed for `showdown bench ai`: iterations per second on one core for a 6-max flop
decision (Limit and No-Limit) with the opponent model in the loop, the time of a
2,000-iteration decision, and poki's rollouts per second on the same spots as the anchor;
then how much of a decision the compiled iterations and the deals take.
Rates are per CPU-second of this process (one core, whatever else the machine runs);
the decision's wall time is printed beside.

The opponent model is the process's shared one (the packaged network, or the frequency
tables when none is packaged); when no network is packaged, a network of the trained
shape with random weights is measured too, so the network's cost is always in a line.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import numpy as np

from holdem.config import TableConfig, Variant

if TYPE_CHECKING:
    from ai.game.observation import Observation
    from ai.models.model import ModelSet

ITERATIONS = 2000
HIDDEN = 48  # ai.models.training.TrainConfig.hidden


def _line(label: str, value: str, reference: str = "") -> None:
    print(f"  {label:<44}{value:>18}   {reference}", flush=True)


def flop_spot(variant: Variant, hand: int) -> Observation:
    """The first flop decision of a 6-max hand where everyone called preflop."""
    from ai.game.observation import ActionRecord, Decision
    from ai.game.observe import apply, observe
    from ai.sim.rules import CALL, CHECK
    from ai.sim.state import SimState

    config = TableConfig(variant=variant, seats=6, small_blind=1, big_blind=2)
    state = SimState.new_hand(config, dict.fromkeys(range(1, 7), 400), 6, seed=hand)
    history: list[ActionRecord] = []
    while state.street == 0:
        obs = observe(state, history, hand)
        apply(state, Decision(CALL if obs.legal.can_call else CHECK), history, obs)
    return observe(state, history, hand)


def random_network(seed: int) -> ModelSet:
    from ai.models.features import N_FEATURES, N_SIZES
    from ai.models.inference import NumpyNet
    from ai.models.model import ModelSet
    from ai.models.weights import NetWeights

    rng = np.random.default_rng(seed)

    def w(*shape: int) -> np.ndarray:
        return (rng.standard_normal(shape) * 0.3).astype(np.float32)

    weights = NetWeights(
        w(N_FEATURES, HIDDEN), w(HIDDEN), w(HIDDEN, HIDDEN), w(HIDDEN),
        w(HIDDEN, 3), w(3), w(HIDDEN, N_SIZES), w(N_SIZES),
    )  # fmt: skip
    return ModelSet("random-weights", NumpyNet(weights))


def bench_mcts(seconds: float, seed: int) -> None:
    from ai.bots.mcts import MctsBot
    from ai.bots.poki import PokiBot
    from ai.models.model import shared_models

    models: list[ModelSet] = [shared_models()]
    if models[0].generic is None:
        models.append(random_network(seed))
    print(
        f"MCTS decision at {ITERATIONS} iterations (flop, 6-max, everyone called preflop)",
        flush=True,
    )
    for variant in (Variant.LIMIT, Variant.NO_LIMIT):
        poki = PokiBot(seed, rollouts=500, early_stop=False)
        poki_rollouts = 0
        poki_time = 0.0
        for hand in range(3):
            obs = flop_spot(variant, hand)
            start = time.process_time()
            poki.decide(obs)
            poki_time += time.process_time() - start
            poki_rollouts += poki.last_rollouts * len(poki.candidates(obs))
        anchor = f"poki {poki_rollouts / poki_time:6.0f} rollouts/s (same spots, CPU time)"
        for model in models:
            bot = MctsBot(seed, iterations=ITERATIONS, models=model)
            bot.decide(flop_spot(variant, 99))  # warm the kernels
            times: list[float] = []
            cpu: list[float] = []
            dealing = iterating = 0.0
            deadline = time.perf_counter() + seconds / (2 * len(models))
            hand = 0
            while time.perf_counter() < deadline or len(times) < 2:
                obs = flop_spot(variant, hand)
                start, start_cpu = time.perf_counter(), time.process_time()
                bot.decide(obs)
                times.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
                assert bot.last is not None
                dealing += bot.last.deal_seconds
                iterating += bot.last.iteration_seconds
                hand += 1
            mean = sum(times) / len(times)
            mean_cpu = sum(cpu) / len(cpu)
            _line(
                f"mcts {variant.value} ({model.version})",
                f"{ITERATIONS / mean_cpu:7.0f} iter/s",
                f"{1000 * mean:5.0f} ms/decision wall, {1000 * mean_cpu:4.0f} ms CPU "
                f"({len(times)} decisions); {anchor}",
            )
            _line(
                "  of which the compiled iterations",
                f"{ITERATIONS * len(cpu) / iterating:7.0f} iter/s",
                f"{1000 * iterating / len(cpu):5.1f} ms/decision CPU; dealing "
                f"{1000 * dealing / len(cpu):4.1f} ms (holdings, boards, strengths)",
            )
