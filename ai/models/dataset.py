"""Training examples: every decision of every public hand, as features and the action taken.

Hands are read in the order they were played; each decision's player
statistics are those from the hands before it (as a live model would have had
them), so no example sees its own future.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ai.game.observation import ActionRecord
from ai.models.features import N_FEATURES, feature_list, size_bucket
from ai.models.public import PublicHand
from ai.models.replay import decisions
from ai.models.stats import StatsBook, action_class
from ai.sim.rules import BET, Rules

IntArray = npt.NDArray[np.int64]
NO_SIZE = -1  # examples that are not a No-Limit bet/raise


@dataclass
class Dataset:
    x: npt.NDArray[np.float32]  # (examples, N_FEATURES)
    action: IntArray  # 0 fold, 1 check/call, 2 bet/raise
    size: IntArray  # No-Limit bet/raise size bucket, else NO_SIZE
    street: IntArray
    player: IntArray  # index into `players`
    hand: IntArray  # index of the hand in the order read (folds group by hand)
    limit: npt.NDArray[np.bool_]
    players: list[str]
    types: list[str]  # per player: "human", "bot:loki", ...
    skipped: int = 0  # hands that did not replay

    def __len__(self) -> int:
        return int(self.action.shape[0])

    def take(self, rows: npt.NDArray[np.int64] | npt.NDArray[np.bool_]) -> Dataset:
        return Dataset(
            self.x[rows],
            self.action[rows],
            self.size[rows],
            self.street[rows],
            self.player[rows],
            self.hand[rows],
            self.limit[rows],
            self.players,
            self.types,
            self.skipped,
        )

    def of_player(self, name: str) -> Dataset:
        code = self.players.index(name)
        return self.take(self.player == code)

    def example_types(self) -> npt.NDArray[np.str_]:
        return np.asarray(self.types, dtype=np.str_)[self.player]


def build_dataset(
    hands: Iterable[PublicHand],
    book: StatsBook | None = None,
    progress: Callable[[int], None] | None = None,
) -> tuple[Dataset, StatsBook]:
    """Examples from `hands` (in play order) and the statistics of every player after them."""
    book = book if book is not None else StatsBook()
    rows: list[list[float]] = []
    action: list[int] = []
    size: list[int] = []
    street: list[int] = []
    player: list[int] = []
    hand_of: list[int] = []
    limit: list[bool] = []
    codes: dict[str, int] = {}
    types: list[str] = []
    skipped = 0
    for h, hand in enumerate(hands):
        history: list[ActionRecord] = []
        start = len(action)
        try:
            for obs, kind, to in decisions(hand, history):
                name = obs.player_id(obs.index)
                code = codes.get(name)
                if code is None:
                    code = codes[name] = len(types)
                    types.append(hand.types[obs.index])
                rows.append(feature_list(obs, book.peek(name)))
                action.append(action_class(kind))
                size.append(size_bucket(obs, to) if kind >= BET and not obs.limit else NO_SIZE)
                street.append(obs.street)
                player.append(code)
                hand_of.append(h)
                limit.append(obs.limit)
        except ValueError:
            skipped += 1  # drop the whole hand: its later examples would be off
            del rows[start:], action[start:], size[start:], street[start:]
            del player[start:], hand_of[start:], limit[start:]
            continue
        if history:
            units = Rules.of(hand.config).min_increment
            book.ingest(hand.key, hand.players, history, units, hand.config.is_limit)
        if progress is not None:
            progress(h + 1)
    x = np.asarray(rows, dtype=np.float32).reshape(-1, N_FEATURES)
    data = Dataset(
        x,
        np.asarray(action, dtype=np.int64),
        np.asarray(size, dtype=np.int64),
        np.asarray(street, dtype=np.int64),
        np.asarray(player, dtype=np.int64),
        np.asarray(hand_of, dtype=np.int64),
        np.asarray(limit, dtype=np.bool_),
        list(codes),
        types,
        skipped,
    )
    return data, book
