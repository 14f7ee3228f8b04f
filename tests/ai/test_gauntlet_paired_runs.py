"""Two gauntlet runs of the same deals compared deal by deal (`showdown gauntlet --paired`).

Two bots stand in for a branch and main: each is the bot under test of a run on the
same deals, with the exact measure against always-raise (both policies known).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ai.arena.stats import half_width95
from ai.gauntlet import GauntletConfig, GauntletResult, play_gauntlet
from ai.gauntlet.paired_runs import CHIPS, EXACT, paired_runs
from ai.gauntlet.report import gauntlet_json
from holdem.config import Variant
from showdown.cli import main


def _run(first: str, seed: int = 4) -> GauntletResult:
    config = GauntletConfig(
        Variant.LIMIT, (first, "always-raise"), ("random",), hands=16, seed=seed, exact=True
    )
    return play_gauntlet(config)


@pytest.fixture(scope="module")
def runs() -> tuple[GauntletResult, GauntletResult]:
    return _run("calling-station"), _run("blueprint")


def _json(result: GauntletResult) -> dict[str, Any]:
    # Through text, as the command reads the files.
    loaded: dict[str, Any] = json.loads(json.dumps(gauntlet_json(result)))
    return loaded


def test_the_difference_is_taken_deal_by_deal(
    runs: tuple[GauntletResult, GauntletResult],
) -> None:
    new, base = runs
    by_measure = {d.measure: d for d in paired_runs(_json(new), _json(base))}
    chips = by_measure[CHIPS]
    per_deal = new.cell("calling-station", "random").per_deal
    per_deal = per_deal - base.cell("blueprint", "random").per_deal
    half = 100 * half_width95(per_deal)
    assert chips.bb_per_100 == pytest.approx(100 * per_deal.mean(), abs=1e-3)
    assert chips.ci95 == pytest.approx((chips.bb_per_100 - half, chips.bb_per_100 + half), abs=1e-3)
    assert chips.new_bb_per_100 == pytest.approx(new.cells[0].bb_per_100, abs=1e-3)
    exact = by_measure[EXACT]
    assert exact.other == "always-raise"
    exact_per_deal = new.exact[0].per_deal - base.exact[0].per_deal
    assert exact.bb_per_100 == pytest.approx(100 * exact_per_deal.mean(), abs=1e-3)
    # The decisions of the breakdown add up to the exact measure in each run, so their
    # differences add up to its difference.
    decisions = [d for d in by_measure.values() if d.measure.startswith(f"{EXACT}: ")]
    assert decisions
    assert sum(d.bb_per_100 for d in decisions) == pytest.approx(exact.bb_per_100, abs=1e-2)


def test_a_run_against_itself_differs_by_nothing(
    runs: tuple[GauntletResult, GauntletResult],
) -> None:
    run = _json(runs[0])
    for d in paired_runs(run, run):
        assert (d.bb_per_100, d.ci95) == (0.0, (0.0, 0.0))
        assert d.new_bb_per_100 == d.base_bb_per_100


def test_runs_of_other_deals_or_without_figures_are_refused(
    runs: tuple[GauntletResult, GauntletResult],
) -> None:
    new = _json(runs[0])
    other_seed = {**new, "seed": new["seed"] + 1}
    with pytest.raises(ValueError, match="seed"):
        paired_runs(new, other_seed)
    old = json.loads(json.dumps(new))
    for cell in old["cells"]:
        del cell["per_deal_bb"]  # as a run written before the figures were kept
    with pytest.raises(ValueError, match="per-deal"):
        paired_runs(new, old)


def test_the_command_compares_two_files(
    runs: tuple[GauntletResult, GauntletResult],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    files = []
    for name, result in zip(("new", "base"), runs, strict=True):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(gauntlet_json(result)), encoding="utf-8")
        files.append(str(path))
    assert main(["gauntlet", "--paired", *files, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    expected = paired_runs(_json(runs[0]), _json(runs[1]))
    assert [(r["measure"], r["bb_per_100"]) for r in rows] == [
        (d.measure, round(d.bb_per_100, 3)) for d in expected
    ]
    chart = tmp_path / "paired.png"
    assert main(["gauntlet", "--paired", *files, "--chart", str(chart)]) == 0
    text = capsys.readouterr().out
    assert "exact minus always-raise" in text and "new - base" in text
    assert chart.read_bytes().startswith(b"\x89PNG")
    assert main(["gauntlet", "--paired", files[0], str(tmp_path / "missing.json")]) == 2
    assert "--paired" in capsys.readouterr().err


def test_the_per_deal_figures_are_kept_in_the_json(
    runs: tuple[GauntletResult, GauntletResult],
) -> None:
    run = _json(runs[0])
    (cell,) = [c for c in run["cells"] if c["bot"] == "calling-station"]
    assert np.mean(cell["per_deal_bb"]) * 100 == pytest.approx(cell["bb_per_100"], abs=1e-3)
    row = run["exact"][0]["rows"][0]
    assert len(row["deals"]) == len(row["per_deal_bb"]) > 0
