"""Table steps spread over turns of the event loop: at most `per_turn` in one turn.

A turn of asyncio's loop runs every callback that was ready when it began, and only
then polls the sockets and takes the database writer threads' answers. On a busy
server nearly every table has a step ready in every turn (a bot's timer fired, an AI
answer came), so one turn ran about a hundred tables' steps, ~100 ms on this machine,
and a deal the database had just confirmed, or a player's message, waited for all of
them. Through this gate a turn starts at most `per_turn` table steps; the others wait
in order for the next turns. The same work is done in the same order, but what waits
for I/O waits for a short turn, not a long one. The loop-lag gauge no longer sees a
step's wait, so the gate measures it (`wait_summary`).
"""

from __future__ import annotations

import asyncio
from collections import deque

from backend.realtime.loop_lag import LoopLag, summarise

# Table steps started in one turn of the event loop: ~1.3 ms each under `showdown bench
# server` on this machine, so a turn of about 10 ms before the loop polls again.
STEPS_PER_TURN = 8
WINDOW = 10.0  # seconds of waits the summary covers


class StepTurns:
    def __init__(self, per_turn: int = STEPS_PER_TURN) -> None:
        if per_turn < 1:
            raise ValueError("per_turn must be at least 1")
        self.per_turn = per_turn
        self._left = per_turn  # steps this turn may still start
        self._queue: deque[tuple[asyncio.Future[None], float]] = deque()  # (waiter, since)
        self._refill_due = False
        self._waits: deque[tuple[float, float]] = deque()  # (when, ms waited)
        self.steps = 0  # table steps let through since start
        self.waited = 0  # of them, those that waited for a later turn

    async def step(self) -> None:
        """Return once this turn has room for one more table step (at once if it has
        and nobody waits before it)."""
        loop = asyncio.get_running_loop()
        self.steps += 1
        self._refill_next_turn(loop)
        if self._left > 0 and not self._queue:
            self._left -= 1
            return
        self.waited += 1
        waiter: asyncio.Future[None] = loop.create_future()
        self._queue.append((waiter, loop.time()))
        await waiter  # cancelled: the refill skips it

    def _refill_next_turn(self, loop: asyncio.AbstractEventLoop) -> None:
        if not self._refill_due:
            self._refill_due = True
            loop.call_soon(self._refill, loop)

    def _refill(self, loop: asyncio.AbstractEventLoop) -> None:
        """A new turn: room for `per_turn` steps, first for those waiting (each resumes
        in the turn after this callback)."""
        self._refill_due = False
        self._left = self.per_turn
        now = loop.time()
        while self._left > 0 and self._queue:
            waiter, since = self._queue.popleft()
            if waiter.done():
                continue
            waiter.set_result(None)
            self._left -= 1
            self._waits.append((now, (now - since) * 1000))
        while self._waits and self._waits[0][0] < now - WINDOW:
            self._waits.popleft()
        if self._queue or self._left < self.per_turn:
            self._refill_next_turn(loop)

    @property
    def waiting(self) -> int:
        return sum(1 for waiter, _ in self._queue if not waiter.done())

    def wait_summary(self) -> LoopLag:
        """How long steps that waited for a later turn waited, over the last WINDOW s."""
        return summarise([ms for _, ms in self._waits], WINDOW)
