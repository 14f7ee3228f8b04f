"""The searched values' calibration: the arena writes every searched decision with the
chips its action went on to make, and `showdown records correction` measures, per
street, action and crowd, how far the values were from them."""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path

import pytest

from ai.arena import MatchConfig, play_match
from ai.arena.misses import measure
from ai.sim.rules import CALL, FOLD, RAISE, RIVER
from holdem.config import Variant
from showdown.cli import main


def test_the_arena_writes_each_searched_decision_with_what_it_made(tmp_path: Path) -> None:
    config = MatchConfig(Variant.LIMIT, ("mcts", "loki", "loki"), hands=30, seed=2, record=True,
                         decisions=True)  # fmt: skip
    result = play_match(config)
    rows = result.decisions
    assert rows and {r["player"] for r in rows} == {"mcts"}
    # Preflop is Loki's rules' (not searched); every later decision of mcts is.
    acted = 0
    for hand in result.records:
        seat = next(s["seat"] for s in hand["seats"] if s["player_id"] == "mcts")
        acted += sum(
            1
            for e in hand["events"]
            if e["seat"] == seat and e["street"] != "preflop"
            and e["kind"] in ("fold", "check", "call", "bet", "raise")
        )  # fmt: skip
    assert len(rows) == acted
    for row in rows:
        assert row["street"] > 0 and row["limit"]
        assert row["choice"] in {a["label"] for a in row["actions"]}
        if row["choice"] == "fold":
            assert row["made_bb"] == 0.0
    # A hand's later decisions make what the earlier ones made, less the chips put in
    # between: never more.
    by_hand: dict[int, list[float]] = {}
    for row in rows:
        by_hand.setdefault(row["hand_key"], []).append(row["made_bb"])
    for made in by_hand.values():
        assert all(later >= earlier for earlier, later in pairwise(made))

    # The command writes them and `records correction` measures them.
    path = tmp_path / "decisions.jsonl"
    argv = ["arena", "--game", "limit", "--bots", "mcts,loki,loki", "--hands", "30"]
    assert main([*argv, "--seed", "2", "--decisions", str(path)]) == 0
    written = [json.loads(line) for line in path.read_text().splitlines()]
    assert written == rows
    assert main(["records", "correction", str(path), "--player", "mcts", "--json"]) == 0


def test_records_correction_measures_and_refuses_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def row(choice: str, kind: int, value: float, made: float, in_hand: int) -> dict[str, object]:
        actions = [
            {"label": "fold", "kind": FOLD, "value_bb": 0.0, "stderr_bb": 0.0},
            {"label": choice, "kind": kind, "value_bb": value, "stderr_bb": 0.1},
        ]
        return {"player": "mcts", "street": RIVER, "in_hand": in_hand, "actions": actions,
                "choice": choice, "made_bb": made}  # fmt: skip

    rows = [row("call", CALL, 3.0, 1.0, 3), row("call", CALL, 3.0, -1.0, 3),
            row("raise 8", RAISE, 5.0, 9.0, 2), row("fold", FOLD, 0.0, 0.0, 3)]  # fmt: skip
    cells = measure(rows, "mcts")
    assert [(c.kind, c.crowded, c.decisions, c.missed_bb) for c in cells] == [
        (CALL, True, 2, -3.0),
        (RAISE, False, 1, 4.0),
    ]  # the fold, valued exactly, is left out
    path = tmp_path / "d.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert main(["records", "correction", str(path), "--player", "mcts"]) == 0
    out = capsys.readouterr().out
    assert "river    call          3+          2    -3.00" in out
    assert main(["records", "correction", str(path), "--player", "poki"]) == 2
    assert "no searched decision of poki" in capsys.readouterr().err
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"player": "mcts"}\n')
    assert main(["records", "correction", str(broken), "--player", "mcts"]) == 2
    assert "not a searched decision" in capsys.readouterr().err
