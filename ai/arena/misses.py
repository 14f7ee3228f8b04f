"""What a bot's searched decisions made beyond their searched values, from the rows
`showdown arena --decisions FILE` writes: per street, action and crowd, the mean of the
chips the chosen action made to the end of the hand minus its value, with its 95% CI
(`showdown records correction`): how far the searched values are from what the actions
went on to win, the values' calibration."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ai.arena.stats import half_width95
from ai.sim.rules import FOLD, RAISE

Key = tuple[int, int, bool]  # (street, kind, three or more players in the hand)


def cell(street: int, kind: int, in_hand: int) -> Key:
    """The cell a decision falls in: a raise of any size is a raise, and the crowd is
    whether three or more players are in the hand."""
    return (street, min(kind, RAISE), in_hand > 2)


@dataclass(frozen=True, slots=True)
class Cell:
    """What one kind of chosen action made beyond its value, over `decisions` of them."""

    street: int
    kind: int
    crowded: bool
    decisions: int
    missed_bb: float  # mean of made minus valued, big blinds
    ci95: tuple[float, float]


def measure(rows: Iterable[Mapping[str, Any]], player: str) -> list[Cell]:
    """Per (street, kind, crowd), the mean of what the chosen action made minus its value,
    over `player`'s searched decisions (rows of `showdown arena --decisions`). Folds are
    left out: valued exactly, they make what they are worth."""
    missed: dict[Key, list[float]] = {}
    for row in rows:
        if row["player"] != player:
            continue
        chosen = next(a for a in row["actions"] if a["label"] == row["choice"])
        if chosen["kind"] == FOLD:
            continue
        key = cell(row["street"], chosen["kind"], row["in_hand"])
        missed.setdefault(key, []).append(row["made_bb"] - chosen["value_bb"])
    cells = []
    for (street, kind, crowded), values in sorted(missed.items()):
        v = np.array(values)
        mean, half = float(v.mean()), half_width95(v)
        cells.append(Cell(street, kind, crowded, len(v), mean, (mean - half, mean + half)))
    return cells
