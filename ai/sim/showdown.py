"""Showdown: pokerkit's way of splitting main and side pots.

Hands are ranked by `ai.math.evaluator.rank_hands` (pkrbot: C speed on card indices,
ordering hands exactly as eval7 and pokerkit do); `settle` only compares the ranks.
"""

from __future__ import annotations

from collections.abc import Sequence


def _pots(
    contrib: Sequence[int], eligible: Sequence[bool], dead: int = 0
) -> list[tuple[int, tuple[int, ...]]]:
    """Main pot then side pots, one per contribution level, as pokerkit builds them.

    Every contribution level is a pot; consecutive levels with the same eligible
    players merge (this matters for odd chips, so it must match pokerkit exactly).
    `dead` (a big-blind ante, left out of `contrib`) joins the first pot, which every
    player still in may win.
    """
    n = len(contrib)
    pots: list[tuple[int, tuple[int, ...]]] = []
    previous = 0
    for k, level in enumerate(sorted(set(contrib))):
        amount = (level - previous) * sum(1 for c in contrib if c >= level)
        if k == 0:
            amount += dead
        players = tuple(i for i in range(n) if eligible[i] and contrib[i] >= level)
        while pots and pots[-1][1] == players:
            amount += pots.pop()[0]
        if amount:
            pots.append((amount, players))
        previous = level
    return pots


def settle(
    contrib: Sequence[int], in_hand: Sequence[bool], ranks: Sequence[int], dead: int = 0
) -> list[int]:
    """Chips each player wins from the pots at a showdown of two or more players.

    As pokerkit: hands that cannot win any pot are killed first (which can merge
    side pots), then each pot splits evenly among its best hands and the odd chips
    go to the winner nearest the button's left (lowest index).
    """
    n = len(contrib)
    level = max(contrib)
    if all(contrib[i] == level for i in range(n) if in_hand[i]):
        # Nobody is all-in for less: one pot, whatever the folded players put in.
        best = max(ranks)
        winners = [i for i in range(n) if in_hand[i] and ranks[i] == best]
        return _split(n, sum(contrib) + dead, winners)
    alive = [False] * n
    for _, players in _pots(contrib, in_hand, dead):
        if not players:  # pragma: no cover - see below
            continue
        best = max(ranks[i] for i in players)
        for i in players:
            if ranks[i] == best:
                alive[i] = True
    won = [0] * n
    pots = _pots(contrib, alive if alive != list(in_hand) else in_hand, dead)
    for amount, players in pots:
        if not players:  # pragma: no cover - pokerkit burns such chips; betting never makes one
            continue
        best = max(ranks[i] for i in players)
        for i, chips in enumerate(_split(n, amount, [i for i in players if ranks[i] == best])):
            won[i] += chips
    return won


def _split(n: int, amount: int, winners: list[int]) -> list[int]:
    """`amount` shared evenly by `winners`; the odd chips to the first of them."""
    won = [0] * n
    share, odd = divmod(amount, len(winners))
    for i in winners:
        won[i] = share
    won[winners[0]] += odd
    return won
