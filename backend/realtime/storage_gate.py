"""The storage gate: nothing is dealt or shown before the database has it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from backend.realtime.core import RuntimeCore
from backend.realtime.inbox import Command, Stop
from protocol.messages import PingMessage

log = logging.getLogger(__name__)

# A durable write not confirmed within this many seconds pauses the table, visibly.
PAUSE_NOTICE_AFTER = 0.5


class StorageGate(RuntimeCore):
    async def _await_storage(self) -> bool:
        """Wait until the table's durable writes are stored; False if the table is stopping.

        Stored within PAUSE_NOTICE_AFTER, nobody notices. Else the table is paused
        and everyone is told why: until the database confirms, nothing is dealt or
        shown; pings are answered and every other inbox item waits its turn.
        """
        durable = self._persist.unconfirmed()
        confirmed = self._persist.confirmation()
        if durable is None or confirmed is None:
            return True
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(PAUSE_NOTICE_AFTER):
                # Set in the very step the write is confirmed: a turn sooner than a
                # shield around `durable` (each hop is a whole turn of a busy loop).
                await confirmed
        if durable.done():
            return True
        self.paused = True
        log.warning("table paused: the database does not confirm its writes")
        self._notify(paused=True)
        stopping = False
        while not durable.done() and not stopping:
            getter = asyncio.ensure_future(self._inbox.get())
            waits: set[asyncio.Future[Any]] = {durable, getter}
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            if not getter.done():
                getter.cancel()
                continue
            item = getter.result()
            if isinstance(item, Stop):
                stopping = True
            elif isinstance(item, Command) and isinstance(item.message, PingMessage):
                self._handle(item)
            else:
                self._deferred.append(item)  # handled in order once the write is stored
        if stopping:
            return False
        self.paused = False
        log.info("table resumed: the database confirmed its writes")
        self._notify(paused=False)
        return True
