"""Scoring the holding-conditioned prediction on recorded bot matches (evaluation only).

The ranges use the model's public prediction for a spot, turned into a
probability per holding by its strength (`ai.models.ranges.holding_triples`).
How good that is can be measured where the true holdings are on record: arena
matches. Here, and only here, the recorded hole cards are read, to score the
prediction made for the holding actually held; nothing here trains or plays.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from ai.math.preflop_rank import hand_percentile
from ai.math.range_strength import LEX_INDEX, percentiles
from ai.models.features import FEATURES
from ai.models.metrics import Score, score
from ai.models.public import from_record_doc
from ai.models.ranges import holding_triples
from ai.models.replay import decisions
from holdem.cards import card_index

F64 = npt.NDArray[np.float64]
_NO_FOLD = FEATURES.index("cost_none")


def true_strengths(docs: Iterable[Mapping[str, Any]]) -> F64:
    """Per decision, in `build_dataset`'s order, the strength of the actor's recorded
    holding (NaN where a record lacks it; a hand that does not replay gives none)."""
    out: list[float] = []
    for doc in docs:
        hand = from_record_doc(doc)
        holes = {
            int(s["seat"]): [card_index(c) for c in s.get("hole_cards", ())] for s in doc["seats"]
        }
        found: list[float] = []
        try:
            for obs, _, _ in decisions(hand):
                cards = holes.get(hand.seats[obs.index], [])
                if len(cards) != 2:
                    found.append(float("nan"))
                elif obs.board:
                    found.append(
                        float(percentiles(tuple(obs.board))[LEX_INDEX[cards[0], cards[1]]])
                    )
                else:
                    found.append(hand_percentile(cards[0], cards[1], max(obs.n_opponents, 1)))
        except ValueError:
            continue
        out.extend(found)
    return np.asarray(out, dtype=np.float64)


def conditioned_probs(public: F64, strengths: F64, x: npt.NDArray[np.float32]) -> F64:
    """The holding-conditioned (fold, call, raise) of each decision's true holding."""
    out = np.zeros_like(public)
    for k in range(len(public)):
        fold, call, raise_ = holding_triples(
            (float(public[k, 0]), float(public[k, 1]), float(public[k, 2])),
            strengths[k : k + 1],
            bool(x[k, _NO_FOLD] == 0.0),
        )
        out[k] = (fold[0], call[0], raise_[0])
    return out


def conditioned_scores(
    public: F64, strengths: F64, x: npt.NDArray[np.float32], actions: npt.NDArray[np.int64],
    keys: npt.NDArray[np.str_],
) -> dict[str, Score]:  # fmt: skip
    """Accuracy of the holding-conditioned prediction, overall ("all") and per key."""
    known = ~np.isnan(strengths)
    probs = conditioned_probs(public[known], strengths[known], x[known])
    out = {"all": score(probs, actions[known])}
    for key in sorted(set(keys[known].tolist())):
        mask = keys[known] == key
        out[key] = score(probs[mask], actions[known][mask])
    return out
