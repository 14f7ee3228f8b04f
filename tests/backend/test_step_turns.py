"""The tables' steps, a few per turn of the event loop, in order."""

from __future__ import annotations

import asyncio

import pytest

from backend.realtime.step_turns import StepTurns


class TurnCounter:
    """Counts turns of the event loop: a callback that schedules itself again."""

    def __init__(self) -> None:
        self.turn = 0
        self._loop = asyncio.get_running_loop()
        self._handle = self._loop.call_soon(self._tick)

    def _tick(self) -> None:
        self.turn += 1
        self._handle = self._loop.call_soon(self._tick)

    def stop(self) -> None:
        self._handle.cancel()


async def test_a_turn_starts_at_most_per_turn_steps_in_the_order_they_came() -> None:
    turns = StepTurns(per_turn=2)
    counter = TurnCounter()
    passed: list[tuple[int, int]] = []  # (step, turn it started in)

    async def table_step(number: int) -> None:
        await turns.step()
        passed.append((number, counter.turn))

    tasks = [asyncio.create_task(table_step(n)) for n in range(7)]
    await asyncio.gather(*tasks)
    counter.stop()
    assert [number for number, _ in passed] == list(range(7))
    per_turn: dict[int, int] = {}
    for _, turn in passed:
        per_turn[turn] = per_turn.get(turn, 0) + 1
    assert max(per_turn.values()) == 2 and len(per_turn) == 4
    assert (turns.steps, turns.waited) == (7, 5)
    assert turns.wait_summary().ticks == 5 and turns.waiting == 0


async def test_a_step_with_room_in_the_turn_does_not_wait() -> None:
    turns = StepTurns(per_turn=1)
    step = turns.step()
    with pytest.raises(StopIteration):
        step.send(None)  # done without suspending: no hop through the loop
    # Two tables ready in one turn: the first takes its one step, the other waits.
    first, second = (asyncio.create_task(turns.step()) for _ in range(2))
    await asyncio.sleep(0)
    assert first.done() and not second.done() and turns.waiting == 1
    await second
    assert turns.waited == 1 and turns.waiting == 0


async def test_a_cancelled_wait_gives_its_place_to_the_next() -> None:
    turns = StepTurns(per_turn=1)
    first, second, third = (asyncio.create_task(turns.step()) for _ in range(3))
    await asyncio.sleep(0)
    assert first.done() and turns.waiting == 2
    second.cancel()
    await third  # released by the next turn's room, which the cancelled one did not take
    assert second.cancelled() and turns.waiting == 0
    assert turns.wait_summary().ticks == 1


def test_per_turn_must_let_something_through() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        StepTurns(per_turn=0)
