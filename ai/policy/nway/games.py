"""The games the n-player blueprints are trained for: rules and action abstraction.

Chips: small blind 1, big blind 2 (the LBR and arena defaults). No-Limit raise sizes
are fractions of the pot after calling, by how many bets or raises this street came
before (the blinds not counted); all-in is always one more size while any size is
left, and past the last size only fold and call remain.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class NWayGame:
    name: str
    n: int  # players
    limit: bool
    stack: int  # chips each player starts with
    # No-Limit: pot fractions per earlier raise count this street; Limit: unused.
    sizes: tuple[tuple[float, ...], ...] = ()
    # First-round sizes where they differ (the preflop open); empty: `sizes`.
    preflop_sizes: tuple[tuple[float, ...], ...] = ()
    # Postflop sizes while three or more players are still in; None: `sizes`. Six
    # players betting in turn multiply the tree: `((),)` leaves them check, call, fold
    # and all-in only, so a multiway street ends at its first bet.
    multiway_sizes: tuple[tuple[float, ...], ...] | None = None
    # Limit: bets/raises this street the abstraction allows (the blinds not counted).
    limit_raises: tuple[int, int, int, int] = (3, 4, 4, 4)
    # Limit after the flop while three or more are still in; None: `limit_raises`.
    # Six players: `(0, 0, 0, 0)` checks a multiway street down (docs/blueprint.md).
    multiway_limit_raises: tuple[int, int, int, int] | None = None
    small_blind: int = 1
    big_blind: int = 2

    def sizes_for(self, street: int, raises: int, alive: int = 2) -> tuple[float, ...] | None:
        """The fractions allowed after `raises` bets this street with `alive` players
        not folded; None: no raise at all."""
        table = self.preflop_sizes if street == 0 and self.preflop_sizes else self.sizes
        if street > 0 and alive > 2 and self.multiway_sizes is not None:
            table = self.multiway_sizes
        return table[raises] if raises < len(table) else None

    def limit_cap(self, street: int, alive: int = 2) -> int:
        """Limit: the bets or raises this street's abstraction allows."""
        if street > 0 and alive > 2 and self.multiway_limit_raises is not None:
            return self.multiway_limit_raises[street]
        return self.limit_raises[street]


NOLIMIT_HU = NWayGame(
    name="nolimit-hu",
    n=2,
    limit=False,
    stack=200,
    sizes=((0.5, 1.0), (1.0,), ()),
    preflop_sizes=((0.5, 1.0), (1.0,), ()),
)
LIMIT_3MAX = NWayGame(name="limit-3max", n=3, limit=True, stack=200, limit_raises=(2, 2, 2, 2))
# Six players (docs/blueprint.md, "No-Limit 6-max"): preflop an open of 0.6 pot (2.5 bb
# first in), of 2 pots (6 bb) or all-in, then all-in only; heads-up after the flop a
# pot bet or all-in, then all-in; three or more after the flop all-in only. 247,252
# nodes (one open size: 133,076); a pot-sized 3-bet would make 887 thousand, the pot
# bet multiway 6.3 million. The second open keeps raises of up to ~12 bb off the
# all-in when translated (with one open, anything above ~6 bb read as a shove).
NOLIMIT_6MAX = NWayGame(
    name="nolimit-6max",
    n=6,
    limit=False,
    stack=200,
    sizes=((1.0,), ()),
    preflop_sizes=((0.6, 2.0), ()),
    multiway_sizes=((),),
)
# Six-handed Limit (docs/blueprint.md, "Limit 6-max"): preflop an open and a 3-bet, heads-up
# after the flop a bet only (no raise), three or more after the flop checked down.
# 244,089 nodes; a raise heads-up after the flop too makes 862 thousand, one multiway
# flop bet 5.3 million.
LIMIT_6MAX = NWayGame(
    name="limit-6max",
    n=6,
    limit=True,
    stack=200,
    limit_raises=(2, 1, 1, 1),
    multiway_limit_raises=(0, 0, 0, 0),
)
GAMES = {g.name: g for g in (NOLIMIT_HU, LIMIT_3MAX, NOLIMIT_6MAX, LIMIT_6MAX)}
