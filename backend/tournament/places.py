"""Finishing places: who busts in the same hand (or hand-for-hand round) is ranked by
the chips they started it with, more chips the better place; equal chips tie, and a tie
shares its places' prizes equally (a leftover chip goes to the earlier seat drawn).

>>> finish([("a", 100), ("b", 300), ("c", 100)], places_left=5, prizes=[60, 30, 10])
[Finish(player_id='b', place=3, prize=10), Finish(player_id='a', place=4, prize=0), \
Finish(player_id='c', place=4, prize=0)]
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby


@dataclass(frozen=True, slots=True)
class Finish:
    player_id: str
    place: int
    prize: int


def prize_of(place: int, prizes: list[int]) -> int:
    return prizes[place - 1] if place <= len(prizes) else 0


def finish(busted: list[tuple[str, int]], places_left: int, prizes: list[int]) -> list[Finish]:
    """`busted`: (player, chips at the hand's start); `places_left`: the players left
    before these busts, so the best of them finishes in that place."""
    ranked = sorted(busted, key=lambda b: -b[1])
    out: list[Finish] = []
    place = places_left - len(busted) + 1
    for _, group in groupby(ranked, key=lambda b: b[1]):
        tied = list(group)
        pool = sum(prize_of(place + i, prizes) for i in range(len(tied)))
        share, extra = divmod(pool, len(tied))
        for i, (player_id, _) in enumerate(tied):
            out.append(Finish(player_id, place, share + (1 if i < extra else 0)))
        place += len(tied)
    return out
