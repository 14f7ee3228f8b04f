"""Heads-up push/fold by fictitious play, against the published Nash chart."""

from __future__ import annotations

import numpy as np
import pytest

from ai.tournament.equity_table import equity_matrix
from ai.tournament.hands import COMBOS, PAIR_WEIGHTS, index, label
from ai.tournament.published import published_call, published_push
from ai.tournament.pushfold import Payoffs, chip_chart, solve
from ai.tournament.spot import Blinds, chip_payoffs


def test_equity_table_matches_known_matchups() -> None:
    eq = equity_matrix()
    # Well-known all-in equities (any equity calculator): AA vs KK ~82%, AKo vs 22 ~47.5%,
    # AKs vs QJs ~63.5%; the table is symmetric (i against j = 1 - j against i).
    assert eq[index("AA"), index("KK")] == pytest.approx(0.82, abs=0.006)
    assert eq[index("AKo"), index("22")] == pytest.approx(0.475, abs=0.006)
    assert eq[index("AKs"), index("QJs")] == pytest.approx(0.635, abs=0.006)
    assert np.allclose(eq + eq.T, 1.0, atol=2 / 65535)


def test_card_removal_weights() -> None:
    assert COMBOS[index("AA")] == 6 and COMBOS[index("AKs")] == 4 and COMBOS[index("AKo")] == 12
    assert PAIR_WEIGHTS[index("AA"), index("AA")] == 6  # one way to split the 4 aces
    # AsKs against KQo: the king from the other three suits, the queen of another suit.
    assert PAIR_WEIGHTS[index("AKs"), index("KQo")] == 4 * 3 * 3
    assert label(index("T9s")) == "T9s"


@pytest.mark.parametrize(
    ("stack", "push_min", "call_min"), [(5, 0.97, 0.97), (10, 0.95, 0.95), (15, 0.95, 0.95)]
)
def test_fictitious_play_agrees_with_the_published_chart(
    stack: float, push_min: float, call_min: float
) -> None:
    chart = chip_chart(stack)
    push = float(((chart.push > 0.5) == published_push(stack)).mean())
    call = float(((chart.call > 0.5) == published_call(stack)).mean())
    print(f"{stack} bb: push agreement {push:.3f}, call agreement {call:.3f}")
    assert push >= push_min and call >= call_min
    assert chart.exploitability < 0.001  # big blinds per hand


def test_chart_shape() -> None:
    chart = chip_chart(10)
    assert chart.pushes("AA") and chart.pushes("K2s") and not chart.pushes("72o")
    assert chart.calls("A2o") and not chart.calls("K2o")
    deeper = chip_chart(15)
    assert int((deeper.push > 0.5).sum()) < int((chart.push > 0.5).sum())


def test_chip_payoffs_match_the_chart_game_and_antes_widen_pushing() -> None:
    direct = Payoffs.chips(10.0, ante_bb=0.1)
    built = chip_payoffs(1000, 1000, Blinds(50, 100, sb_ante=10, bb_ante=10), unit=100)
    assert built.sb == pytest.approx(direct.sb) and built.bb == pytest.approx(direct.bb)
    plain = solve(Payoffs.chips(10.0), 1000)
    with_ante = solve(Payoffs.chips(10.0, bb_ante_bb=1.0), 1000)
    assert (with_ante.push > 0.5).sum() > (plain.push > 0.5).sum()
