"""`showdown bench ai`: every section prints its figure next to its reference."""

from __future__ import annotations

import argparse

import pytest

from showdown.benchmarks.ai import run


@pytest.mark.slow
def test_bench_ai_prints_every_figure_next_to_its_reference(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run(argparse.Namespace(seconds=0.2, seed=1, agreement_hands=20_000)) == 0
    out = capsys.readouterr().out
    for expected in (
        "M evals/s",
        "pkrbot",
        "eval7",
        "ai.sim limit",
        "pokerkit",
        "HS + PPot2",
        "ms/decision",
        "iter/s",
        "rollouts/s",
        "arena, one process",
        "0 disagreements",
        "hands/s",
    ):
        assert expected in out, expected
