"""The arena: seeded, zero-sum, duplicate seat rotation, the command's JSON and chart."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ai.arena import MatchConfig, play_match, win_rates
from ai.arena.match import Match, display_names
from holdem.actions import EventKind
from holdem.config import Straddle, Variant
from holdem.history import HandRecord
from holdem.phh import replay_text, to_phh
from showdown.cli import main

SIMPLE = ("rational", "aggressive", "cautious", "calling-station", "always-raise", "random")


def test_same_seed_same_match_and_another_seed_differs() -> None:
    config = MatchConfig(Variant.LIMIT, SIMPLE, hands=150, seed=4)
    first = play_match(config)
    again = play_match(config)
    other = play_match(MatchConfig(Variant.LIMIT, SIMPLE, hands=150, seed=5))
    assert np.array_equal(first.net_bb, again.net_bb)
    assert not np.array_equal(first.net_bb, other.net_bb)


@pytest.mark.parametrize("game", [Variant.LIMIT, Variant.NO_LIMIT])
def test_chips_sum_to_zero_every_hand(game: Variant) -> None:
    result = play_match(MatchConfig(game, (*SIMPLE, "always-fold", "loki"), hands=60, seed=1))
    assert result.net_bb.shape == (60, 8)
    assert np.allclose(result.net_bb.sum(axis=1), 0.0)
    assert any(abs(r.bb_per_100) > 0 for r in win_rates(result))


def test_duplicate_rotates_every_bot_through_every_seat() -> None:
    """Two identical deterministic bots: each deal's rotations mirror, so both net zero."""
    config = MatchConfig(
        Variant.LIMIT, ("calling-station", "calling-station"), hands=40, seed=2, duplicate=True
    )
    result = play_match(config)
    assert result.rotations == 2 and result.hands == 40
    per_deal = result.net_bb.reshape(20, 2, 2).sum(axis=1)
    assert np.allclose(per_deal, 0.0)
    assert np.any(result.net_bb != 0)  # the single hands do win and lose


def seats_played(config: MatchConfig) -> list[list[int]]:
    """Each hand's seat of every bot (bot order), in the order the match plays them."""
    match = Match(config)
    seen: list[list[int]] = []
    original = match.play_hand

    def spy(
        seat_of_bot: Sequence[int],
        holes: Sequence[tuple[int, int]],
        runout: Sequence[int],
        button: int,
        hand_key: int = 0,
        **rules: bool,
    ) -> list[int]:
        seen.append(list(seat_of_bot))
        return original(seat_of_bot, holes, runout, button, hand_key, **rules)

    match.play_hand = spy  # type: ignore[method-assign]
    match.play()
    return seen


def test_duplicate_gives_every_bot_each_seats_cards() -> None:
    config = MatchConfig(
        Variant.NO_LIMIT, ("rational", "random", "cautious"), hands=3, duplicate=True
    )
    assert seats_played(config) == [[1, 2, 3], [2, 3, 1], [3, 1, 2]]


def test_shuffled_seats_change_who_sits_after_whom_and_keep_each_deals_rotations() -> None:
    bots = ("rational", "aggressive", "cautious", "calling-station")
    config = MatchConfig(
        Variant.LIMIT, bots, hands=4 * 30, seed=7, duplicate=True, shuffle_seats=True
    )
    seen = seats_played(config)
    deals = [seen[d : d + 4] for d in range(0, len(seen), 4)]
    for rotations in deals:  # every bot still holds every seat's cards once a deal
        assert all(sorted(seats) == [1, 2, 3, 4] for seats in zip(*rotations, strict=True))
    # The bot sitting next after bot 0: fixed in rotations, varied when shuffled.
    next_after = {seats.index(seats[0] % 4 + 1) for seats in seen}
    assert next_after == {1, 2, 3}
    fixed = seats_played(replace(config, shuffle_seats=False))
    assert {seats.index(seats[0] % 4 + 1) for seats in fixed} == {1}


def test_shuffled_seats_deal_the_same_cards_to_the_seats() -> None:
    config = MatchConfig(
        Variant.LIMIT, ("rational", "random", "cautious"), hands=30, seed=3, duplicate=True,
        record=True,
    )  # fmt: skip
    shuffled = play_match(replace(config, shuffle_seats=True)).records
    fixed = play_match(config).records

    def by_seat(records: list[dict[str, Any]], field: str) -> list[object]:
        return [sorted((s["seat"], s[field]) for s in r["seats"]) for r in records]

    assert by_seat(shuffled, "hole_cards") == by_seat(fixed, "hole_cards")
    assert by_seat(shuffled, "player_id") != by_seat(fixed, "player_id")


def test_parallel_jobs_are_reproducible() -> None:
    config = MatchConfig(Variant.LIMIT, SIMPLE[:4], hands=80, seed=3)
    first = play_match(config, jobs=2)
    again = play_match(config, jobs=2)
    assert first.hands == 80
    assert np.array_equal(first.net_bb, again.net_bb)


def test_display_names_keep_repeated_styles_apart() -> None:
    assert display_names(["loki", "loki", "poki"]) == ("loki", "loki#2", "poki")


