"""`showdown calibration`: the advisor's predicted value of each action it took beside the
chips that action went on to win, per bucket of the prediction, with 95% CIs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ai.arena.calibration import calibrate
from ai.sim.rules import CALL, CHECK, FOLD, RAISE
from showdown.cli import main


def row(choice: str, kind: int, value: float, made: float, street: int = 1) -> dict[str, object]:
    actions = [
        {"label": "fold", "kind": FOLD, "value_bb": 0.0, "stderr_bb": 0.0},
        {"label": choice, "kind": kind, "value_bb": value, "stderr_bb": 0.1},
    ]
    return {"player": "mcts-advisor", "street": street, "actions": actions, "choice": choice,
            "made_bb": made}  # fmt: skip


def test_buckets_compare_the_predicted_mean_with_the_made_mean_and_its_ci() -> None:
    rows = [row("call", CALL, 2.0, 1.0), row("call", CALL, 2.0, 3.0),  # calibrated
            row("raise 8", RAISE, 12.0, -4.0, 3), row("raise 8", RAISE, 12.0, -6.0, 3),
            row("check", CHECK, 0.5, 0.5, 0), row("fold", FOLD, 0.0, 0.0)]  # fmt: skip
    result = calibrate(rows, "mcts-advisor")
    assert result.folds == 1  # valued exactly at 0, left out
    assert result.overall.decisions == 5
    by_label = {b.label: b for b in result.buckets}
    assert set(by_label) == {"[0, 1)", "[1, 3)", ">= 10"}
    called = by_label["[1, 3)"]
    assert (called.predicted_bb, called.made_bb) == (2.0, 2.0) and called.calibrated
    raised = by_label[">= 10"]
    assert raised.error_bb == pytest.approx(-17.0) and not raised.calibrated  # optimistic
    assert [b.label for b in result.streets] == ["preflop", "flop", "river"]
    with pytest.raises(ValueError, match="no searched decision"):
        calibrate(rows, "loki")
    with pytest.raises(ValueError, match="not a searched decision row"):
        calibrate([{"player": "mcts-advisor"}], "mcts-advisor")


def test_the_command_plays_the_advisor_and_writes_rows_json_and_a_chart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chart, rows = tmp_path / "calibration.png", tmp_path / "rows.jsonl"
    argv = ["calibration", "--game", "limit", "--hands", "4", "--iterations", "64",
            "--seed", "3", "--json", "--chart", str(chart), "--write-rows", str(rows)]  # fmt: skip
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["player"] == "mcts-advisor" and report["overall"]["decisions"] > 0
    assert chart.stat().st_size > 0
    written = [json.loads(line) for line in rows.read_text().splitlines()]
    assert {r["player"] for r in written} == {"mcts-advisor"}
    # The rows read back give the same figures.
    assert main(["calibration", "--rows", str(rows), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == report
    assert main(["calibration", "--against", "no-such-bot"]) == 2
    assert "unknown" in capsys.readouterr().err
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"player": "mcts-advisor"}\n')
    assert main(["calibration", "--rows", str(broken)]) == 1
    assert "not a searched decision row" in capsys.readouterr().err
