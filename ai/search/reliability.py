"""How much a player's bets say about their cards, learned from the hands they showed.

The opponent model and the ranges assume that a player who bets or raises holds the
top share of holdings (the mu-sigma weighting). A maniac or a random player bets
whatever they hold: their bets mean nothing, and a search that believes them folds
too much. At a showdown the shown holding's strength (Income Rate percentile
preflop, board percentile after) on every street where the player bet or raised is
public; a strength-driven player that raises a share r of its continuing decisions
shows about 1 - r / 2 there (REFERENCE when r is unknown), a card-blind one 0.5.
The read = (mean shown strength - 0.5) / (that - 0.5), clipped to 0..1 and shrunk
towards 1 by PRIOR_SHOWS imaginary shows, so an unknown player is believed.

The search mixes each opponent's strength-driven play and range with card-blind
ones by reliability kappa (`ai.search.kernel`, `ai.search.deals`): the
read itself. A loose player whose bets follow its cards reads below 1 too
(aggressive about 0.8 heads-up, 0.63 six-handed; loki 0.87 heads-up No-Limit).

Only shown cards are read (HandSummary.shown: what a showdown revealed).

>>> r = Reliability()
>>> r.kappa("nobody")
1.0
>>> for _ in range(40):
...     r.add("maniac", 0.5)
>>> round(r.kappa("maniac"), 2)
0.09
>>> for _ in range(40):
...     r.add("loose", 0.7)
>>> round(r.kappa("loose"), 2)
0.7
"""

from __future__ import annotations

from ai.game.summary import HandSummary
from ai.math.range_strength import LEX_INDEX
from ai.models.ranges import holding_strengths
from ai.sim.rules import BET, PREFLOP

REFERENCE = 0.8
PRIOR_SHOWS = 4.0
_BOARD_BY_STREET = (0, 3, 4, 5)


class Reliability:
    """Per player: the strengths shown after their bets and raises."""

    def __init__(self, potential: bool = False, prior_shows: float = PRIOR_SHOWS) -> None:
        self.potential = potential  # strength as the ranges measure it (holding_strengths)
        self.prior_shows = prior_shows  # imaginary shows at the reference (believed)
        self.sums: dict[str, float] = {}
        self.counts: dict[str, int] = {}

    def add(self, player: str, strength: float) -> None:
        self.sums[player] = self.sums.get(player, 0.0) + strength
        self.counts[player] = self.counts.get(player, 0) + 1

    def observe(self, summary: HandSummary, me: int | None = None) -> None:
        """Count the shown holdings of a finished hand against their owners' bets; the
        reader's own seat `me` is skipped (its bets are no read on an opponent)."""
        if not summary.shown:
            return
        opponents = len(summary.players) - 1
        for index, (a, b) in summary.shown.items():
            if index == me:
                continue
            combo = int(LEX_INDEX[a, b])
            for record in summary.history:
                if record.player != index or record.kind < BET:
                    continue
                street = record.street
                board = tuple(summary.board[: _BOARD_BY_STREET[street]])
                if street != PREFLOP and len(board) < 3:
                    continue
                strength = float(holding_strengths(board, opponents, self.potential)[combo])
                self.add(summary.players[index], strength)

    def read(self, player: str, raise_share: float | None = None) -> float:
        """How far the player's shows sit from card-blind (0) to strength-driven (1).
        `raise_share`: how often the player bets or raises when it does not fold; a
        strength-driven player raising that often shows the top of its holdings, about
        1 - raise_share / 2 (REFERENCE when not given)."""
        reference = REFERENCE if raise_share is None else max(0.55, 1.0 - raise_share / 2)
        count = self.counts.get(player, 0)
        prior = self.prior_shows
        mean = (self.sums.get(player, 0.0) + prior * reference) / (count + prior)
        return min(1.0, max(0.0, (mean - 0.5) / (reference - 0.5)))

    def kappa(self, player: str, raise_share: float | None = None) -> float:
        """The share of the player's play the search takes to follow its cards: the read."""
        return self.read(player, raise_share)
