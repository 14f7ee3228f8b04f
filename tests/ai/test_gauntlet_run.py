"""The gauntlet: the same deals for every seating and every bot, and the command end to end."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ai.arena.match import Match
from ai.gauntlet import GauntletConfig, make_player
from ai.gauntlet.run import lineup
from holdem.config import Variant
from showdown.cli import main

Hand = tuple[tuple[int, ...], tuple[tuple[int, int], ...], tuple[int, ...], int]


def hands_dealt(config: GauntletConfig, bot: str, opponent: str) -> list[Hand]:
    """(seat of each player, hole cards by seat, runout, button) of every hand played."""
    match = Match(config.match(bot, opponent), make_player)
    seen: list[Hand] = []
    original = match.play_hand

    def spy(
        seat_of_bot: Sequence[int],
        holes: Sequence[tuple[int, int]],
        runout: Sequence[int],
        button: int,
        hand_key: int = 0,
        **home_rules: Any,  # a straddle, a bomb pot, run-it cards: played as given
    ) -> list[int]:
        seen.append((tuple(seat_of_bot), tuple(holes), tuple(runout), button))
        return original(seat_of_bot, holes, runout, button, hand_key, **home_rules)

    match.play_hand = spy  # type: ignore[method-assign]
    match.play()
    return seen


@pytest.mark.parametrize("seats", [2, 3])
def test_every_deal_is_played_once_per_seating_with_the_same_cards(seats: int) -> None:
    config = GauntletConfig(
        Variant.LIMIT, ("always-raise", "calling-station"), ("rlcard-limit-rule",),
        hands=6 * seats, seats=seats, seed=5,
    )  # fmt: skip
    first = hands_dealt(config, "always-raise", "rlcard-limit-rule")
    assert len(first) == 6 * seats
    for deal in range(6):
        rotations = first[deal * seats : (deal + 1) * seats]
        # The same cards in every seat, the same board and button ...
        assert len({(holes, runout, button) for _, holes, runout, button in rotations}) == 1
        # ... and our bot (player 0) holds each seat's cards once.
        assert sorted(seat_of_bot[0] for seat_of_bot, *_ in rotations) == list(range(1, seats + 1))
    # Another bot of the line-up meets the opponent on exactly these deals.
    assert hands_dealt(config, "calling-station", "rlcard-limit-rule") == first


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["gauntlet", *args, "--json"]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def test_a_small_gauntlet_through_the_command(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    chart = tmp_path / "gauntlet.png"
    payload = run_json(
        capsys, "--bot", "always-raise", "--compare", "calling-station", "--hands", "20",
        "--seed", "3", "--chart", str(chart),
    )  # fmt: skip
    assert chart.stat().st_size > 0
    assert payload["bots"] == ["always-raise", "calling-station"]
    # Every Limit opponent by default, each against every bot of the line-up.
    assert payload["opponents"] == ["rlcard-limit-rule", "rlcard-random"]
    cells = payload["cells"]
    assert len(cells) == 4
    for cell in cells:
        assert cell["hands"] == 20
        # No chip created or lost: what our bot won, the opponent's copies lost.
        assert cell["total_bb"] + cell["opponents_total_bb"] == pytest.approx(0, abs=1e-6)
        assert cell["bb_per_100"] == pytest.approx(100 * cell["total_bb"] / 20, abs=1e-2)
        lo, hi = cell["ci95"]
        assert lo <= cell["bb_per_100"] <= hi
    # The paired differences are the differences of the win rates (the same deals).
    by_pair = {(c["bot"], c["opponent"]): c["bb_per_100"] for c in cells}
    for diff in payload["differences"]:
        expected = (
            by_pair[(diff["bot"], diff["opponent"])] - by_pair[(diff["other"], diff["opponent"])]
        )
        assert diff["bb_per_100"] == pytest.approx(expected, abs=1e-2)
    assert always_raise_beats_the_station(payload)


def always_raise_beats_the_station(payload: dict[str, Any]) -> bool:
    """Against the rule agent (which folds most hands) raising wins more than calling."""
    rows = {(c["bot"], c["opponent"]): c for c in payload["cells"]}
    return bool(
        rows[("always-raise", "rlcard-limit-rule")]["bb_per_100"]
        > rows[("calling-station", "rlcard-limit-rule")]["bb_per_100"]
    )


def test_a_multiway_no_limit_gauntlet_conserves_chips(capsys: pytest.CaptureFixture[str]) -> None:
    payload = run_json(
        capsys, "--bot", "calling-station", "--compare", "", "--game", "nolimit",
        "--seats", "3", "--hands", "12", "--opponents", "texasholdem-random,rlcard-random",
    )  # fmt: skip
    cells = payload["cells"]
    assert [c["opponent"] for c in cells] == [
        "texasholdem-random",
        "rlcard-random",
    ]
    for cell in cells:
        assert cell["hands"] == 12
        assert np.isclose(cell["total_bb"] + cell["opponents_total_bb"], 0)


def test_the_six_max_blueprint_sits_as_the_opponent(capsys: pytest.CaptureFixture[str]) -> None:
    payload = run_json(
        capsys, "--bot", "calling-station", "--compare", "", "--game", "nolimit",
        "--seats", "6", "--hands", "6", "--opponents", "blueprint",
    )  # fmt: skip
    (cell,) = payload["cells"]
    assert (cell["opponent"], cell["hands"]) == ("blueprint", 6)
    assert np.isclose(cell["total_bb"] + cell["opponents_total_bb"], 0)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--opponents", "nobody"], "unknown opponent 'nobody'"),
        # Only the self-play blueprint of our styles: not the bots the defaults were tuned on.
        (["--opponents", "loki"], "unknown opponent 'loki'"),
        (["--opponents", "texasholdem-call"], "texasholdem-call does not play limit"),
        (["--bot", "grandmaster"], "unknown bot style"),
        (["--seats", "11"], "--seats must be 2 to 10"),
    ],
)
def test_bad_arguments_get_a_clear_error(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["gauntlet", *args, "--hands", "2"]) == 2
    assert message in capsys.readouterr().err


def test_the_line_up_puts_the_bot_first_and_names_each_style_once() -> None:
    assert lineup("mcts", ["mcts", "loki", "always-raise", "loki"]) == (
        "mcts",
        "loki",
        "always-raise",
    )


def test_the_list_names_every_opponent_with_its_package(capsys: pytest.CaptureFixture[str]) -> None:
    from ai.gauntlet import OPPONENTS

    assert main(["gauntlet", "--list"]) == 0
    out = capsys.readouterr().out
    for opponent in OPPONENTS.values():
        assert f"{opponent.name}" in out and opponent.package in out
