"""ICM against published worked examples and against a brute-force enumeration."""

from __future__ import annotations

import doctest
import importlib
import math

import pytest

# The bench's anchor: Malmuth-Harville by enumerating every finishing order.
from ai.tournament.bench import brute_force
from ai.tournament.icm import IcmError, icm, icm_exact, icm_first, icm_monte_carlo


def test_published_three_way_example() -> None:
    # practicalwebtools.com, "ICM Calculator" (gambling tools), worked table: stacks
    # 50,000 / 30,000 / 20,000, prizes $500 / $300 / $200 -> ICM $384 / $328 / $289.
    equity = icm_exact([50_000, 30_000, 20_000], [500, 300, 200])
    assert [round(e) for e in equity] == [384, 328, 289]
    assert math.isclose(sum(equity), 1000)


def test_published_finishing_probabilities() -> None:
    # daut44, "WSOP Main Event Final Table Set! Stack Equity of Each Player" (steemit /
    # hive.blog, 2017): stacks 9000 / 6000 / 5000, payouts $1000 / $600 / $400. Player 1
    # wins 45% and finishes second .3 * 9/14 + .25 * 9/15 = ~34.28% of the time.
    first = icm_exact([9000, 6000, 5000], [1, 0, 0])
    second = icm_exact([9000, 6000, 5000], [0, 1, 0])
    assert first == pytest.approx([0.45, 0.30, 0.25])
    assert second[0] == pytest.approx(0.3 * 9 / 14 + 0.25 * 9 / 15)
    assert round(100 * second[0], 2) == 34.29
    equity = icm_exact([9000, 6000, 5000], [1000, 600, 400])
    assert equity[0] == pytest.approx(1000 * 0.45 + 600 * second[0] + 400 * (0.55 - second[0]))


def test_heads_up_is_linear_in_chips() -> None:
    # Two players: second prize plus the chip share of the difference (closed form).
    assert icm_exact([3000, 1000], [70, 30]) == pytest.approx([30 + 40 * 0.75, 30 + 40 * 0.25])


@pytest.mark.parametrize("n", [4, 5, 7])
def test_exact_matches_every_finishing_order(n: int) -> None:
    stacks = [float(1000 + 737 * i % 2900) for i in range(n)]
    prizes = [50.0, 30.0, 20.0, 7.0][: n - 1]
    assert icm_exact(stacks, prizes) == pytest.approx(brute_force(stacks, prizes))


def test_twenty_players_exact_and_monte_carlo_agree() -> None:
    stacks = [float(500 + 250 * i) for i in range(20)]
    prizes = [40.0, 25.0, 15.0, 10.0, 6.0, 4.0]
    exact = icm_exact(stacks, prizes)
    assert sum(exact) == pytest.approx(100)
    estimate = icm_monte_carlo(stacks, prizes, samples=200_000, seed=1)
    # Standard error per player below 40 / (2 sqrt(200000)) = 0.045: 0.2 is > 4 sigma.
    assert max(abs(a - b) for a, b in zip(exact, estimate, strict=True)) < 0.2


@pytest.mark.parametrize("first", [0, 7, 19])
def test_one_players_equity_by_quadrature_is_the_exact(first: int) -> None:
    """`icm_first` (a decision's own equity, any field size) against `icm_exact`."""
    stacks = [float(500 + 250 * i) for i in range(20)]
    stacks[0], stacks[first] = stacks[first], stacks[0]
    prizes = [float(p) for p in range(20, 0, -1)]
    assert icm_first(stacks, prizes) == pytest.approx(icm_exact(stacks, prizes)[0], abs=1e-5)
    tiny = [1.0, *stacks[1:12]]  # 1 chip against thousands
    # The integrand is steepest there (1 chip against thousands).
    assert icm_first(tiny, prizes[:4]) == pytest.approx(icm_exact(tiny, prizes[:4])[0], abs=1e-5)
    busted = [0.0, *stacks[1:]]  # out: the last place's prize, as `icm`
    assert icm_first(busted, prizes) == pytest.approx(icm(busted, prizes)[0])


def test_monte_carlo_scales_to_a_big_field() -> None:
    stacks = [float(1000 + (37 * i) % 4000) for i in range(300)]
    prizes = [float(p) for p in range(30, 0, -1)]
    equity = icm(stacks, prizes)  # beyond EXACT_LIMIT: sampled
    assert sum(equity) == pytest.approx(sum(prizes), rel=1e-9)
    biggest = max(range(300), key=lambda i: stacks[i])
    smallest = min(range(300), key=lambda i: stacks[i])
    assert equity[biggest] > equity[smallest]


def test_busted_and_bad_input() -> None:
    assert icm_exact([100, 0, 100], [60, 40]) == pytest.approx([50, 0, 50])
    for stacks, prizes in (([], [1.0]), ([-1, 5], [1.0]), ([0, 0], [1.0]), ([5, 5], [-1.0])):
        with pytest.raises(IcmError):
            icm_exact(stacks, prizes)


@pytest.mark.parametrize("name", ["ai.tournament.icm", "ai.tournament.hands"])
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted > 0
