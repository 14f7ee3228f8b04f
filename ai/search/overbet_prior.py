"""How the blueprint answers bets beyond the pot, as the search's overbet exponent.

The kernel meets a No-Limit bet of `r` pots (r > 1) with a player's continuing share
facing a bet beyond the pot (its tables' cost 2) scaled by (2 / (1 + r)) ** exponent
(`ai.search.kernel.continue_scale`), and `ai.search.versus.overbet_exponent` fits the
exponent to the player's answers to our overbets around a prior. That prior was 1
(pot odds' minimum defence) for everyone. Where the blueprint stands behind the tables
it double counts: the blueprint's cost-2 share is already its answer to the bets beyond
the pot it meets, most of them all-ins (heads-up No-Limit: continued 15-21% per street,
against 45-78% facing bets up to the pot), so an all-in of 30 pots was taken as called
about 1% of the time, and by a player seen calling everything (its cost-2 share near
1) 6%, until that player had answered our own overbets.

Here the prior is the blueprint's own: the exponent that best explains the blueprint's
answers to bets beyond the pot, by size, weighed by how often self-play reaches them
(`versus.implied_exponent`, per tree player, with that player's cost-2 share from
`blueprint_prior.nway_prior`). Nothing is chosen: the shipped artefact decides it.
"""

from __future__ import annotations

import functools

import numpy as np
import numpy.typing as npt

from ai.game.observation import Observation
from ai.policy.blueprint import NotCovered
from ai.policy.nway import tree as nway_tree
from ai.policy.nway.lookup import ARTEFACTS, NWayBlueprint, shipped
from ai.search.blueprint_prior import chips_tree, nway_prior, reached_means
from ai.search.prior_cache import cached
from ai.search.versus import OVERBET_EDGES, implied_exponent

F64 = npt.NDArray[np.float64]
STREETS = 4
GAME = "nolimit-hu"


def blueprint_overbets(bp: NWayBlueprint) -> F64:
    """over[tree player, street, size bin, folded/continued]: the blueprint's answers to
    bets beyond the pot (`versus.OVERBET_EDGES` bins, as `VersusBook.overbets_of`
    counts ours), averaged over card buckets and weighed by self-play's reach."""
    t = bp.tree
    chips = chips_tree(bp)
    over = np.zeros((bp.game.n, STREETS, len(OVERBET_EDGES), 2))
    for node, mean, reach in reached_means(bp):
        if t.action[node, 0] == nway_tree.A_FOLD:
            call, pot = int(chips.to_call[node]), int(chips.pot[node])
            ratio = call / max(pot - call, 1)  # the bet over the pot before it
            if ratio > OVERBET_EDGES[0]:
                size = int(np.searchsorted(OVERBET_EDGES, ratio)) - 1
                folded = float(mean[0])
                over[int(t.player[node]), int(t.round[node]), size] += reach * np.array(
                    [folded, 1 - folded]
                )
    return over


@functools.cache
def blueprint_exponents() -> F64:
    """Per tree player of the heads-up No-Limit blueprint, the exponent its own answers
    to overbets imply (cached per process and on disk)."""
    bp = shipped(GAME)  # NotCovered where the artefact is not shipped
    shares, _ = nway_prior(GAME)

    def build() -> tuple[F64]:
        over = blueprint_overbets(bp)  # reach shares: the most likely exponent needs no counts
        cont = shares[:, :, 2, 1] + shares[:, :, 2, 2]
        return (np.array([implied_exponent(over[p], cont[p]) for p in range(len(over))]),)

    (exponents,) = cached(f"overbet-{GAME}", ARTEFACTS[GAME], build)
    return np.asarray(exponents, dtype=np.float64)


def prior_exponents(obs: Observation) -> list[float] | None:
    """Each player's overbet-exponent prior at this table: the heads-up No-Limit
    blueprint's (seat i is tree player i, as `blueprint_prior.prior_for` maps them), or
    None where no such blueprint stands behind the tables (the fit's default prior)."""
    if obs.limit or obs.n != 2:
        return None
    try:
        return [float(e) for e in blueprint_exponents()]
    except NotCovered:
        return None
