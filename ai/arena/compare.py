"""Reading recorded matches: where two bots part ways on the same deals, and whose chips
a player won.

`showdown arena --record FILE` writes every hand as the server stores it. Two
recordings of the same deals (same --seed, --hands, --duplicate and bots but one
seat) answer "where does bot A win or lose against bot B in that seat?": each
pair of hands is filed under the first event where they differ, with the seat's
difference in chips, so a leak shows up as the decision that starts it
(`compare`). Only the first difference is attributed: what follows it is that
decision's consequence (and, with bots that draw random numbers, their luck).
The difference comes with a 95% CI whose samples are one deal's rotations (as many
consecutive hands of a table as it has seats): in a duplicate match those hands share
their cards, so they are not independent of each other.

`flows` splits each hand's winnings among the players who paid them: a loser's
chips go to the winners in proportion to what each won, so a player's takes from
its opponents add up to its net result.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from ai.arena.record import Document
from ai.arena.stats import half_width95

SAME = "same"  # every event identical: no difference to attribute


@dataclass(frozen=True, slots=True)
class Divergence:
    key: str  # "ours STREET: KIND_A vs KIND_B", "others STREET" or SAME
    hands: int
    bb: float  # the seat's chips in A minus in B, summed over these hands, in big blinds


@dataclass(frozen=True, slots=True)
class Comparison:
    hands: int
    bb: float  # the seat's total difference, A minus B, in big blinds
    rows: list[Divergence]  # costliest for A first
    ci95: tuple[float, float]  # of bb_per_100 (infinite with fewer than two deals)

    @property
    def bb_per_100(self) -> float:
        return 100 * self.bb / self.hands if self.hands else 0.0


@dataclass(frozen=True, slots=True)
class Flow:
    opponent: str
    bb: float  # chips the player took from this opponent (negative: lost to it), in bb
    bb_per_100: float  # per hundred hands the player played


def compare(
    a: Iterable[Document], b: Iterable[Document], player_a: str, player_b: str
) -> Comparison:
    """Hands of A and B paired by number, filed under their first differing event.

    Raises ValueError when the recordings are not of the same deals: a hand missing
    from either, or the two players not in the same seat. Hands are paired by table
    and number (a round robin's tables number their hands alike)."""
    by_number = {_number(doc): doc for doc in b}
    sums: dict[str, list[float]] = {}
    deals: dict[tuple[str, int], float] = {}  # the difference summed over a deal's rotations
    hands = 0
    total = 0.0
    for doc_a in a:
        number = _number(doc_a)
        doc_b = by_number.pop(number, None)
        if doc_b is None:
            raise ValueError(f"{_name(number)} is in the first recording only: not the same deals")
        seat = _seat(doc_a, player_a, number)
        if _seat(doc_b, player_b, number) != seat:
            raise ValueError(f"{_name(number)}: {player_a} and {player_b} sit in different seats")
        big_blind = float(doc_a["config"]["big_blind"])
        diff = (_net(doc_a, seat) - _net(doc_b, seat)) / big_blind
        key = _first_difference(doc_a["events"], doc_b["events"], seat)
        entry = sums.setdefault(key, [0, 0.0])
        entry[0] += 1
        entry[1] += diff
        deal = (number[0], (number[1] - 1) // len(doc_a["seats"]))
        deals[deal] = deals.get(deal, 0.0) + diff
        hands += 1
        total += diff
    if by_number:
        first = min(by_number)
        raise ValueError(f"{_name(first)} is in the second recording only: not the same deals")
    rows = [Divergence(key, int(n), bb) for key, (n, bb) in sums.items()]
    rows.sort(key=lambda row: (row.bb, row.key))
    return Comparison(hands, total, rows, deal_ci95(list(deals.values()), hands))


def deal_ci95(per_deal: list[float], hands: int) -> tuple[float, float]:
    """The 95% CI of a difference in bb/100 over `hands`, each deal's sum one sample
    (infinite with fewer than two deals)."""
    if len(per_deal) < 2:
        return (-math.inf, math.inf)
    # Per hand: a deal's sum over its average number of hands.
    samples = np.asarray(per_deal) * len(per_deal) / hands
    mean, half = 100 * float(samples.mean()), 100 * half_width95(samples)
    return (mean - half, mean + half)


def flows(docs: Iterable[Document], player: str) -> list[Flow]:
    """What `player` took from each opponent over the hands it played (most first).
    Raises ValueError when it played none."""
    taken: dict[str, float] = {}
    hands = 0
    for doc in docs:
        net = {s["player_id"]: s["final_stack"] - s["starting_stack"] for s in doc["seats"]}
        if player not in net:
            continue
        hands += 1
        won = sum(v for v in net.values() if v > 0)
        ours = net[player]
        if won <= 0 or ours == 0:
            continue
        big_blind = float(doc["config"]["big_blind"])
        for other, v in net.items():
            if other == player:
                continue
            if ours > 0 and v < 0:
                share = -v * ours / won  # its loss, in the share we won of all winnings
            elif ours < 0 and v > 0:
                share = ours * v / won  # our loss, in its share of the winnings
            else:
                continue
            taken[other] = taken.get(other, 0.0) + share / big_blind
    if not hands:
        raise ValueError(f"no player {player!r} in these hands")
    result = [Flow(other, bb, 100 * bb / hands) for other, bb in taken.items()]
    result.sort(key=lambda f: (-f.bb, f.opponent))
    return result


def _number(doc: Document) -> tuple[str, int]:
    return str(doc.get("table_id", "")), int(doc["hand_no"])


def _name(number: tuple[str, int]) -> str:
    table, hand = number
    return f"hand {hand} of {table}" if table else f"hand {hand}"


def _seat(doc: Document, player: str, number: tuple[str, int]) -> int:
    for s in doc["seats"]:
        if s["player_id"] == player:
            seat: int = s["seat"]
            return seat
    raise ValueError(f"{_name(number)}: no player {player!r}")


def _net(doc: Document, seat: int) -> int:
    s = next(s for s in doc["seats"] if s["seat"] == seat)
    net: int = s["final_stack"] - s["starting_stack"]
    return net


def _signature(event: Document) -> tuple[object, ...]:
    return (event["kind"], event["street"], event["seat"], event["amount"], event["cards"])


def _first_difference(events_a: list[Document], events_b: list[Document], seat: int) -> str:
    for x, y in zip(events_a, events_b, strict=False):
        if _signature(x) == _signature(y):
            continue
        if x["seat"] == seat and y["seat"] == seat:
            kinds = f"{x['kind']} vs {y['kind']}"
            if x["kind"] == y["kind"]:
                kinds += " (another size)"
            return f"ours {x['street']}: {kinds}"
        return f"others {x['street']}"
    return SAME if len(events_a) == len(events_b) else "others: the hand ends differently"
