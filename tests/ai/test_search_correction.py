"""What the search's values miss, added back: at Limit tables of three or more the
offsets of `ai.search.correction` (a fixed table, or learned in play from the bot's own
decisions and results) move the searched values before the choice; the arena writes the
searched decisions they are measured from, and `showdown records correction` measures
them."""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path

import pytest
from search_spots import LIMIT2, LIMIT6, NL6, bot, spot

from ai.arena import MatchConfig, play_match
from ai.arena.match import Match
from ai.arena.misses import measure
from ai.bots.mcts import MctsBot, make_mcts
from ai.search.correction import LIMIT_TABLE, SHARED_TABLE, Learned
from ai.sim.rules import BET, CALL, CHECK, FOLD, RAISE, RIVER
from holdem.config import Variant
from showdown.cli import main

# Six seats: the big blind (2), under the gun (3) and the button (6) checked to the
# river, where the big blind bets; under the gun, holding a king, decides with three in
# the hand.
PREFLOP = [(CALL, 0), (FOLD, 0), (FOLD, 0), (CALL, 0), (FOLD, 0), (CHECK, 0)]
CHECKED = [(CHECK, 0)] * 6
RIVER_BET = spot(LIMIT6, {3: "KhQc"}, [*PREFLOP, *CHECKED, (BET, 4)], board="Ks8d4c2h7s")
# Nothing may go on: the call and the raise lose 50 big blinds they did not make in play.
PUNISHED = {(RIVER, CALL, True): -50.0, (RIVER, RAISE, True): -50.0}


def searched(offsets: dict[tuple[int, int, bool], float] | None) -> tuple[int, dict[str, float]]:
    made = bot(iterations=300, search_preflop=False)
    made.limit_offsets = offsets
    decision = made.decide(RIVER_BET)
    assert made.last is not None and made.last.corrected == (offsets is not None)
    return decision.kind, made.last.values


def test_the_offsets_move_the_values_and_decide() -> None:
    assert RIVER_BET.n_in_hand == 3 and RIVER_BET.street == RIVER
    kind, values = searched(None)
    assert kind in (CALL, RAISE)  # top pair goes on against one bet
    punished_kind, punished = searched(PUNISHED)
    assert punished_kind == FOLD
    # The same search (seeded by the spot), each value moved by exactly its offset.
    assert punished["fold"] == values["fold"] == 0.0
    for label, value in values.items():
        if label != "fold":
            assert punished[label] == pytest.approx(value - 50.0)


def test_the_reason_says_the_values_include_play() -> None:
    made = bot(iterations=300, search_preflop=False)
    made.limit_offsets = LIMIT_TABLE
    made.explain = True
    text = made.decide(RIVER_BET).reason
    assert "plus what such actions made in play" in text
    made.limit_offsets = None
    assert "made in play" not in made.decide(RIVER_BET).reason


def test_only_limit_tables_of_three_or_more_are_corrected() -> None:
    default = make_mcts(1)
    assert default.limit_offsets is SHARED_TABLE and default.learned is None
    assert make_mcts(1, "uncorrected").limit_offsets is None
    assert make_mcts(1, "corrected").limit_offsets is LIMIT_TABLE
    assert isinstance(make_mcts(1, "learned").learned, Learned)
    heads_up = spot(LIMIT2, {1: "KhQc"}, [(CALL, 0), (CHECK, 0)], board="Ks8d4c")
    no_limit = spot(NL6, {3: "KhQc"}, PREFLOP, board="Ks8d4c", stacks=200)
    for observed, corrected in ((heads_up, False), (no_limit, False), (RIVER_BET, True)):
        made = bot(iterations=100, search_preflop=False)
        made.limit_offsets = LIMIT_TABLE
        made.decide(observed)
        assert made.last is not None and made.last.corrected is corrected


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
        assert row["street"] > 0 and row["limit"] and row["corrected"]
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


def test_learned_offsets_are_the_misses_shrunk_towards_zero() -> None:
    learned = Learned(prior=2)
    key = (RIVER, CALL, True)
    # Two river calls of one hand, each valued at 1 bb; the seat netted -4 chips having
    # put in 6 and 10 chips before them (big blind 2): from there they made +1 and +3 bb.
    learned.searched("h1", key, 1.0, 6, 2)
    learned.searched("h1", key, 1.0, 10, 2)
    learned.resolve("h1", -4)
    assert learned.counts == {key: 2}
    assert learned.offsets() == {key: pytest.approx((0.0 + 2.0) / (2 + 2))}
    # A hand whose result never came is dropped when the next one starts.
    learned.searched("h2", key, 9.0, 0, 2)
    learned.searched("h3", key, 1.0, 0, 2)
    learned.resolve("h3", 2)
    assert learned.counts == {key: 3}


def test_a_learning_bot_learns_what_its_decisions_made_in_the_match() -> None:
    config = MatchConfig(Variant.LIMIT, ("mcts-learned", "loki", "loki"), hands=24, seed=3,
                         decisions=True)  # fmt: skip
    match = Match(config)
    learner = match.bots[0]
    assert isinstance(learner, MctsBot) and learner.learned is not None
    # With a prior this heavy the offsets stay at zero, so the values it chose on are the
    # searched ones, and what it learned must be the rows' own misses.
    learner.learned = Learned(prior=10**12)
    rows = match.play().decisions
    cells = measure(rows, "mcts-learned")
    assert cells and learner.learned.counts == {
        (c.street, c.kind, c.crowded): c.decisions for c in cells
    }
    for c in cells:
        key = (c.street, c.kind, c.crowded)
        assert learner.learned.sums[key] == pytest.approx(c.missed_bb * c.decisions)
