"""`showdown pushfold`: the chart in chips against the published one, ICM, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from showdown.cli import main


def test_chip_chart_json_agrees_with_the_published_chart(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["pushfold", "--stack", "10", "--json", "--iterations", "1500"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["push"]) == len(out["call"]) == 169
    assert out["agreement"]["push"] >= 0.95 and out["agreement"]["call"] >= 0.95


def test_icm_chart_and_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    png = tmp_path / "bubble.png"
    args = ["pushfold", "--stack", "10", "--prizes", "50,30,20", "--others", "3,50"]
    assert main([*args, "--iterations", "500", "--png", str(png)]) == 0
    text = capsys.readouterr().out
    assert "ICM push/fold" in text and "agreement" not in text
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    "args",
    [
        ["--stack", "0.5"],
        ["--ante", "0.1", "--bb-ante", "1"],
        ["--prizes", "a,b"],
        ["--others", "3"],
    ],
)
def test_bad_input_is_refused(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pushfold", *args]) == 2
    assert "showdown pushfold:" in capsys.readouterr().out
