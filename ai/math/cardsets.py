"""Turning card arguments ("Ah" strings or 0..51 indices) into validated index arrays."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
from numpy.typing import NDArray

from holdem.cards import CardError, card_index, is_card

CardsLike = Sequence[str] | Sequence[int] | NDArray[np.int64]


def to_indices(cards: CardsLike | Iterable[str]) -> NDArray[np.int64]:
    """Card indices of strings or ints; rejects non-cards and repeats.

    >>> to_indices(["2c", "As"]).tolist()
    [0, 51]
    """
    out: list[int] = []
    for card in cards:
        if isinstance(card, str):
            if not is_card(card):
                raise CardError(f"{card!r} is not a card (use e.g. Ah, Td, 7c)")
            out.append(card_index(card))
        else:
            value = int(card)
            if not 0 <= value < 52:
                raise CardError(f"card index {value} is not in 0..51")
            out.append(value)
    if len(set(out)) != len(out):
        raise CardError("a card appears twice")
    return np.array(out, dtype=np.int64)


def disjoint(*groups: NDArray[np.int64]) -> NDArray[np.int64]:
    """Concatenate card groups, rejecting a card that appears in two of them."""
    joined = np.concatenate(groups) if groups else np.empty(0, dtype=np.int64)
    if len(np.unique(joined)) != len(joined):
        raise CardError("a card appears twice")
    return joined.astype(np.int64)
