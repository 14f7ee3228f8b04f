"""A finished hand as every player at the table saw it: what opponent statistics learn from."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ai.game.observation import ActionRecord


@dataclass(frozen=True, slots=True)
class HandSummary:
    """A finished hand as every player at the table saw it (for opponent statistics)."""

    hand_key: object
    players: Sequence[str]  # player id per index
    history: Sequence[ActionRecord]
    shown: dict[int, tuple[int, int]]  # index -> hole cards revealed at showdown
    board: tuple[int, ...]
    # Net chips per index (who won what, public at the table); empty where not known.
    payoffs: Sequence[int] = ()
