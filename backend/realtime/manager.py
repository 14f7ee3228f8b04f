"""All tables of this process: creating them, loading them after a restart, finding them."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace

from backend.ai_gateway import AIGateway
from backend.bot_names import bot_name
from backend.db.codec import (
    config_from_doc,
    config_to_doc,
    hand_id,
    snapshot_from_doc,
    snapshot_to_doc,
)
from backend.db.player_stats import TableCounted
from backend.db.repositories import Ledger, Repositories
from backend.logging import log_context
from backend.quotas import Quota
from backend.realtime.access import new_invite
from backend.realtime.runtime import StatsCounted, TableRuntime
from backend.schemas import CreateTableRequest, TableOptions
from backend.settings import Settings
from holdem.config import TableConfig
from holdem.table import Table
from protocol.messages import ActedBy, Change, ChangeKind

log = logging.getLogger(__name__)

# A cluster node's claim on a table (backend.cluster.node): its lease's fencing token,
# None if another node holds it.
Claim = Callable[[str], Awaitable[int | None]]


def _initial_seq(saved: int = 0) -> int:
    """Seeded from the clock so that seq keeps growing across restarts."""
    return max(saved, int(time.time() * 1000))


class TableManager:
    def __init__(self, settings: Settings, repos: Repositories, gateway: AIGateway) -> None:
        self._settings = settings
        self._repos = repos
        self._gateway = gateway
        self._runtimes: dict[str, TableRuntime] = {}
        self.claim: Claim | None = None  # set on a cluster's node; None: one process owns all
        self.stale: Callable[[str], None] | None = None  # a fenced write refused: not ours
        self.closed: Callable[[str], None] | None = None  # a table closed: its lease freed
        # A tournament's table loaded by a cluster's node (backend.tournament.service).
        self.tournament_loaded: Callable[[TableRuntime], None] | None = None
        # Per player across tables: a player at three tables has one budget, not three.
        self._advice_budget = Quota(
            "advice searches", settings.advice_burst, settings.advice_per_hour, "for you"
        )
        repos.hands.stats.listen(self._stats_counted)

    def _stats_counted(self, tables: list[TableCounted]) -> None:
        """Hands were counted: each open table of them tells its seats' HUDs, and so does
        every open table where one of their players sits (a player at two tables)."""
        of_table = {counted.table_id: counted for counted in tables}
        players = {player_id for counted in tables for player_id in counted.player_ids}
        for table_id, runtime in self._runtimes.items():
            counted = of_table.get(table_id)
            named = counted.player_ids if counted is not None else ()
            seated = [
                seat.player_id
                for seat in runtime.table.seats.values()
                if seat.player_id in players and seat.player_id not in named
            ]
            if counted is not None or seated:
                hand_no = counted.hand_no if counted is not None else None
                runtime.post(StatsCounted(hand_no, (*named, *seated)))

    def counted_elsewhere(self, tables: list[TableCounted]) -> None:
        """Another node counted its tables' hands (backend.cluster.lobby): the HUDs of
        their players seated here move too."""
        self._stats_counted(tables)

    async def filings_landed(self, player_id: str, wait: float) -> None:
        """Until the filings of the player's last hands at these tables are stored (at
        most `wait` seconds): a hand is filed behind the table's path, and a list of the
        player's hands read just after its end must list it."""
        pending = [
            filed
            for runtime in self._runtimes.values()
            if (filed := runtime.persister.filing_for(player_id)) is not None
        ]
        if pending:
            await asyncio.wait(pending, timeout=wait)

    def get(self, table_id: str) -> TableRuntime | None:
        return self._runtimes.get(table_id)

    def all(self) -> list[TableRuntime]:
        return list(self._runtimes.values())

    def visible(self, player_id: str | None) -> list[TableRuntime]:
        """The tables this player may see listed: the public ones and their private ones."""
        return [r for r in self._runtimes.values() if r.visible_to(player_id)]

    def forget(self, table_id: str) -> None:
        """The table is closed (backend.realtime.closing): it leaves the lobby."""
        self._runtimes.pop(table_id, None)
        if self.closed is not None:
            self.closed(table_id)

    def _runtime(
        self, table: Table, options: TableOptions, seq: int, fence: int | None = None
    ) -> TableRuntime:
        runtime = TableRuntime(
            table,
            options,
            settings=self._settings,
            repos=self._repos,
            gateway=self._gateway,
            seq=seq,
            advice_budget=self._advice_budget,
        )
        if fence is not None:
            table_id = table.table_id
            runtime.persister.fence = fence
            if self.stale is not None:
                stale = self.stale
                runtime.persister.on_stale = lambda: stale(table_id)
        self._runtimes[table.table_id] = runtime
        return runtime

    async def create(self, request: CreateTableRequest, created_by: str) -> TableRuntime:
        config = request.table_config()  # home-game rules included; bots' refusals checked
        table_id = "t" + secrets.token_hex(4)
        fence = await self.claim(table_id) if self.claim is not None else None
        if self.claim is not None and fence is None:
            raise RuntimeError(f"table {table_id}: another node holds a new table's lease")
        options = TableOptions(
            name=request.name or f"Table {table_id}",  # the lobby route names it "Table N"
            action_timeout=request.action_timeout or self._settings.action_timeout,
            time_bank=self._settings.time_bank if request.time_bank is None else request.time_bank,
            advice_allowed=request.advice_allowed,
            created_by=created_by,
            private=request.private,
            invite=new_invite() if request.private else None,
        )
        table = Table(table_id, config)
        bots: list[tuple[str, int, int]] = []
        for i in range(request.bots):
            style = request.bot_styles[i % len(request.bot_styles)]
            number = i + 1
            player_id = f"bot-{table_id}-{number}"
            table.sit(
                number,
                player_id,
                bot_name(style, (seat.name for seat in table.seats.values())),
                config.max_buy_in,
                is_bot=True,
                bot_style=style,
            )
            bots.append((player_id, number, config.max_buy_in))
        seq = _initial_seq()
        entries = [
            Ledger.entry(player_id, table_id, "buy_in", amount, number, f"{table_id}-bot-{number}")
            for player_id, number, amount in bots
        ]
        await self._repos.tables.insert(
            table_id,
            config_to_doc(config),
            options.model_dump(mode="json"),
            snapshot_to_doc(table.snapshot()),
            seq,
            ledger=entries,
        )
        runtime = self._runtime(table, options, seq, fence)
        runtime.start()
        with log_context(table_id=table_id):
            log.info("table created", extra={"by": created_by, "bots": request.bots})
        return runtime

    async def open_tournament_table(
        self, table_id: str, config: TableConfig, name: str, tournament_id: str
    ) -> TableRuntime:
        """A tournament's table: empty, its director seats the players (host commands)."""
        options = TableOptions(
            name=name,
            action_timeout=self._settings.action_timeout,
            time_bank=self._settings.time_bank,
            tournament_id=tournament_id,
        )
        table = Table(table_id, config, tournament=True)
        seq = _initial_seq()
        fence = await self.claim(table_id) if self.claim is not None else None
        if self.claim is not None and fence is None:
            raise RuntimeError(f"table {table_id}: another node holds a new table's lease")
        await self._repos.tables.insert(
            table_id,
            config_to_doc(config),
            options.model_dump(mode="json"),
            snapshot_to_doc(table.snapshot()),
            seq,
        )
        runtime = self._runtime(table, options, seq, fence)
        runtime.start()
        return runtime

    async def load_all(self) -> int:
        """Bring every stored table back; a hand cut short by a restart is voided."""
        docs = await self._repos.tables.all()
        for doc in docs:
            table_id = doc["_id"]
            with log_context(table_id=table_id):
                try:
                    await self._load(doc)
                except Exception:
                    log.exception("could not restore table")
        return len(docs)

    async def load(self, table_id: str) -> bool:
        """A cluster node takes one stored table over (its lease expired or was released):
        claimed first (its documents fenced against the old owner), then restored as after
        a restart, the hand in progress voided. False if another node holds it."""
        if table_id in self._runtimes:
            return True
        fence = await self.claim(table_id) if self.claim is not None else None
        if self.claim is not None and fence is None:
            return False
        doc = await self._repos.tables.one(table_id)
        if doc is None:
            return False  # closed meanwhile
        with log_context(table_id=table_id):
            await self._load(doc, fence)
        return True

    async def drop(self, table_id: str) -> None:
        """Stop acting for the table at once (its lease is lost or handed over)."""
        runtime = self._runtimes.pop(table_id, None)
        if runtime is not None:
            await runtime.stop()

    async def _load(self, doc: dict[str, object], fence: int | None = None) -> None:
        table_id = str(doc["_id"])
        repos = self._repos
        pending = doc.get("pending_record")
        if isinstance(pending, dict):
            await repos.hands.insert(pending)  # the hand ended just before the stop
            await repos.tables.clear_pending(table_id, int(pending["hand_no"]))
        config_doc, options_doc, snapshot_doc = doc["config"], doc["options"], doc["snapshot"]
        assert isinstance(config_doc, dict) and isinstance(options_doc, dict)
        assert isinstance(snapshot_doc, dict)
        config = config_from_doc(config_doc)
        snapshot = snapshot_from_doc(table_id, config, snapshot_doc)
        live = await repos.hands.get_live(table_id)
        if live is not None:
            hand_no = int(live["hand_no"])
            if await repos.hands.get(hand_id(table_id, hand_no)) is not None:
                await repos.hands.end_live(table_id, hand_no)  # finished and filed already
            else:
                await repos.hands.void_live(table_id)
                log.warning(
                    "hand in progress voided by the restart: every chip returned",
                    extra={"hand_no": hand_no, "stacks": live.get("starting_stacks")},
                )
            if hand_no > snapshot.hand_no:
                # The stored seats are from before this hand's deal (a deal writes only
                # the live hand). Its number and button are restored as a snapshot taken
                # during the hand has them: the number is not given to another hand,
                # and the button moves on from it.
                button = live.get("button")
                if not isinstance(button, int):
                    button = snapshot.button
                snapshot = replace(snapshot, hand_no=hand_no, button=button)
        table = Table.restore(snapshot)
        saved_seq = doc.get("seq", 0)
        runtime = self._runtime(
            table,
            TableOptions.model_validate(options_doc),
            _initial_seq(int(saved_seq) if isinstance(saved_seq, int) else 0),
            fence,
        )
        runtime.restore_access(doc.get("access"))
        if runtime.options.tournament_id is not None:
            # Read whoever reconciles it (a director loaded before or after the table).
            runtime.stored_last_hand = await self._last_hand(table_id)
            if self.tournament_loaded is not None:
                self.tournament_loaded(runtime)
        runtime.start(Change(kind=ChangeKind.RESTORE, by=ActedBy.TABLE))
        log.info("table restored", extra={"seats": sorted(table.seats), "hand_no": table.hand_no})

    async def _last_hand(self, table_id: str) -> tuple[int, dict[str, int]]:
        """The table's last filed hand: its number and its players' starting chips (a
        tournament's director places a lost report's busts by them). Every finished hand
        is filed by now (the pending record above), whatever hands were voided since, so
        none filed means none finished: hand 0, nobody dealt."""
        filed = await self._repos.hands.last_of(table_id)
        record = filed.get("record") if filed is not None else None
        if filed is None or not isinstance(record, dict):
            return 0, {}
        seats = record.get("seats")
        starting = {
            str(seat["player_id"]): int(seat["starting_stack"])
            for seat in (seats if isinstance(seats, list) else [])
        }
        return int(filed["hand_no"]), starting

    async def close(self) -> None:
        await asyncio.gather(*(r.stop() for r in self._runtimes.values()))
        self._runtimes.clear()
