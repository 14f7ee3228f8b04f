"""A tournament's tables in this process: the director's orders carried out on holdem
Tables through the host's table commands (backend.realtime.host_commands)."""

from __future__ import annotations

from backend.realtime import host_commands
from backend.tournament.director import Order, OrderKind
from backend.tournament.structures import Level
from holdem.config import AnteMode, TableConfig, Variant
from holdem.table import Table
from protocol.messages import TableSettingsCommand

# A tournament table's buy-in range is never used (players are seated with their chips),
# but the rules want one that covers any big blind.
_BUY_IN = host_commands.MAX_STACK


def table_config(seats: int, level: Level) -> TableConfig:
    return TableConfig(
        variant=Variant.NO_LIMIT,
        seats=seats,
        small_blind=level.small_blind,
        big_blind=level.big_blind,
        ante=level.ante,
        ante_mode=AnteMode.BIG_BLIND if level.big_blind_ante else AnteMode.EVERY_SEAT,
        min_buy_in=_BUY_IN,
        max_buy_in=_BUY_IN,
    )


def stakes_command(level: Level) -> TableSettingsCommand:
    return TableSettingsCommand(
        small_blind=level.small_blind,
        big_blind=level.big_blind,
        ante=level.ante,
        big_blind_ante=level.big_blind_ante,
    )


class LocalTables:
    """The tables of one tournament, held in memory (the bench, the rules tests)."""

    def __init__(self, seats: int, seed: int = 0, bot_style: str = "tournament") -> None:
        self.seats = seats
        self.seed = seed
        self.bot_style = bot_style
        self.tables: dict[str, Table] = {}
        self.held: set[str] = set()
        self.closed: set[str] = set()
        self.pending_stakes: dict[str, Level] = {}

    def apply(self, orders: list[Order]) -> None:
        for order in orders:
            self._apply(order)

    def _apply(self, order: Order) -> None:
        tid = order.table_id
        if order.kind is OrderKind.OPEN:
            assert order.level is not None
            seed = self.seed * 7919 + len(self.tables)
            self.tables[tid] = Table(
                tid, table_config(self.seats, order.level), seed=seed, tournament=True
            )
            return
        table = self.tables[tid]
        if order.kind is OrderKind.SEAT:
            assert order.player_id and order.name and order.seat
            style = self.bot_style if order.is_bot else None
            host_commands.seat_player(
                table, order.seat, order.player_id, order.name, order.chips, style
            )
        elif order.kind is OrderKind.REMOVE:
            assert order.player_id is not None
            seat = table.find_seat(order.player_id)
            assert seat is not None
            host_commands.remove(table, seat.number)
        elif order.kind is OrderKind.ADD:  # given between hands here
            seat = table.find_seat(order.player_id or "")
            assert seat is not None
            host_commands.adjust(table, seat.number, order.chips)
        elif order.kind is OrderKind.STAKES:
            assert order.level is not None
            self.pending_stakes[tid] = order.level
            self.between_hands(tid)
        elif order.kind is OrderKind.PAUSE:
            self.held.add(tid)
        elif order.kind is OrderKind.RESUME:
            self.held.discard(tid)
        elif order.kind is OrderKind.CLOSE:
            self.held.discard(tid)
            self.closed.add(tid)  # the winner's chips stay on it, counted

    def between_hands(self, table_id: str) -> None:
        """The host's stakes apply from the next hand (as TableRuntime does)."""
        table = self.tables[table_id]
        level = self.pending_stakes.get(table_id)
        hand = table.hand
        if level is None or (hand is not None and not hand.is_over):
            return
        table.config = host_commands.new_config(table.config, stakes_command(level))
        del self.pending_stakes[table_id]

    def chips(self) -> int:
        return sum(t.chips_in_play() for t in self.tables.values())

    def may_deal(self, table_id: str) -> bool:
        if table_id in self.held or table_id in self.closed:
            return False
        return self.tables[table_id].can_start_hand()
