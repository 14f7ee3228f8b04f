"""Per-player action statistics: the frequency-table model (DOMAIN.md §3).

`PlayerStats` counts, per player, VPIP, preflop raises, and the 36 categories
street x cost (0, 1, 2+ bets to call) x fold/call/raise. Counts start from a
generic prior (a few imaginary observations of a typical player), so a new
opponent is played like "anyone" and an observed one like themself. These
tables are the learned model's prior: its input features (a player's
tendencies) and its fallback when no trained network exists yet.

`StatsBook` keeps them for every player; `ingest` counts a hand's public
action records, and feeding the same hand again only adds what is new.

>>> book = StatsBook()
>>> from ai.game.observation import ActionRecord
>>> book.ingest("h1", ["a", "b"], [ActionRecord(1, 0, 4, 6, 1, 3)], (2, 2, 4, 4))
>>> book.get("b").pfr_hands, book.get("a").hands
(1, 1)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ai.game.observation import ActionRecord
from ai.sim.rules import BET, CALL, CHECK, FOLD, PREFLOP

FOLD_I, CALL_I, RAISE_I = 0, 1, 2
# Generic prior per street x cost: (fold, call, raise) shares of a typical player and
# how many imaginary observations they are worth.
PRIOR_SHARES = (
    ((0.0, 0.75, 0.25), (0.55, 0.33, 0.12), (0.70, 0.22, 0.08)),  # preflop
    ((0.0, 0.70, 0.30), (0.45, 0.43, 0.12), (0.60, 0.32, 0.08)),  # flop
    ((0.0, 0.72, 0.28), (0.45, 0.45, 0.10), (0.60, 0.33, 0.07)),  # turn
    ((0.0, 0.74, 0.26), (0.50, 0.42, 0.08), (0.62, 0.32, 0.06)),  # river
)
PRIOR_WEIGHT = 6.0
PRIOR_VPIP = 0.28
PRIOR_PFR = 0.14
PRIOR_HANDS = 8.0
# Decisions seen in a context at which a player's own frequencies there weigh as much as
# the network's prediction (`with_own_play`).
OWN_PLAY_WEIGHT = 30.0
# Players in the hand at a decision, as the index of `crowd_counts`: two, three, four or
# more. A player's bets depend on how many are left (Loki's strength is raised to the
# number of opponents): over 10,000 hands against mcts, lokis bet 79% of the heads-up
# flops with nothing to call, 49% three-way and 36% with four or more.
CROWDS = 3


def crowd_of(in_hand: int) -> int:
    """`crowd_counts`' index for `in_hand` players in the hand.

    >>> crowd_of(2), crowd_of(3), crowd_of(7)
    (0, 1, 2)
    """
    return min(max(in_hand, 2), 2 + CROWDS - 1) - 2


def cost_bucket(to_call: int, bet_unit: int, pot: int, limit: bool) -> int:
    """0: nothing to call, 1: one bet, 2: two or more (No-Limit: up to half the pot, more).

    >>> cost_bucket(0, 2, 10, True), cost_bucket(2, 2, 10, True), cost_bucket(4, 2, 10, True)
    (0, 1, 2)
    >>> cost_bucket(5, 2, 10, False), cost_bucket(6, 2, 10, False)
    (1, 2)
    """
    if to_call <= 0:
        return 0
    if limit:
        return 1 if to_call <= bet_unit else 2
    return 1 if 2 * to_call <= pot else 2


def action_class(kind: int) -> int:
    """FOLD_I, CALL_I (check or call) or RAISE_I (bet or raise) of a simulator kind."""
    if kind == FOLD:
        return FOLD_I
    if kind in (CHECK, CALL):
        return CALL_I
    return RAISE_I


@dataclass
class PlayerStats:
    hands: int = 0
    vpip_hands: int = 0
    pfr_hands: int = 0
    # counts[street, cost, action]
    counts: np.ndarray = field(default_factory=lambda: np.zeros((4, 3, 3)))
    # crowd_counts[street, cost, crowd, action]: the same decisions split by `crowd_of`.
    crowd_counts: np.ndarray = field(default_factory=lambda: np.zeros((4, 3, CROWDS, 3)))
    # The model's inputs derived from the counts, kept until a count changes (`touch`).
    _summary: tuple[float, float, float, float, list[list[tuple[float, float, float]]]] | None = (
        field(default=None, repr=False, compare=False)
    )

    def touch(self) -> None:
        self._summary = None

    def add(self, street: int, cost: int, crowd: int, action: int) -> None:
        """Count one decision: context (street, cost), `crowd_of` players in the hand."""
        self.counts[street, cost, action] += 1
        self.crowd_counts[street, cost, crowd, action] += 1
        self._summary = None

    def summary(self) -> tuple[float, float, float, float, list[list[tuple[float, float, float]]]]:
        """(vpip, pfr, aggression factor, hands, frequencies[street][cost]), cached."""
        if self._summary is None:
            table = [[self.frequencies(street, cost) for cost in range(3)] for street in range(4)]
            self._summary = (self.vpip, self.pfr, self.aggression, float(self.hands), table)
        return self._summary

    def frequencies(self, street: int, cost: int) -> tuple[float, float, float]:
        """(fold, call, raise) shares in this context, prior-smoothed."""
        prior = PRIOR_SHARES[street][cost]
        row = self.counts[street, cost]
        total = float(row.sum()) + PRIOR_WEIGHT
        shares = tuple((float(row[a]) + PRIOR_WEIGHT * prior[a]) / total for a in range(3))
        return shares[0], shares[1], shares[2]

    def crowd_frequencies(self, street: int, cost: int, crowd: int) -> tuple[float, float, float]:
        """(fold, call, raise) shares in this context with `crowd` (`crowd_of`) players in
        the hand, smoothed towards the player's shares over every crowd."""
        prior = self.frequencies(street, cost)
        row = self.crowd_counts[street, cost, crowd]
        total = float(row.sum()) + PRIOR_WEIGHT
        shares = tuple((float(row[a]) + PRIOR_WEIGHT * prior[a]) / total for a in range(3))
        return shares[0], shares[1], shares[2]

    @property
    def decisions(self) -> int:
        return int(self.counts.sum())

    @property
    def vpip(self) -> float:
        return (self.vpip_hands + PRIOR_VPIP * PRIOR_HANDS) / (self.hands + PRIOR_HANDS)

    @property
    def pfr(self) -> float:
        return (self.pfr_hands + PRIOR_PFR * PRIOR_HANDS) / (self.hands + PRIOR_HANDS)

    @property
    def aggression(self) -> float:
        """Postflop (bets + raises) / calls, the classic aggression factor."""
        post = self.counts[1:]
        calls = float(post[:, 1:, CALL_I].sum())
        raises = float(post[:, :, RAISE_I].sum())
        return raises / calls if calls else raises

    @property
    def fold_to_bet(self) -> float:
        return self.frequencies(1, 1)[0]

    def label(self) -> str:
        loose = "loose" if self.vpip > 0.35 else "tight"
        aggressive = (
            "aggressive" if self.pfr > 0.5 * self.vpip or self.aggression > 1.5 else "passive"
        )
        return f"{loose}-{aggressive}"

    def to_doc(self) -> dict[str, object]:
        return {
            "hands": self.hands,
            "vpip_hands": self.vpip_hands,
            "pfr_hands": self.pfr_hands,
            "counts": self.counts.astype(int).ravel().tolist(),
            "crowd_counts": self.crowd_counts.astype(int).ravel().tolist(),
        }

    @classmethod
    def from_doc(cls, doc: dict[str, object]) -> PlayerStats:
        counts = np.asarray(doc.get("counts", [0] * 36), dtype=np.float64).reshape(4, 3, 3)
        crowd = doc.get("crowd_counts", [0] * (36 * CROWDS))  # absent before crowds were kept
        crowd_counts = np.asarray(crowd, dtype=np.float64).reshape(4, 3, CROWDS, 3)
        return cls(
            int(doc.get("hands", 0)),  # type: ignore[call-overload]
            int(doc.get("vpip_hands", 0)),  # type: ignore[call-overload]
            int(doc.get("pfr_hands", 0)),  # type: ignore[call-overload]
            counts,
            crowd_counts,
        )


