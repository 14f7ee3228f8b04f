"""One player against each other player at the same tables: the per-deal difference.

"Is X ahead of every other style?" asks, per opponent Y, for X's result minus Y's
over the same hands. In a duplicate match a deal's rotations (as many consecutive
hands of a table as it has seats) give every player every seat's cards, so the
difference summed over a deal is one sample, and its mean over the deals, in
bb/100 with a 95% CI, answers the question. Several recordings (seeds) pool their
deals.

With `allin_ev`, a hand whose chips all went in before the river and that was shown
down counts each player's share of the pots at its equity then (holdem.stats'
all-in EV, the figure of a player's results graph) instead of the cards that came.
That takes out the luck of the runout, which in No-Limit is much of a deal's
spread, and nothing else: the estimate stays that of the expected winnings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ai.arena.compare import deal_ci95
from ai.arena.record import Document
from holdem.history import HandRecord
from holdem.stats import player_hands


@dataclass(frozen=True, slots=True)
class Versus:
    opponent: str
    hands: int  # hands both played
    bb_per_100: float  # the player's result minus the opponent's, per 100 of those hands
    ci95: tuple[float, float]  # of bb_per_100, one deal one sample (infinite below two)


def versus(
    recordings: Iterable[Iterable[Document]],
    player: str,
    allin_ev: bool = False,
    progress: Callable[[int], None] | None = None,
) -> list[Versus]:
    """The player against each opponent it met, best difference first; `progress` is
    told the hands read so far. Raises ValueError when the player is in none of them."""
    deals: dict[str, dict[tuple[int, str, int], float]] = {}
    hands: dict[str, int] = {}
    read = 0
    for index, docs in enumerate(recordings):
        for doc in docs:
            read += 1
            if progress is not None:
                progress(read)
            net = _results(doc, allin_ev)
            if player not in net:
                continue
            deal = (index, str(doc.get("table_id", "")), (int(doc["hand_no"]) - 1) // len(net))
            for other, result in net.items():
                if other == player:
                    continue
                sums = deals.setdefault(other, {})
                sums[deal] = sums.get(deal, 0.0) + net[player] - result
                hands[other] = hands.get(other, 0) + 1
    if not deals:
        raise ValueError(f"no player {player!r} in these hands")
    out = [_summary(other, list(sums.values()), hands[other]) for other, sums in deals.items()]
    out.sort(key=lambda v: (-v.bb_per_100, v.opponent))
    return out


def _results(doc: Document, allin_ev: bool) -> dict[str, float]:
    """Each player's result in the hand, in big blinds (at all-in equity if asked)."""
    big_blind = float(doc["config"]["big_blind"])
    net = {
        s["player_id"]: (s["final_stack"] - s["starting_stack"]) / big_blind for s in doc["seats"]
    }
    if allin_ev and any(e["kind"] == "show" for e in doc["events"]):
        # Only a hand shown down can have an all-in EV different from its net.
        for p in player_hands(HandRecord.model_validate(doc)):
            net[p.player_id] = p.allin_ev / big_blind
    return net


def _summary(opponent: str, per_deal: list[float], hands: int) -> Versus:
    return Versus(opponent, hands, 100 * sum(per_deal) / hands, deal_ci95(per_deal, hands))
