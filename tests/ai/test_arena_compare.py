"""Reading recorded matches (`ai.arena.compare`, `ai.arena.versus`, `showdown records`):
two bots on the same deals, compared at their first difference; a player's takings split
by opponent; a player against each other player at the same tables, per deal."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from ai.arena import MatchConfig, MatchResult, play_match
from ai.arena.compare import SAME, compare, flows
from ai.arena.record import write_records
from ai.arena.versus import versus
from holdem.config import Variant
from holdem.history import HandRecord
from holdem.stats import player_hands
from showdown.cli import main


def _match(bots: tuple[str, ...], hands: int = 24, seed: int = 3) -> MatchResult:
    config = MatchConfig(Variant.LIMIT, bots, hands, seed=seed, duplicate=True, record=True)
    return play_match(config)


@pytest.fixture(scope="module")
def raiser() -> MatchResult:
    return _match(("always-raise", "calling-station", "rational"))


@pytest.fixture(scope="module")
def caller() -> MatchResult:
    return _match(("calling-station", "calling-station", "rational"))


def test_the_seats_difference_is_split_by_the_first_differing_decision(
    raiser: MatchResult, caller: MatchResult
) -> None:
    result = compare(raiser.records, caller.records, "always-raise", "calling-station")
    seat_a, seat_b = raiser.net_bb[:, 0].sum(), caller.net_bb[:, 0].sum()
    assert result.hands == len(raiser.records)
    assert result.bb == pytest.approx(seat_a - seat_b)
    assert sum(r.hands for r in result.rows) == result.hands
    assert sum(r.bb for r in result.rows) == pytest.approx(result.bb)
    keys = {r.key for r in result.rows}
    # The opponents play by their cards alone, so until the seat acts both hands agree,
    # and the first difference is the seat's preflop raise where the station calls or
    # checks; hands where the seat never acts (all folded to it) are the same.
    assert "ours preflop: raise vs call" in keys
    assert keys <= {SAME, "ours preflop: raise vs call", "ours preflop: raise vs check"}
    same = [r for r in result.rows if r.key == SAME]
    assert all(r.bb == 0 for r in same)
    assert [r.bb for r in result.rows] == sorted(r.bb for r in result.rows)


def test_a_bet_of_another_size_is_filed_apart() -> None:
    a = [_doc(1, [("raise", "x", 6)], {"x": 3, "y": -3})]
    b = [_doc(1, [("raise", "x", 4)], {"x": -4, "y": 4})]
    (row,) = compare(a, b, "x", "x").rows
    assert (row.key, row.hands, row.bb) == ("ours preflop: raise vs raise (another size)", 1, 3.5)
    c = [_doc(1, [("call", "y", 2), ("check", "x", None)], {"x": 0, "y": 0})]
    d = [_doc(1, [("fold", "y", None)], {"x": 1, "y": -1})]
    assert compare(c, d, "x", "x").rows[0].key == "others preflop"


def test_recordings_of_other_deals_are_refused(raiser: MatchResult) -> None:
    fewer = _match(("calling-station", "calling-station", "rational"), hands=12)
    with pytest.raises(ValueError, match="first recording only"):
        compare(raiser.records, fewer.records, "always-raise", "calling-station")
    with pytest.raises(ValueError, match="second recording only"):
        compare(fewer.records, raiser.records, "calling-station", "always-raise")
    with pytest.raises(ValueError, match="different seats"):
        compare(raiser.records, raiser.records, "always-raise", "rational")
    with pytest.raises(ValueError, match="no player 'poki'"):
        compare(raiser.records, raiser.records, "poki", "poki")


def test_hands_are_paired_by_table_and_number() -> None:
    # A round robin's tables number their hands alike: hand 1 of t1 pairs with hand 1 of t1.
    a = [_doc(1, [], {"x": 2, "y": -2}, "t1"), _doc(1, [], {"x": -4, "y": 4}, "t2")]
    b = [_doc(1, [], {"x": -4, "y": 4}, "t2"), _doc(1, [], {"x": 2, "y": -2}, "t1")]
    result = compare(a, b, "x", "x")
    assert (result.hands, result.bb, result.rows[0].key) == (2, 0.0, SAME)
    with pytest.raises(ValueError, match="hand 1 of t2 is in the first recording only"):
        compare(a, b[1:], "x", "x")


def test_the_difference_has_a_ci_with_one_deal_as_one_sample() -> None:
    # Two seats, so a deal is two consecutive hands. Each deal's rotations cancel out
    # (+1 bb then -1 bb): the deals all agree and the interval has no width, where
    # hands taken one by one would give it some.
    same = [_doc(n, [], {"x": 2, "y": -2}) for n in (1, 3, 5)]
    other = [_doc(n, [], {"x": -2, "y": 2}) for n in (2, 4, 6)]
    zeros = [_doc(n, [], {"x": 0, "y": 0}) for n in range(1, 7)]
    assert compare(same + other, zeros, "x", "x").ci95 == (0.0, 0.0)
    # Deals worth +2, +4 and +6 bb: per hand +1, +2, +3, mean 2, sd 1.
    a = [_doc(n, [], {"x": 2 * ((n + 1) // 2), "y": -2 * ((n + 1) // 2)}) for n in range(1, 7)]
    result = compare(a, zeros, "x", "x")
    half = 100 * 1.959963984540054 / 3**0.5
    assert result.bb_per_100 == pytest.approx(200.0)
    assert result.ci95 == pytest.approx((200.0 - half, 200.0 + half))
    # One deal says nothing about the spread.
    assert compare(a[:2], zeros[:2], "x", "x").ci95 == (-math.inf, math.inf)


def test_a_players_takings_add_up_to_its_net(raiser: MatchResult) -> None:
    taken = flows(raiser.records, "always-raise")
    assert {f.opponent for f in taken} == {"calling-station", "rational"}
    assert sum(f.bb for f in taken) == pytest.approx(raiser.net_bb[:, 0].sum())
    hands = len(raiser.records)
    assert all(f.bb_per_100 == pytest.approx(100 * f.bb / hands) for f in taken)
    # Heads-up, everything the player won or lost came from the one opponent.
    a = [_doc(1, [], {"x": 6, "y": -6}), _doc(2, [], {"x": -2, "y": 2})]
    assert [(f.opponent, f.bb) for f in flows(a, "x")] == [("y", 2.0)]
    with pytest.raises(ValueError, match="no player 'poki' in these hands"):
        flows(raiser.records, "poki")


def test_showdown_records_compares_and_splits(
    raiser: MatchResult,
    caller: MatchResult,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write_records(first, raiser.records)
    write_records(second, caller.records)
    argv = ["records", "compare", str(first), str(second), "--player", "always-raise"]
    assert main([*argv, "--as", "calling-station"]) == 0
    out = capsys.readouterr().out
    assert "against calling-station in the same seat" in out
    assert "bb/100 (95% CI [" in out
    assert "ours preflop: raise vs call" in out
    assert main([*argv, "--as", "calling-station", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["hands"] == len(raiser.records)
    lo, hi = payload["ci95"]
    assert lo < 100 * payload["bb"] / payload["hands"] < hi
    assert main(["records", "flows", str(first), "--player", "always-raise", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert sum(r["bb"] for r in rows) == pytest.approx(raiser.net_bb[:, 0].sum())
    versus_argv = ["records", "versus", str(first), str(second), "--player", "rational"]
    assert main([*versus_argv, "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    both = 2 * len(raiser.records)
    assert {r["opponent"]: r["hands"] for r in payload["rows"]} == {
        "always-raise": len(raiser.records),
        "calling-station": both,  # and calling-station#2 in the second recording
        "calling-station#2": len(caller.records),
    }
    assert main(versus_argv) == 0
    assert "rational minus each opponent, per deal:" in capsys.readouterr().out
    assert main(["records", "versus", str(first), "--player", "poki"]) == 2
    # Bad input: a clear error and exit 2.
    assert main(argv) == 2  # B has no always-raise
    assert "no player 'always-raise'" in capsys.readouterr().err
    assert main(["records", "flows", str(tmp_path / "missing.jsonl"), "--player", "x"]) == 2
    assert "No such file" in capsys.readouterr().err
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"seats": []}\n')
    assert main(["records", "compare", str(broken), str(broken), "--player", "x"]) == 2
    assert "not a recorded hand (no 'hand_no' field)" in capsys.readouterr().err


def test_a_player_against_each_other_one_deal_one_sample() -> None:
    # Three seats, so a deal is three consecutive hands. Against y, x makes +2 bb in
    # each deal's first hand and nothing in the others: +2 bb a deal, 2/3 a hand. Against
    # z, deals of +1 and +7 bb (1 bb to 0 in hand 1; 1 + 2, 0, 0 + 4 in the second):
    # per hand 1/3 and 7/3, mean 4/3, sd sqrt(2), over two deals.
    hands = [
        _doc(1, [], {"x": 2, "y": -2, "z": 0}),
        _doc(2, [], {"x": 0, "y": 0, "z": 0}),
        _doc(3, [], {"x": 0, "y": 0, "z": 0}),
        _doc(4, [], {"x": 2, "y": -2, "z": -4}),
        _doc(5, [], {"x": 0, "y": 0, "z": 0}),
        _doc(6, [], {"x": 0, "y": 0, "z": -8}),
    ]
    against_z, against_y = versus([hands], "x")  # best difference first
    assert (against_y.opponent, against_y.hands) == ("y", 6)
    assert against_y.bb_per_100 == pytest.approx(200 / 3)
    assert against_y.ci95 == pytest.approx((200 / 3, 200 / 3))  # every deal alike
    assert against_z.opponent == "z" and against_z.bb_per_100 == pytest.approx(400 / 3)
    half = 100 * 1.959963984540054 * 2**0.5 / 2**0.5
    lo, hi = against_z.ci95
    assert (lo, hi) == pytest.approx((400 / 3 - half, 400 / 3 + half))
    # Two recordings of the same table and hand numbers are other deals, pooled.
    twice = versus([hands, hands], "x")
    assert [v.hands for v in twice] == [12, 12]
    assert twice[0].bb_per_100 == pytest.approx(against_z.bb_per_100)
    assert twice[1].ci95[1] - twice[1].ci95[0] < hi - lo
    with pytest.raises(ValueError, match="no player 'poki'"):
        versus([hands], "poki")


def test_all_in_hands_count_at_their_equity_with_allin_ev() -> None:
    # Two maniacs: every hand goes all in preflop and is shown down. (Not duplicate:
    # heads-up, each deal's two rotations would cancel out.)
    config = MatchConfig(Variant.NO_LIMIT, ("always-raise", "always-raise"), 8, seed=5, record=True)
    records = play_match(config).records
    players = [
        {p.player_id: p for p in player_hands(HandRecord.model_validate(d))} for d in records
    ]
    expected = sum(p["always-raise"].allin_ev - p["always-raise#2"].allin_ev for p in players)
    net = sum(p["always-raise"].net - p["always-raise#2"].net for p in players)
    assert expected != net  # some runouts were lucky for one of them
    raw, adjusted = versus([records], "always-raise")[0], versus([records], "always-raise", True)[0]
    assert raw.bb_per_100 == pytest.approx(100 * net / 2 / len(records))  # big blind 2
    assert adjusted.bb_per_100 == pytest.approx(100 * expected / 2 / len(records))


def _doc(
    number: int,
    actions: list[tuple[str, str, int | None]],
    net: dict[str, int],
    table: str = "t",
) -> Any:
    """A minimal stored hand: players seated 1, 2, ... in `net`'s order; big blind 2."""
    seats = {name: i + 1 for i, name in enumerate(net)}
    return {
        "table_id": table,
        "hand_no": number,
        "config": {"big_blind": 2},
        "seats": [
            {"seat": seats[p], "player_id": p, "starting_stack": 100, "final_stack": 100 + v}
            for p, v in net.items()
        ],
        "events": [
            {"kind": kind, "street": "preflop", "seat": seats[p], "amount": amount, "cards": []}
            for kind, p, amount in actions
        ],
    }
