"""Online training: follow the stored hands, keep player statistics, retrain as hands arrive.

Runs in its own process (`showdown train --watch`, started by each AI worker
with database access), never in a process that answers decisions. A lease in
MongoDB lets one trainer work at a time however many workers run; the others
wait and take over if it stops. Every `every` new hands the trainer fits a new
version (`ai.models.fit`) in a thread, and publishes it if it is no worse on the
newest hands; workers switch to it on their next query.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ai.models.public import PublicHand
from ai.models.stats import StatsBook
from ai.models.store import ModelStore
from ai.models.train_config import TrainConfig
from ai.sim.rules import Rules

if TYPE_CHECKING:
    from ai.models.fit import FitResult
    from ai.models.model import ModelSet

log = logging.getLogger("showdown.trainer")

RETRAIN_EVERY = 100  # new hands between fits (the thesis agent's ~100)
MIN_HANDS = 200  # no network before this many hands: the frequency tables serve
MAX_HANDS = 50_000  # a fit uses the newest this many hands (memory and time stay bounded)
LEASE_SECONDS = 30.0
FIT_LEASE_SECONDS = 1800.0


@dataclass
class OnlineTrainer:
    store: ModelStore
    every: int = RETRAIN_EVERY
    min_hands: int = MIN_HANDS
    config: TrainConfig = field(default_factory=TrainConfig)
    owner: str = field(default_factory=lambda: f"{socket.gethostname()}:{os.getpid()}")
    hands: list[PublicHand] = field(default_factory=list)
    book: StatsBook = field(default_factory=StatsBook)
    position: Any = None
    since_fit: int = 0
    fits: int = 0
    published: int = 0

    async def poll(self) -> int:
        """Read hands stored since the last poll and update the statistics; how many."""
        new = await self.store.hands(self.position)
        touched: set[str] = set()
        for position, hand in new:
            self.position = position
            self.hands.append(hand)
            self._count(hand)
            touched.update(hand.players)
        if len(self.hands) > MAX_HANDS:
            del self.hands[: len(self.hands) - MAX_HANDS]
        if touched:
            await self.store.save_stats(self.book, touched)
        self.since_fit += len(new)
        return len(new)

    def _count(self, hand: PublicHand) -> None:
        from ai.game.observation import ActionRecord
        from ai.models.replay import decisions

        history: list[ActionRecord] = []
        try:
            for _ in decisions(hand, history):
                pass
        except ValueError:
            log.warning("hand %s does not replay; skipped", hand.key)
            return
        units = Rules.of(hand.config).min_increment
        self.book.ingest(hand.key, hand.players, history, units, hand.config.is_limit)

    async def fit_if_due(self) -> str | None:
        """Fit and publish a version when enough new hands came; the version or None."""
        if len(self.hands) < self.min_hands or (self.fits and self.since_fit < self.every):
            return None
        self.since_fit = 0
        self.fits += 1
        await self.store.take_lease(self.owner, FIT_LEASE_SECONDS)  # hold it through the fit
        current_version = await self.store.current_version()
        current = await self.store.load(current_version) if current_version else None
        hands = list(self.hands)
        result = await asyncio.to_thread(_fit, hands, current, self.config)
        if not result.accepted:
            return None
        version = await self.store.publish(
            result.generic, result.players, result.metrics, current_version
        )
        if version is not None:
            self.published += 1
            log.info("model version %s published", version)
        return version

    async def run(self, stop: asyncio.Event, poll_seconds: float = 2.0) -> None:
        while not stop.is_set():
            if await self.store.take_lease(self.owner, LEASE_SECONDS):
                await self.poll()
                await self.fit_if_due()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), poll_seconds)


def _fit(hands: list[PublicHand], current: ModelSet | None, config: TrainConfig) -> FitResult:
    """`fit_version` on one thread, PyTorch imported here: a trainer that never gets enough
    hands to fit (most rooms' first minutes, every short test) never loads it."""
    import torch

    from ai.models.fit import fit_version

    torch.set_num_threads(1)
    return fit_version(hands, current, config, log.info)
