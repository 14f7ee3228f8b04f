"""Garbage collection tuned for latency, and the premise it rests on: hands make no cycles."""

from __future__ import annotations

import gc

from backend_testlib import RunningServer, create_table, guest, join, play_until_hand_over

from backend import gc_policy


def test_apply_freezes_the_heap_and_collects_young_objects_less_and_never_fully() -> None:
    before = gc.get_threshold()
    try:
        assert gc_policy.apply(0) is False
        assert gc.get_threshold() == before
        assert gc_policy.apply(600) is True
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold()[0] == gc_policy.YOUNG_THRESHOLD > before[0]
        assert gc.get_threshold()[1] == before[1]
        assert gc.get_threshold()[2] >= 1 << 30
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


async def test_played_hands_leave_no_reference_cycles(server: RunningServer) -> None:
    token, _ = await guest(server, "Alice")
    table = await create_table(server, token, seats=3, bots=2, small_blind=5, big_blind=10)
    alice = await join(server, table["table_id"], token)
    await alice.send({"type": "sit", "seat": 3, "buy_in": 800})
    await play_until_hand_over(alice, 1)
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection would free is kept in gc.garbage
    try:
        await play_until_hand_over(alice, 3)
        runtime = server.state.tables.get(table["table_id"])
        assert runtime is not None
        await runtime.persister.drain()
        gc.collect()
        ours = [
            type(o).__qualname__
            for o in gc.garbage
            if type(o).__module__.split(".")[0] in ("backend", "holdem")
        ]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert ours == []
