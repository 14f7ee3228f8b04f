"""Ranges, the equity calculator, and `showdown equity` through the real CLI entry point."""

from __future__ import annotations

import json

import pytest

from ai.math.combos import CLASS_NAMES, COMBO_CLASS
from ai.math.equity import equity, equity_of
from ai.math.ranges import RangeError, parse_range
from showdown.cli import main


def _classes(text: str) -> set[str]:
    return {CLASS_NAMES[int(COMBO_CLASS[c])] for c in parse_range(text)}


def test_range_syntax() -> None:
    assert _classes("QQ+") == {"QQ", "KK", "AA"}
    assert _classes("ATs+") == {"ATs", "AJs", "AQs", "AKs"}
    assert _classes("K9o+") == {"K9o", "KTo", "KJo", "KQo"}
    assert _classes("JJ-88") == _classes("88-JJ") == {"JJ", "TT", "99", "88"}
    assert _classes("A5s-A2s") == {"A5s", "A4s", "A3s", "A2s"}
    assert _classes("T9") == {"T9s", "T9o"}
    assert len(parse_range("QQ+,AKs,ATs+,KQo")) == 18 + 16 + 12
    assert len(parse_range("random")) == 1326
    assert len(parse_range("AhKh, kdqd")) == 2
    for bad in ("", "AAs", "XX", "AhAh", "A5s-K2s", "AKx", "AK+-QJ"):
        with pytest.raises(RangeError):
            parse_range(bad)


def test_exact_equities_computed_by_hand() -> None:
    # AsAd vs KsKd on 2c 7h 9c: no straight or flush is possible, so KK wins only with
    # both kings (1 turn/river pair) or one king and no ace (2 x 41): 83 of 990.
    r = equity_of(["AsAd", "KsKd"], board="2c7h9c")
    assert r.exact and r.samples == 990 and r.stderr is None
    assert r.equities[1] == pytest.approx(83 / 990)
    assert r.equities[0] == pytest.approx(907 / 990)
    # AhKh vs QsQd on 2c 7d 9h: AK wins with an A or K (6 x 39 + 15 pairs = 249) unless
    # the other card is a queen (12), and with two hearts (45) unless they are Qh with
    # 7h or 2h (QQ fills up): 249 - 12 + 45 - 2 = 280.
    r = equity_of(["AhKh", "QsQd"], board="2c7d9h")
    assert r.equities[0] == pytest.approx(280 / 990)
    assert r.ties == (0.0, 0.0)
    # One card to come: KK has two kings among 44 rivers.
    r = equity_of(["AsAd", "KsKd"], board="2c7h9cQh")
    assert r.equities[1] == pytest.approx(2 / 44)


def test_dead_cards_and_split_pots() -> None:
    # The same spot with the king of hearts dead: Kc and one of 41 blanks, of 946 pairs.
    r = equity_of(["AsAd", "KsKd"], board="2c7h9c", dead="Kh")
    assert r.exact and r.samples == 946
    assert r.equities[1] == pytest.approx(41 / 946)
    # The same hand splits, except when two more clubs give AcKs the flush (45 of 990).
    both = equity_of(["AhKd", "AcKs"], board="2c7h9c")
    assert both.wins == pytest.approx((0.0, 45 / 990))
    assert both.ties == pytest.approx((945 / 990, 945 / 990))
    assert both.equities[1] == pytest.approx((45 + 945 / 2) / 990)
    assert sum(both.equities) == pytest.approx(1.0)


def test_aa_vs_kk_preflop_by_monte_carlo() -> None:
    r = equity_of(["AA", "KK"], seed=4)
    assert not r.exact and r.samples == 200_000 and r.stderr is not None
    assert r.equities[0] == pytest.approx(0.8195, abs=4 * r.stderr[0] + 0.001)
    assert equity_of(["AA", "KK"], seed=4) == r  # seeded
    assert sum(r.equities) == pytest.approx(1.0)


def test_specific_hands_preflop_are_exact() -> None:
    r = equity_of(["AhKh", "2c2d"])
    assert r.exact and r.samples == 1_712_304  # C(48, 5)
    assert 0.49 < r.equities[0] < 0.51  # the classic coin flip


def test_three_way_ranges() -> None:
    r = equity(
        [parse_range("QQ+"), parse_range("random"), parse_range("22-55")],
        board=["2c", "7d", "9h"],
        trials=20_000,
        seed=1,
    )
    assert sum(r.equities) == pytest.approx(1.0)
    assert r.equities[0] > r.equities[1]


def test_impossible_inputs() -> None:
    with pytest.raises(RangeError, match="cannot all be dealt"):
        equity_of(["AA", "AA", "AA"])
    with pytest.raises(RangeError, match="no holding left"):
        equity_of(["AhKh", "QQ"], board="AhQc2d")
    with pytest.raises(RangeError, match="two hands"):
        equity_of(["AA"])
    with pytest.raises(ValueError, match="twice"):
        equity_of(["AhKh", "QQ"], board="2c7d9h", dead="2c")


def test_cli_prints_each_equity(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["equity", "AhKh", "QsQd", "--board", "2c7d9h"]) == 0
    out = capsys.readouterr().out
    assert "exact: 990 deals" in out
    lines = {line.split()[0]: line for line in out.splitlines() if line[:4] in ("AhKh", "QsQd")}
    assert "28.28%" in lines["AhKh"] and "71.72%" in lines["QsQd"]


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["equity", "AhKh", "QsQd", "--board", "2c7d9h", "--dead", "5s", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exact"] is True and data["stderr"] is None and data["samples"] == 946
    assert data["equities"][0] == pytest.approx(1 - data["equities"][1], abs=1e-6)
    assert data["dead"] == ["5s"] and data["hands"] == ["AhKh", "QsQd"]

    assert main(["equity", "AA", "KK", "--json", "--trials", "50000", "--seed", "9"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exact"] is False and data["samples"] == 50_000 and data["seed"] == 9
    assert data["equities"][0] == pytest.approx(0.82, abs=0.01)
    assert len(data["stderr"]) == 2 and 0 < data["stderr"][0] < 0.005


def test_cli_range_input(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["equity", "QQ+,AKs,ATs+,KQo", "72o", "--board", "2c7d9h", "--trials", "20000"]
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["equities"]) == 2 and data["equities"][1] > 0.5  # 72o has two pair


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["AhKx", "QsQd"], "cannot read"),
        (["AhKh", "QsQd", "--board", "2c7d9"], "cannot read cards"),
        (["AhKh", "QsQd", "--board", "Ah7d9h"], "no holding left"),
        (["AhKh", "QsQd", "--board", "2c7d9h", "--dead", "2c"], "twice"),
        (["AA", "AA", "AA"], "cannot all be dealt"),
        (["AhKh"], "at least two"),
        (["AhKh", "QsQd", "--trials", "1"], "--trials"),
    ],
)
def test_cli_bad_input_exits_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["equity", *argv]) == 2
    captured = capsys.readouterr()
    assert message in captured.err and captured.out == ""
