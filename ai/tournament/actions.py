"""Near the money, every candidate action of a decision valued in prize equity (ICM).

The search reports, per root action, its mean chip result (in big blinds, relative to
folding now) and the share of its simulated hands in which every opponent folded; not
the whole distribution. A mean of chips is not a mean of prize equity (ICM is concave:
a gamble is worth less than its average stack), so each action is spread over three
outcomes, an *approximation*: everyone folds (we take the pot as it is), with the
search's fold share; else we win the pot (plus one caller's match of our raise) or lose
what we put in, with the chance of winning that makes the whole average to the
search's own chip value (so the chips and the prize equity shown come from the same
numbers). Without a fold share (values not from a search) it is the two-outcome
approximation. Each outcome's stacks (ours; the opponents in the hand share the rest of
the chips in play in proportion to their stacks; everyone else as now) are valued by
ICM. Folding is exact: our stack now, the pot to the others.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ai.game.observation import KIND_NAMES, Decision, Observation
from ai.sim.rules import BET, CALL, CHECK, FOLD, RAISE
from ai.tournament.icm import icm_first
from protocol.messages import DecisionQuery, TournamentSituation

# As the search's chooser (SearchConfig.min_share): an action needs this share of the
# most visited action's iterations to be chosen; fewer, and its value is mostly noise.
MIN_SHARE = 0.1
APPROXIMATION = "approximation: all fold, win the pot or lose what is put in"

_KIND_BY_NAME = {name: kind for kind, name in enumerate(KIND_NAMES)}


@dataclass(frozen=True)
class Outcomes:
    """An action as three outcomes, our chips beyond folding now: everyone folds
    (`steal`, with the search's share `p_steal`), else we win `win` or lose `lose`, with
    the chance `p_win` (of the hands not folded to us) that makes them average to the
    action's chip value."""

    win: float
    lose: float
    p_win: float
    steal: float = 0.0
    p_steal: float = 0.0


def parse(label: str, obs: Observation) -> tuple[int, int] | None:
    """(kind, street total) of a value label ("fold", "call", "raise 600", Limit "bet")."""
    name, _, amount = label.partition(" ")
    kind = _KIND_BY_NAME.get(name)
    if kind is None:
        return None
    to = int(amount) if amount else (obs.legal.min_to if kind in (BET, RAISE) else 0)
    return kind, to


def outcomes(obs: Observation, kind: int, to: int, value_bb: float, folds: float = 0.0) -> Outcomes:
    """The outcomes of an action whose search value is `value_bb` (chips relative to
    folding now, in big blinds), every opponent folding in a share `folds` of it."""
    legal = obs.legal
    me = obs.index
    mean = value_bb * obs.big_blind
    if kind == FOLD:
        return Outcomes(0.0, 0.0, 1.0)
    if kind == CHECK:
        added = 0
    elif kind == CALL:
        added = min(legal.call_amount, obs.stacks[me])
    else:
        added = to - legal.committed
    covered = max((obs.stacks[i] for i in obs.opponents), default=0)
    extra = min(max(added - legal.call_amount, 0), covered)  # one caller matches the raise
    steal = float(obs.pot)  # all fold: the pot as it is (our chips come back)
    p_steal = min(max(folds, 0.0), 0.999)
    rest = (mean - p_steal * steal) / (1 - p_steal)  # the mean of the hands not folded to us
    # The continuation may put more in (or win more) than this street's chips: the
    # outcomes are widened until they bracket the mean, which they then average to.
    lose = min(max(float(added), -rest), float(obs.stacks[me]))
    win = max(float(obs.pot + extra), rest)
    p = (rest + lose) / (win + lose) if win + lose > 0 else 1.0
    return Outcomes(win, lose, min(1.0, max(0.0, p)), steal, p_steal)


def _others_off_hand(
    obs: Observation, query: DecisionQuery, situation: TournamentSituation
) -> list[float]:
    """Stacks of everyone still in the tournament but not in this hand (folded players
    here, seats not dealt in, the other tables)."""
    dealt = set(obs.seats)
    out = [float(obs.stacks[i]) for i in range(obs.n) if i != obs.index and not obs.in_hand[i]]
    out += [float(s.stack) for s in query.view.seats if s.seat not in dealt and s.stack > 0]
    out += [float(s) for s in situation.other_stacks]
    return [s for s in out if s > 0]


class PrizeValuer:
    """Our prize equity after a change of our stack, the chips in play conserved."""

    def __init__(self, obs: Observation, query: DecisionQuery) -> None:
        situation = query.tournament
        if situation is None:
            raise ValueError("prize equity needs a tournament situation")
        self.obs = obs
        self.prizes = situation.prizes
        self.rest = _others_off_hand(obs, query, situation)
        opponents = obs.opponents
        # Their shares of whatever we do not end with: in proportion to their stacks as
        # the hand began (folded players' chips in the pot are dead: in play, not theirs).
        starts = [float(obs.stacks[i] + obs.invested(i)) for i in opponents]
        total = sum(starts)
        self.shares = [s / total for s in starts] if total > 0 else []
        self.in_play = float(sum(obs.stacks[i] for i in opponents) + obs.pot)
        self._cache: dict[float, float] = {}

    def after(self, change: float) -> float:
        """Our prize equity with our stack now plus `change` chips."""
        mine = min(max(float(self.obs.stacks[self.obs.index]) + change, 0.0), self.total)
        found = self._cache.get(mine)
        if found is None:
            theirs = self.total - mine
            stacks = [mine, *(theirs * s for s in self.shares), *self.rest]
            found = self._cache[mine] = icm_first(stacks, self.prizes)
        return found

    @property
    def total(self) -> float:
        return float(self.obs.stacks[self.obs.index]) + self.in_play

    def value(self, label: str, value_bb: float, folds: float = 0.0) -> float | None:
        """An action's expected prize equity, or None for a label that is no action."""
        parsed = parse(label, self.obs)
        if parsed is None:
            return None
        if parsed[0] == FOLD:
            return self.after(0.0)
        o = outcomes(self.obs, parsed[0], parsed[1], value_bb, folds)
        shown = o.p_win * self.after(o.win) + (1 - o.p_win) * self.after(-o.lose)
        if not o.p_steal:
            return shown
        return o.p_steal * self.after(o.steal) + (1 - o.p_steal) * shown


def prize_values(
    obs: Observation,
    query: DecisionQuery,
    values: Mapping[str, float],
    folds: Mapping[str, float] | None = None,
) -> dict[str, float]:
    """Per value label (chips in big blinds), its prize equity; `folds`: per label, the
    share of the search's hands every opponent folded (none: the two-outcome form)."""
    valuer = PrizeValuer(obs, query)
    shares = folds or {}
    out = {label: valuer.value(label, v, shares.get(label, 0.0)) for label, v in values.items()}
    return {label: p for label, p in out.items() if p is not None}


def candidates(decision: Decision) -> list[str]:
    """The labels the search could have chosen: folding (exact), the chip choice, and
    every action searched at least MIN_SHARE as much as the most searched one."""
    values = decision.values or {}
    shares = {k: s for k, (_, s) in (decision.spread or {}).items() if k in values}
    most = max(shares.values(), default=0.0)
    chosen = _label(decision)
    return [
        k
        for k in values
        if k == "fold" or k == chosen or (most > 0 and shares.get(k, 0.0) >= MIN_SHARE * most)
    ]


def _label(decision: Decision) -> str:
    values = decision.values or {}
    full = f"{decision.name} {decision.to}"
    return full if full in values else decision.name


__all__ = [
    "APPROXIMATION",
    "MIN_SHARE",
    "Outcomes",
    "PrizeValuer",
    "candidates",
    "outcomes",
    "parse",
    "prize_values",
]