def with_own_play(
    shares: tuple[float, float, float], stats: PlayerStats, street: int, cost: int, crowd: int
) -> tuple[float, float, float]:
    """`shares` (a network's prediction) moved towards the player's own frequencies in this
    context and crowd, as far as it was seen there: a player unlike the population is read
    from its own play before any network of its own is trained on it."""
    seen = float(stats.counts[street, cost].sum())
    if not seen:
        return shares
    w = seen / (seen + OWN_PLAY_WEIGHT)
    own = stats.crowd_frequencies(street, cost, crowd)
    f, c, r = ((1 - w) * shares[a] + w * own[a] for a in range(3))
    return f, c, r


class StatsBook:
    """Statistics of every player seen; feeding the same hand again only adds what is new."""

    def __init__(self) -> None:
        self.players: dict[str, PlayerStats] = {}
        self._seen: dict[Hashable, int] = {}  # hand key -> records already counted
        self._voluntary: dict[Hashable, set[str]] = {}
        self._raised: dict[Hashable, set[str]] = {}

    def get(self, player: str) -> PlayerStats:
        stats = self.players.get(player)
        if stats is None:
            stats = self.players[player] = PlayerStats()
        return stats

    def peek(self, player: str) -> PlayerStats:
        """The player's statistics, or the prior's without remembering the player."""
        return self.players.get(player) or PlayerStats()

    def ingest(
        self,
        hand_key: Hashable,
        players: Sequence[str],
        history: Sequence[ActionRecord],
        bet_units: Sequence[int],
        limit: bool = True,
    ) -> None:
        """Count the records of `hand_key` not counted yet. bet_units: bet size per street."""
        start = self._seen.get(hand_key)
        if start is None:
            start = 0
            for player in players:
                stats = self.get(player)
                stats.hands += 1
                stats.touch()
            self._voluntary[hand_key] = set()
            self._raised[hand_key] = set()
            if len(self._seen) > 2000:  # forget old hands' bookkeeping, keep the stats
                for old in list(self._seen)[:1000]:
                    self._seen.pop(old, None)
                    self._voluntary.pop(old, None)
                    self._raised.pop(old, None)
        voluntary = self._voluntary.setdefault(hand_key, set())
        raised = self._raised.setdefault(hand_key, set())
        in_hand = len(players) - sum(1 for record in history[:start] if record.kind == FOLD)
        for record in history[start:]:
            player = players[record.player]
            stats = self.get(player)
            cost = cost_bucket(record.to_call, bet_units[record.street], record.pot, limit)
            stats.add(record.street, cost, crowd_of(in_hand), action_class(record.kind))
            if record.kind == FOLD:
                in_hand -= 1
            if record.street == PREFLOP and record.kind in (CALL, BET, 4):
                if player not in voluntary:
                    voluntary.add(player)
                    stats.vpip_hands += 1
                if record.kind != CALL and player not in raised:
                    raised.add(player)
                    stats.pfr_hands += 1
        self._seen[hand_key] = len(history)