def test_arena_command_json_and_chart(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    chart = tmp_path / "arena.png"
    args = ["arena", "--game", "no-limit", "--bots", "rational,calling,random", "--hands", "90"]
    assert main([*args, "--seed", "7", "--duplicate", "--json", "--chart", str(chart)]) == 0
    captured = capsys.readouterr()
    payload = json.loads(captured.out)
    assert payload["hands"] == 90
    assert [b["name"] for b in payload["bots"]] == ["rational", "calling-station", "random"]
    for bot in payload["bots"]:
        lo, hi = bot["ci95"]
        assert lo <= bot["bb_per_100"] <= hi
    assert abs(sum(b["bb_per_100"] for b in payload["bots"])) < 1e-6 * 90 + 0.01
    assert chart.stat().st_size > 5_000 and chart.read_bytes()[:4] == b"\x89PNG"
    assert "hands/s" in captured.err


def test_arena_command_table_and_bad_style(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--bots", "loki,always-fold", "--hands", "20"]) == 0
    out = capsys.readouterr().out
    assert "bb/100" in out and "loki" in out and "always-fold" in out
    assert main(["arena", "--bots", "loki,nobody", "--hands", "5"]) == 2
    assert "unknown bot style" in capsys.readouterr().err


def test_arena_command_shuffles_seats_and_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["arena", "--bots", "rational,calling,random", "--hands", "30", "--duplicate"]
    assert main([*args, "--shuffle-seats"]) == 0
    assert "30 hands (duplicate, seats shuffled)" in capsys.readouterr().out
    assert main([*args, "--shuffle-seats", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["shuffle_seats"] is True


def test_round_robin_heads_up_matrix_is_antisymmetric() -> None:
    from ai.arena.roundrobin import lineups, play_round_robin

    assert lineups(4, 2) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert lineups(5, 3)[-1] == (4, 0, 1)
    config = MatchConfig(
        Variant.LIMIT, ("rational", "calling-station", "cautious"), hands=40, duplicate=True
    )
    result = play_round_robin(config, 2)
    matrix = result.matrix()
    assert np.allclose(matrix + matrix.T, 0.0, equal_nan=True) or np.allclose(
        np.nan_to_num(matrix + matrix.T), 0.0
    )
    assert len(result.tables) == 3
    assert abs(sum(r.total_bb for r in result.overall)) < 1e-9


def test_arena_command_round_robin(capsys: pytest.CaptureFixture[str]) -> None:
    bots = "rational,aggressive,cautious,calling,random"
    assert main(["arena", "--bots", bots, "--table-size", "3", "--hands", "30", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["hands"] == 5 * 30 and len(payload["tables"]) == 5
    assert all(len(t["bots"]) == 3 for t in payload["tables"])


def test_home_game_rules_in_the_arena(capsys: pytest.CaptureFixture[str]) -> None:
    """A straddle in every hand but every third deal's bomb pot: the simulator's hands,
    replayed through the rules core for their records, agree with it to the chip."""
    config = MatchConfig(
        Variant.NO_LIMIT, ("rational", "aggressive", "calling-station", "loki"), hands=24,
        seed=5, duplicate=True, record=True, straddle=Straddle.UTG, bomb_pot_every=3,
    )  # fmt: skip
    result = play_match(config)
    assert np.allclose(result.net_bb.sum(axis=1), 0)
    bombs = [r for r in result.records if r["bomb_pot"]]
    straddled = [r for r in result.records if any(e["kind"] == "straddle" for e in r["events"])]
    assert len(bombs) == 2 * 4 and len(straddled) == 4 * 4  # deals 3 and 6, four rotations
    assert all(e["kind"] != "small_blind" for r in bombs for e in r["events"])
    args = ["arena", "--game", "no-limit", "--bots", "rational,calling,random", "--hands", "9"]
    assert main([*args, "--straddle", "button", "--bomb-pot-every", "2", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert (payload["straddle"], payload["bomb_pot_every"]) == ("button", 2)
    assert main(["arena", "--bots", "rational,calling", "--straddle", "utg"]) == 2
    assert "no-limit rule" in capsys.readouterr().err


def test_run_it_twice_in_the_arena(capsys: pytest.CaptureFixture[str]) -> None:
    """All-in before the river at a run-it-twice table: every bot agrees, the board is run
    twice by the rules core, the chips of each run add up, and the records replay."""
    config = MatchConfig(
        Variant.NO_LIMIT, ("aggressive", "calling-station", "aggressive"), hands=30, seed=3,
        duplicate=True, record=True, straddle=Straddle.UTG, stack_bb=20, run_it_max=2,
    )  # fmt: skip
    result = play_match(config)
    assert np.allclose(result.net_bb.sum(axis=1), 0)
    twice = [r for r in result.records if len(r["boards"]) == 2]
    assert twice and all(len(b) == 5 for r in twice for b in r["boards"])
    for doc in twice:
        record = HandRecord.model_validate(doc)
        assert record.boards[0] != record.boards[1] and record.board == record.boards[0]
        assert any(e.kind is EventKind.RUNOUTS and e.amount == 2 for e in record.events)
        assert sum(record.net.values()) == 0
        finals = [record.seat(s).final_stack for s in (seat.seat for seat in record.seats)]
        assert replay_text(to_phh(record), check_recorded=True) == finals
    # Each hand's net in the match is its record's: the rules core's chips for every run.
    for doc, row in zip(result.records, result.net_bb, strict=True):
        nets = sorted(s["final_stack"] - s["starting_stack"] for s in doc["seats"])
        assert np.allclose(sorted(row * 2), nets)
    args = ["arena", "--game", "no-limit", "--bots", "aggressive,calling", "--hands", "4"]
    assert main([*args, "--run-it", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["run_it"] == 3
    assert main([*args, "--run-it", "4"]) == 2
    assert "--run-it must be 1 (off) to 3" in capsys.readouterr().err
