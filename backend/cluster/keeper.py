"""A node's leases kept alive: all renewed together, a lost one given up at once.

Every `every` seconds (a third of the lease time: two renewals may fail before a
lease runs out) one update extends every lease the node holds and one read
checks each is still ours with its token; a lease taken over, or not renewed
before it expires on our clock, is dropped and `on_lost` tells the table to
stop acting at once. Its writes would be refused anyway (backend.cluster.fencing).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from pymongo.errors import PyMongoError

from backend.cluster.leases import Lease, Leases

log = logging.getLogger(__name__)


class LeaseKeeper:
    def __init__(
        self, leases: Leases, on_lost: Callable[[str], None], every: float | None = None
    ) -> None:
        self.leases = leases
        self._on_lost = on_lost
        self._every = every if every is not None else leases.ttl.total_seconds() / 3
        self.held: dict[str, Lease] = {}
        self._task: asyncio.Task[None] | None = None

    async def take(self, table_id: str) -> Lease | None:
        lease = await self.leases.acquire(table_id)
        if lease is not None:
            self.held[table_id] = lease
        return lease

    async def give_up(self, table_id: str) -> None:
        lease = self.held.pop(table_id, None)
        if lease is not None:
            await self.leases.release(lease)

    def token(self, table_id: str) -> int | None:
        """The table's fencing token while we hold its lease on our clock, else None."""
        lease = self.held.get(table_id)
        if lease is None or not lease.valid(self.leases.now()):
            return None
        return lease.token

    async def renew_all(self) -> list[str]:
        """Renew every lease; the tables whose lease is lost (each told to `on_lost`)."""
        if not self.held:
            return []
        renewed: dict[str, Lease] | None
        # Only the leases sent are judged: one taken meanwhile was not part of this renewal.
        sent = dict(self.held)
        try:
            renewed = await self.leases.renew_many(list(sent.values()))
        except PyMongoError as error:
            log.warning("lease renewal failed", extra={"error": str(error)[:200]})
            renewed = None  # unknown: each lease is kept until it runs out on our clock
        now = self.leases.now()
        lost: list[str] = []
        for table_id, lease in sent.items():
            if self.held.get(table_id) is not lease:
                continue  # given up or taken again meanwhile
            fresh = renewed.get(table_id) if renewed is not None else None
            if fresh is not None:
                self.held[table_id] = fresh
            elif renewed is not None or not lease.valid(now):
                lost.append(table_id)  # taken over, or run out
        for table_id in lost:
            self.held.pop(table_id, None)
            log.warning("table lease lost", extra={"table_id": table_id})
            self._on_lost(table_id)
        return lost

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="lease-keeper")

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self._every)  # a period, not a synchronisation
            await self.renew_all()

    async def stop(self, release: bool = True) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if release:
            for table_id in list(self.held):
                with contextlib.suppress(PyMongoError):
                    await self.give_up(table_id)
