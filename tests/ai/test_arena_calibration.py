"""`showdown calibration`: the advisor's predicted value of each action it took beside the
chips that action went on to win, per bucket of the prediction, with 95% CIs."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from ai.arena.calibration import EDGES, calibrate, chosen_pairs, clustered_half_width95
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


def spot(choice: str, kind: int, made: float, to: float, folds: float, folded_out: bool,
         pot: float = 6.0, call: float = 0.0, committed: float = 0.0, behind: float = 97.0,
         ) -> dict[str, object]:  # fmt: skip
    """A No-Limit decision row with the spot's chips, as `ai.arena.match.decision_row`."""
    chosen = {"label": choice, "kind": kind, "value_bb": 2.0, "stderr_bb": 0.1, "folds": folds,
              "to_bb": to}  # fmt: skip
    return row(choice, kind, 2.0, made) | {
        "actions": [{"label": "fold", "kind": FOLD, "value_bb": 0.0, "stderr_bb": 0.0}, chosen],
        "pot_bb": pot, "call_bb": call, "committed_bb": committed, "behind_bb": behind,
        "folded_out": folded_out,
    }  # fmt: skip


def test_the_breakdown_by_action_taken_sets_the_simulated_folds_beside_the_played() -> None:
    rows = [
        spot("check", CHECK, 1.0, 0.0, 0.0, False),
        spot("call 2", CALL, 4.0, 2.0, 0.0, False, pot=8.0, call=2.0),  # a third of the pot
        spot("call 90", CALL, -97.0, 97.0, 0.0, False, pot=96.0, call=90.0),  # a shove's call
        spot("bet 4", RAISE, 6.0, 4.0, 0.6, True),  # two thirds of the pot
        spot("bet 4", RAISE, -4.0, 4.0, 0.6, False),
        spot("bet 12", RAISE, 6.0, 12.0, 0.8, True),  # two pots: an overbet
        spot("raise 97", RAISE, 6.0, 97.0, 0.9, False, pot=8.0, call=2.0),  # all we have
        # Preflop the big blind's chip in front: all-in is to committed + behind.
        spot("raise 100", RAISE, 3.0, 100.0, 1.0, True, pot=3.0, committed=1.0, behind=99.0),
    ]
    for k, r in enumerate(rows):
        r["hand_key"] = k
    kinds = {b.label: b for b in calibrate(rows, "mcts-advisor").kinds}
    assert [(label, b.decisions) for label, b in kinds.items()] == [
        ("check", 1), ("call", 1), ("call of an overbet", 1), ("bet or raise", 2),
        ("overbet, not all-in", 1), ("all-in", 2),
    ]  # fmt: skip
    bets = kinds["bet or raise"]
    assert (bets.simulated_folds, bets.played_folds) == (pytest.approx(0.6), 0.5)
    assert bets.made_bb == 1.0 and bets.error_bb == -1.0
    assert kinds["all-in"].simulated_folds == pytest.approx(0.95)
    assert kinds["all-in"].played_folds == 0.5
    # Rows of an older writer (no folds, no committed chips) are still read.
    old = calibrate([row("call", CALL, 2.0, 1.0)], "mcts-advisor").kinds
    assert [b.label for b in old] == ["call"] and math.isnan(old[0].played_folds)


def hands_of_decisions(
    seed: int, hands: int, made_of: Callable[[float], float]
) -> list[dict[str, object]]:
    """Seeded rows: 1-5 decisions a hand, each predicting v, all of one hand sharing the
    hand's luck (the decisions of a hand end with the same chips): made = made_of(v) +
    the hand's noise + the decision's own."""
    rng = np.random.default_rng(seed)
    rows = []
    for hand in range(hands):
        luck = rng.normal(0.0, 8.0)
        for _ in range(int(rng.integers(1, 6))):
            v = float(rng.normal(3.0, 8.0))
            made = made_of(v) + luck + float(rng.normal(0.0, 4.0))
            kind = CHECK if v < 1 else RAISE
            rows.append(row("check" if kind == CHECK else "raise 8", kind, v, made)
                        | {"hand_key": hand})  # fmt: skip
    return rows


def test_a_calibrated_predictor_passes_95_percent_of_runs_and_a_biased_one_fails() -> None:
    # 100 seeded runs of 150 hands each of a predictor that is right on average: the
    # overall interval holds 0 in about 95 of them (a binomial's 2 sd: at least 90).
    # Intervals counting each decision as a draw would not.
    covered = per_decision = 0
    for seed in range(100):
        rows = hands_of_decisions(seed, 150, lambda v: v)
        covered += calibrate(rows, "mcts-advisor").overall.calibrated
        pairs = chosen_pairs(rows, "mcts-advisor")
        error = pairs.made - pairs.predicted
        naive = 1.96 * float(error.std(ddof=1)) / len(error) ** 0.5
        per_decision += abs(float(error.mean())) <= naive
    assert covered >= 90 and per_decision < 85, (covered, per_decision)
    # Optimistic by a third of every positive prediction (the big pots' bias once seen).
    biased = calibrate(hands_of_decisions(5, 1500, lambda v: v - max(v, 0.0) / 3),
                       "mcts-advisor")  # fmt: skip
    assert len(biased.buckets) == len(EDGES) - 1
    failed = {b.label for b in biased.buckets if not b.calibrated}
    assert {"[3, 10)", ">= 10"} <= failed and not biased.overall.calibrated
    top = biased.buckets[-1]
    assert top.error_ci95[1] < 0 and top.error_bb == pytest.approx(-top.predicted_bb / 3, abs=2)


def test_the_intervals_count_the_decisions_of_one_hand_as_one_draw() -> None:
    rng = np.random.default_rng(3)
    values, hands = rng.normal(0.0, 10.0, 200), np.arange(200)
    once = clustered_half_width95(values, hands)
    # Four decisions in each hand that all ended alike: no more evidence than one.
    assert clustered_half_width95(np.repeat(values, 4), np.repeat(hands, 4)) == pytest.approx(once)
    # Counted as 800 hands they would look twice as precise.
    assert clustered_half_width95(np.repeat(values, 4), np.arange(800)) < 0.51 * once
    assert clustered_half_width95(values[:3], np.zeros(3, dtype=np.int64)) == float("inf")


def test_the_command_plays_the_advisor_and_writes_rows_json_and_a_chart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chart, rows = tmp_path / "calibration.png", tmp_path / "rows.jsonl"
    argv = ["calibration", "--game", "limit", "--hands", "4", "--iterations", "64",
            "--seed", "3", "--json", "--chart", str(chart), "--write-rows", str(rows)]  # fmt: skip
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["player"] == "mcts-advisor" and report["overall"]["decisions"] > 0
    assert sum(k["decisions"] for k in report["kinds"]) == report["overall"]["decisions"]
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


def test_the_command_plays_an_outside_agent_of_the_gauntlet(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The validation set's outside agents (texasholdem's, rlcard's) can be the opponent."""
    argv = ["calibration", "--game", "no-limit", "--against", "texasholdem-random",
            "--hands", "2", "--iterations", "32", "--seed", "3", "--json"]  # fmt: skip
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["player"] == "mcts-advisor"
    assert main(["calibration", "--game", "limit", "--against", "texasholdem-random"]) == 2
    assert "does not play limit" in capsys.readouterr().err
