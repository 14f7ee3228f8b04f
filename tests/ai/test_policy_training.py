"""`showdown train blueprint`: the report, the checkpoint, and a resume that continues
exactly as the uninterrupted run (Leduc: the same code path, seconds to run)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from showdown.cli import build_parser, main


def _train(out: Path, iterations: int, *extra: str) -> int:
    return main(
        [
            "train", "blueprint", "--game", "leduc", "--iterations", str(iterations),
            "--eval-every", "2000", "--seed", "4", "--out", str(out), *extra,
        ]
    )  # fmt: skip


def test_a_resumed_run_equals_the_uninterrupted_one(tmp_path: Path) -> None:
    whole, split = tmp_path / "whole", tmp_path / "split"
    assert _train(whole, 6000) == 0
    assert _train(split, 2000) == 0
    assert _train(split, 6000, "--resume", str(split / "checkpoint.npz")) == 0
    with np.load(whole / "checkpoint.npz") as a, np.load(split / "checkpoint.npz") as b:
        assert int(a["iterations"]) == int(b["iterations"]) == 6000
        assert np.array_equal(a["average"], b["average"])
        assert np.array_equal(a["regret"], b["regret"])
    report = json.loads((split / "report.json").read_text())
    rows = report["history"]
    assert [r["iterations"] for r in rows] == [2000, 4000, 6000]
    assert rows[-1]["exploitability"] < rows[0]["exploitability"]
    assert (split / "convergence.png").stat().st_size > 1000


def test_a_checkpoint_of_other_settings_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _train(tmp_path / "a", 2000) == 0
    code = main(
        [
            "train", "blueprint", "--game", "leduc", "--iterations", "4000", "--seed", "5",
            "--eval-every", "2000", "--out", str(tmp_path / "b"),
            "--resume", str(tmp_path / "a" / "checkpoint.npz"),
        ]
    )  # fmt: skip
    assert code == 2
    assert "other settings" in capsys.readouterr().err


def test_the_opponent_model_training_keeps_its_options() -> None:
    args = build_parser().parse_args(["train", "--phh", "hands", "--folds", "3"])
    assert args.target is None and args.folds == 3 and args.run.__name__ == "run"
    args = build_parser().parse_args(["train", "blueprint", "--iterations", "5000"])
    assert args.target == "blueprint" and args.run.__name__ == "run_blueprint"
