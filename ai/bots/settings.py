"""How a host runs a bot (the live worker, a review, a test), given when it is built.

The worker used to set fields on bots after construction, behind `isinstance`
checks; each bot now reads what applies to it from these settings in its
constructor, and `make_bot(style, seed, settings)` passes them on.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ai.models.stats import StatsBook


@dataclass(frozen=True)
class BotSettings:
    # Fill Decision.reason (advice); off in matches, where nobody reads it.
    explain: bool = False
    # The statistics a modelling bot reads and counts into (one book shared by a
    # worker's bots); None: a book of the bot's own.
    book: StatsBook | None = None
    # Search bots: keep a decision's tree for the next one (off for reviews, whose
    # decisions come in any order from any hand).
    keep_tree: bool = True
    # Search bots: the clock their deadline is read on (a review's stops the search
    # as soon as a live query waits).
    clock: Callable[[], float] = time.monotonic


PLAIN = BotSettings()
