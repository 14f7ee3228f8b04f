"""Combos, the 169 starting-hand classes, and the Income Rate table and its command."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from ai.math.combos import (
    CLASS_NAMES,
    COMBO_CARDS,
    COMBO_CLASS,
    N_COMBOS,
    class_combos,
    class_index,
    class_of_pair,
    combo_cards,
    combo_index,
    combo_index_of,
    combo_name,
)
from ai.math.income_rate import OPPONENTS, load_income_rates, main, simulate_class
from ai.math.preflop_rank import (
    equity_table,
    hand_percentile,
    income_rate_percentile,
    preflop_equity,
    table_order,
)
from ai.math.preflop_table import build
from holdem.cards import FULL_DECK, CardError, card_index


def test_combo_index_is_a_bijection() -> None:
    seen = set()
    for a in range(52):
        for b in range(a + 1, 52):
            index = combo_index_of(a, b)
            assert index == combo_index_of(b, a)
            assert tuple(COMBO_CARDS[index]) == (a, b)
            seen.add(index)
    assert seen == set(range(N_COMBOS))
    assert combo_cards(combo_index("Kd", "Ah")) == ("Kd", "Ah")
    assert combo_name(combo_index("Kd", "Ah")) == "AhKd"
    with pytest.raises(CardError):
        combo_index("Ah", "Ah")


def test_169_classes() -> None:
    kinds = Counter(
        "pair" if len(name) == 2 else ("suited" if name[2] == "s" else "offsuit")
        for name in CLASS_NAMES
    )
    assert kinds == {"pair": 13, "suited": 78, "offsuit": 78}
    assert len(set(CLASS_NAMES)) == 169
    assert sum(len(class_combos(c)) for c in range(169)) == N_COMBOS
    for name, size in (("AA", 6), ("AKs", 4), ("72o", 12), ("32s", 4)):
        assert len(class_combos(class_index(name))) == size
    assert class_index("aks") == class_index("AKs")
    ak_suited = {tuple(combo_cards(int(c))) for c in class_combos(class_index("AKs"))}
    assert ak_suited == {("K" + s, "A" + s) for s in "cdhs"}
    assert CLASS_NAMES[int(COMBO_CLASS[combo_index("7h", "2h")])] == "72s"
    with pytest.raises(ValueError, match="class"):
        class_index("AAs")


def test_shipped_income_rates_rank_aa_first_and_trash_last() -> None:
    rates = load_income_rates()
    assert rates.opponents == OPPONENTS
    for opponents in OPPONENTS:
        names = [CLASS_NAMES[c] for c in rates.ranking(opponents)]
        assert names[0] == "AA"
        assert names.index("KK") == 1
        bottom = names[-12:]
        assert "72o" in bottom and "32o" in bottom, (opponents, bottom)
        # Results are in big blinds: AA wins most, never more than the n blinds on offer.
        assert 0 < rates.rate("AA", opponents) < opponents
        assert rates.rate("72o", opponents) < 0
    meta = rates.meta
    assert meta["seed"] >= 0 and meta["trials_per_class"] >= 100_000
    assert meta["command"].startswith("python -m ai.math.income_rate")
    assert {"date", "definition", "total_deals"} <= meta.keys()
    assert (rates.stderr > 0).all() and (rates.stderr < 0.02).all()


def test_simulation_is_reproducible_and_consistent_with_the_table() -> None:
    first = simulate_class(class_index("AA"), 1, 20_000, seed=5)
    assert simulate_class(class_index("AA"), 1, 20_000, seed=5) == first
    assert simulate_class(class_index("AA"), 1, 20_000, seed=6) != first
    shipped = load_income_rates().rate("AA", 1)
    mean, stderr = first
    # AA against one caller wins about 85% of 2 bb: IR ~ 0.70.
    assert abs(mean - shipped) < 5 * stderr + 0.005


def test_command_writes_a_described_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ir.json"
    assert main(["--trials", "300", "--seed", "3", "--out", str(out), "--workers", "2"]) == 0
    data = json.loads(out.read_text())
    assert data["seed"] == 3 and data["trials_per_class"] == 300
    assert data["opponents"] == [1, 3, 6]
    assert data["command"] == f"python -m ai.math.income_rate --trials 300 --seed 3 --out {out}"
    assert set(data["income_rate"]["6"]) == set(CLASS_NAMES)
    err = capsys.readouterr().err
    assert "507/507" in err and "wrote" in err
    # The same seed gives the same table whatever the number of threads.
    again = tmp_path / "again.json"
    assert main(["--trials", "300", "--seed", "3", "--out", str(again), "--workers", "1"]) == 0
    assert json.loads(again.read_text())["income_rate"] == data["income_rate"]


def test_every_class_member_is_an_instance_of_its_class() -> None:
    for c in range(169):
        name = CLASS_NAMES[c]
        for combo in class_combos(c):
            lo, hi = (FULL_DECK.index(x) for x in combo_cards(int(combo)))
            ranks = sorted((lo >> 2, hi >> 2), reverse=True)
            assert "23456789TJQKA"[ranks[0]] + "23456789TJQKA"[ranks[1]] == name[:2]
            suited = (lo & 3) == (hi & 3)
            assert len(name) == 2 or suited == (name[2] == "s")
    assert np.bincount(COMBO_CLASS, minlength=169).min() == 4


def _two(text: str) -> tuple[int, int]:
    return card_index(text[:2]), card_index(text[2:])


def test_class_of_pair_agrees_with_the_combo_classes() -> None:
    table = class_of_pair()
    for (lo, hi), cls in zip(COMBO_CARDS.tolist(), COMBO_CLASS.tolist(), strict=True):
        assert table[lo, hi] == table[hi, lo] == cls


def test_preflop_table_knows_the_classics() -> None:
    aa, kk, seven_deuce = _two("AsAh"), _two("KsKh"), _two("7c2d")
    assert abs(preflop_equity(*aa, 1) - 0.852) < 0.01  # AA vs one random hand
    assert abs(preflop_equity(*seven_deuce, 1) - 0.346) < 0.01
    assert preflop_equity(*aa, 5) > preflop_equity(*kk, 5) > preflop_equity(*seven_deuce, 5)
    assert hand_percentile(*aa, 3) > 0.99 and hand_percentile(*seven_deuce, 3) < 0.05
    assert sorted(table_order()) == sorted(CLASS_NAMES)
    assert bool((equity_table()[:, 1:] < 1).all())


def test_income_rate_percentile_counts_dealt_hands_below() -> None:
    pct = income_rate_percentile(3)
    rates = load_income_rates()
    worst, best = rates.ranking(3)[-1], rates.ranking(3)[0]
    assert pct[worst] == 0.0
    assert pct[best] == (N_COMBOS - len(class_combos(int(best)))) / N_COMBOS


def test_preflop_table_rebuild_keeps_the_file_order_and_is_seeded() -> None:
    # Each class is seeded by its position in the file, so the order is part of the data.
    table = build(200, seed=2024)
    equity = table["equity"]
    assert isinstance(equity, dict) and tuple(equity) == table_order()
    assert build(200, seed=2024) == table
    assert equity["AA"][0] > 0.75 > 0.45 > equity["72o"][0]
