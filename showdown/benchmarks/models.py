"""The opponent model's inference speed: numpy (what the bots and the search use) beside torch.

Single queries (one feature row; and a whole `OpponentModel.predict` with the
features built from an observation) and batches of 4,096 rows, on one core
(torch limited to one thread), in the same run.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

BATCH = 4096


def _rate(fn: Callable[[], int], seconds: float) -> float:
    done = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        done += fn()
    return done / elapsed


def _line(label: str, value: str, reference: str = "") -> None:
    print(f"  {label:<44}{value:>18}   {reference}", flush=True)


def bench_models(seconds: float, seed: int) -> None:
    import torch

    from ai.arena import MatchConfig, play_match
    from ai.game.observe import observe
    from ai.models.dataset import build_dataset
    from ai.models.inference import NumpyNet
    from ai.models.model import OpponentModel, packaged_model
    from ai.models.public import from_record_doc
    from ai.models.replay import decisions
    from ai.models.training import OpponentNet, TrainConfig, train
    from holdem.config import Variant

    torch.set_num_threads(1)
    config = MatchConfig(Variant.NO_LIMIT, ("loki", "rational", "random"), 60, seed, record=True)
    hands = [from_record_doc(d) for d in play_match(config).records]
    data, book = build_dataset(hands)
    models = packaged_model()
    if models.generic is None:  # no packaged network: a small one trained here
        models = models.__class__("bench", NumpyNet(train(data, TrainConfig(epochs=2))))
    assert models.generic is not None
    net = models.generic
    weights = net.weights
    rows = np.ascontiguousarray(np.resize(data.x, (BATCH, data.x.shape[1])))
    single = rows[:1].copy()
    print(f"opponent model ({weights.w1.shape[1]} hidden units x 2, one core)", flush=True)

    def numpy_single() -> int:
        for k in range(256):
            net.actions(rows[k])
        return 256

    torch_net = OpponentNet.of(weights).eval()
    t_rows = torch.from_numpy(rows)
    t_single = torch.from_numpy(single)

    def torch_single() -> int:
        with torch.no_grad():
            for _ in range(256):
                torch.softmax(torch_net(t_single)[0], dim=1)
        return 256

    us_numpy = 1e6 / _rate(numpy_single, seconds / 4)
    us_torch = 1e6 / _rate(torch_single, seconds / 4)
    _line("single query, numpy forward", f"{us_numpy:8.1f} us", f"torch {us_torch:7.1f} us")

    model = OpponentModel(models, book)
    hand = hands[0]
    replay = decisions(hand)
    obs = next(replay).obs
    spot = observe(obs.sim, list(obs.history), obs.hand_key, obs.players) if obs.sim else obs

    def full_single() -> int:
        for _ in range(256):
            model.predict(spot)
        return 256

    us_full = 1e6 / _rate(full_single, seconds / 4)
    _line("single query, features + forward", f"{us_full:8.1f} us", "(OpponentModel.predict)")

    def numpy_batch() -> int:
        net.actions(rows)
        return BATCH

    def torch_batch() -> int:
        with torch.no_grad():
            torch.softmax(torch_net(t_rows)[0], dim=1)
        return BATCH

    numpy_rate = _rate(numpy_batch, seconds / 4)
    torch_rate = _rate(torch_batch, seconds / 4)
    _line(
        f"batched ({BATCH} rows), numpy",
        f"{numpy_rate / 1e3:7.0f} k pred/s",
        f"torch {torch_rate / 1e3:7.0f} k pred/s",
    )
