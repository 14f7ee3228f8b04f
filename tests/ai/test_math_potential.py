"""HS, PPot and NPot against a slow pure-Python enumeration with pkrbot, on fixed spots."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from ai.math.combos import N_COMBOS, combo_index
from ai.math.evaluator import pkrbot_value
from ai.math.odds import multiway_strength, pot_odds, showdown_odds
from ai.math.potential import analyse, hand_potential, hand_strength
from holdem.cards import FULL_DECK


def _status(ours: int, theirs: int) -> int:
    return 0 if ours > theirs else (1 if ours == theirs else 2)


def reference(
    hole: list[str], board: list[str], weights: np.ndarray, lookahead: int
) -> tuple[float, float, float]:
    """Billings' enumeration written out plainly: (HS, PPot, NPot)."""
    deck = [c for c in FULL_DECK if c not in hole + board]
    ours_now = pkrbot_value(hole + board)
    ours_later: dict[tuple[str, ...], int] = {}
    now = [0.0, 0.0, 0.0]
    hp = [[0.0] * 3 for _ in range(3)]
    for a, b in itertools.combinations(deck, 2):
        w = float(weights[combo_index(a, b)])
        if w == 0:
            continue
        s_now = _status(ours_now, pkrbot_value([a, b, *board]))
        now[s_now] += w
        if not lookahead:
            continue
        for extra in itertools.combinations([c for c in deck if c not in (a, b)], lookahead):
            if extra not in ours_later:
                ours_later[extra] = pkrbot_value([*hole, *board, *extra])
            theirs = pkrbot_value([a, b, *board, *extra])
            hp[s_now][_status(ours_later[extra], theirs)] += w
    hs = (now[0] + now[1] / 2) / sum(now)
    if not lookahead:
        return hs, 0.0, 0.0
    tot = [sum(row) for row in hp]
    ppot = (hp[2][0] + hp[2][1] / 2 + hp[1][0] / 2) / (tot[2] + tot[1] / 2)
    npot = (hp[0][2] + hp[1][2] / 2 + hp[0][1] / 2) / (tot[0] + tot[1] / 2)
    return hs, ppot, npot


def sparse_weights(count: int, seed: int) -> np.ndarray:
    """Random weights on `count` holdings (some of them clash with the spot's cards)."""
    rng = random.Random(seed)
    weights = np.zeros(N_COMBOS)
    for combo in rng.sample(range(N_COMBOS), count):
        weights[combo] = rng.uniform(0.01, 1.0)
    return weights


SPOTS = [
    # (hole, board, lookahead, holdings with weight)
    (["Ah", "Kh"], ["Qh", "Jh", "2c"], 2, 60),  # big draw on the flop, two cards to come
    (["7c", "7d"], ["As", "8d", "9d"], 2, 60),  # set-ish pair facing draws
    (["As", "Qd"], ["Ac", "Qs", "4h"], 1, 400),  # two pair, one card ahead from the flop
    (["6s", "5s"], ["7s", "8h", "Kd", "2s"], 1, N_COMBOS),  # turn draw vs any two cards
    (["Tc", "Td"], ["Th", "Ts", "3c", "3d", "9h"], 0, N_COMBOS),  # river: quads
    (["2c", "3d"], ["Kh", "9s", "7c", "5d", "Jh"], 0, 500),  # river: nothing
]


@pytest.mark.parametrize(("hole", "board", "lookahead", "count"), SPOTS)
def test_strength_and_potential_match_brute_force(
    hole: list[str], board: list[str], lookahead: int, count: int
) -> None:
    weights = np.ones(N_COMBOS) if count == N_COMBOS else sparse_weights(count, seed=len(board))
    expected = reference(hole, board, weights, lookahead)
    got = analyse(hole, board, weights, lookahead=lookahead)
    assert (got.hs, got.ppot, got.npot) == pytest.approx(expected, rel=1e-9, abs=1e-12)
    assert hand_strength(hole, board, weights) == pytest.approx(expected[0], rel=1e-9)
    if lookahead:
        ppot, npot = hand_potential(hole, board, weights, lookahead)
        assert (ppot, npot) == pytest.approx(expected[1:], rel=1e-9)


def test_effective_strength_formulas() -> None:
    r = analyse(["Ah", "Kh"], ["Qh", "Jh", "2c"])
    assert r.ehs == pytest.approx(r.hs * (1 - r.npot) + (1 - r.hs) * r.ppot)
    assert r.ehs_optimistic == pytest.approx(r.hs + (1 - r.hs) * r.ppot)
    assert r.ehs_optimistic > r.hs  # a big draw is worth more than its current strength


def test_default_lookahead_and_river() -> None:
    assert analyse(["Ah", "Kh"], ["Qh", "Jh", "2c", "3d", "4s"]).ppot == 0.0
    turn = analyse(["Ah", "Kh"], ["Qh", "Jh", "2c", "3d"])
    assert turn == analyse(["Ah", "Kh"], ["Qh", "Jh", "2c", "3d"], lookahead=1)
    with pytest.raises(ValueError, match="look"):
        analyse(["Ah", "Kh"], ["Qh", "Jh", "2c", "3d"], lookahead=2)
    with pytest.raises(ValueError, match="twice"):
        hand_strength(["Ah", "Kh"], ["Ah", "Jh", "2c"])
    with pytest.raises(ValueError, match="3-5"):
        hand_strength(["Ah", "Kh"], [])


def test_weights_change_strength() -> None:
    hole, board = ["Ac", "Kd"], ["Jh", "8s", "2d"]
    uniform = hand_strength(hole, board)
    overpairs = np.zeros(N_COMBOS)
    for rank in "QKA":
        for a, b in itertools.combinations([rank + s for s in "cdhs"], 2):
            overpairs[combo_index(a, b)] = 1.0
    assert hand_strength(hole, board, overpairs) == 0.0 < uniform < 1.0
    weak = np.zeros(N_COMBOS)
    weak[combo_index("7c", "6c")] = 1.0
    assert hand_strength(hole, board, weak) == 1.0
    # Conflicting holdings carry no weight even when the table gives them some.
    weak[combo_index("Ac", "Jc")] = 1.0
    assert hand_strength(hole, board, weak) == 1.0


def test_multiway_strength() -> None:
    hole, board = ["As", "Kd"], ["Ac", "7h", "2s"]
    hs = hand_strength(hole, board, sparse_weights(300, seed=1) + 0.01)
    assert multiway_strength(hs, 3) == pytest.approx(hs**3)


def test_pot_and_showdown_odds() -> None:
    assert pot_odds(to_call=2, pot=6) == 0.25
    assert pot_odds(to_call=0, pot=6) == 0.0
    # Calling 2 now and 4 on a later street, one opponent also puts in 4: 6 / 16.
    assert showdown_odds(to_call=2, pot=6, future_bets=4) == pytest.approx(6 / 16)
    assert showdown_odds(to_call=2, pot=6, future_bets=0) == pot_odds(2, 6)
    with pytest.raises(ValueError, match="non-negative"):
        pot_odds(-1, 3)
