"""The host's table commands as functions of the table: each changes it (or raises a
RuleError / CommandError and changes nothing) and returns the event and the chips booked.

Who may give them, and what the runtime does around them (storing, scheduling,
telling everyone), is backend.realtime.hosting's job.
"""

from __future__ import annotations

import secrets

from backend.home_rules import bot_refusal
from backend.realtime.inbox import CommandError
from backend.realtime.table_commands import LedgerLine, Outcome
from holdem.config import AnteMode, TableConfig, Variant
from holdem.errors import SeatError
from holdem.table import Seat, Table
from protocol.messages import (
    ActedBy,
    Change,
    ChangeKind,
    ErrorCode,
    TableSettingsCommand,
)

MAX_STACK = 1_000_000_000  # backend.schemas.MAX_CHIPS: what any buy-in may be


def _between_hands(table: Table, what: str) -> None:
    hand = table.hand
    if hand is not None and not hand.is_over:
        raise CommandError(ErrorCode.HAND_IN_PROGRESS, f"{what} between hands")


def _seated(table: Table, number: int) -> str:
    seat = table.seats.get(number)
    if seat is None:
        raise SeatError(f"seat {number} is empty")
    return seat.player_id


def remove(table: Table, number: int) -> Outcome:
    """Now between hands; in a hand the seat folds and leaves at its end (its chips are
    cashed out then, from table.cashouts, as for a player who stands)."""
    player_id = _seated(table, number)
    table.stand(player_id)
    # Gone now (between hands, or its fold ended the hand): the event carries the stack.
    gone = number not in table.seats
    note = "removed by the host" if gone else "removed at the hand's end"
    change = Change(
        kind=ChangeKind.REMOVE, seat=number, player_id=player_id, by=ActedBy.HOST, note=note
    )
    return Outcome(change, True)


def adjust(table: Table, number: int, amount: int) -> Outcome:
    """The seat's stack changes by `amount` between hands, booked as an adjustment."""
    _between_hands(table, "adjust a stack")
    player_id = _seated(table, number)
    seat = table.seats[number]
    if amount == 0:
        raise CommandError(ErrorCode.BAD_MESSAGE, "amount: add or take at least one chip")
    stack = seat.stack + amount
    if stack < 0:
        raise CommandError(ErrorCode.BAD_MESSAGE, f"amount: seat {number} has only {seat.stack}")
    if stack > MAX_STACK:
        raise CommandError(ErrorCode.BAD_MESSAGE, f"amount: a stack holds at most {MAX_STACK}")
    seat.stack = stack
    change = Change(
        kind=ChangeKind.ADJUST,
        seat=number,
        player_id=player_id,
        by=ActedBy.HOST,
        amount=amount,
        stack=stack,
    )
    return Outcome(change, True, [LedgerLine(player_id, "adjust", amount, number)])


def add_bot(table: Table, number: int, style: str, name: str) -> Outcome:
    """A bot bought in for the maximum (the bots' rule at table creation)."""
    why = bot_refusal(table.config)
    if why is not None:
        raise CommandError(ErrorCode.BAD_MESSAGE, why)
    player_id = f"bot-{table.table_id}-{number}-{secrets.token_hex(3)}"  # a new bot's own ledger
    buy_in = table.config.max_buy_in
    table.sit(number, player_id, name, buy_in, is_bot=True, bot_style=style)
    change = Change(
        kind=ChangeKind.SIT, seat=number, player_id=player_id, by=ActedBy.HOST, note=style
    )
    return Outcome(change, True, [LedgerLine(player_id, "buy_in", buy_in, number)])


def seat_player(
    table: Table, number: int, player_id: str, name: str, chips: int, bot_style: str | None = None
) -> Outcome:
    """A tournament director seats a player with their tournament chips (any amount: the
    buy-in range is a cash game's), booked as a buy-in at this table."""
    if not 1 <= number <= table.config.seats:
        raise SeatError(f"seat {number} does not exist (1 to {table.config.seats})")
    if number in table.seats:
        raise SeatError(f"seat {number} is taken")
    if table.find_seat(player_id) is not None:
        raise SeatError("that player is already seated at this table")
    if not 0 < chips <= MAX_STACK:
        raise CommandError(ErrorCode.BAD_MESSAGE, f"chips: 1 to {MAX_STACK}")
    table.seats[number] = Seat(number, player_id, name, chips, bot_style is not None, bot_style)
    change = Change(kind=ChangeKind.SIT, seat=number, player_id=player_id, by=ActedBy.HOST)
    return Outcome(change, True, [LedgerLine(player_id, "buy_in", chips, number)])


def bot_style(table: Table, number: int, style: str) -> Outcome:
    player_id = _seated(table, number)
    seat = table.seats[number]
    if not seat.is_bot:
        raise SeatError(f"seat {number} is not a bot")
    seat.bot_style = style
    change = Change(
        kind=ChangeKind.BOT_STYLE, seat=number, player_id=player_id, by=ActedBy.HOST, note=style
    )
    return Outcome(change, True)


def new_config(config: TableConfig, settings: TableSettingsCommand) -> TableConfig:
    """The table's rules with the new stakes; a CommandError if they do not hold together."""
    changes: dict[str, object] = {
        key: value
        for key, value in (
            ("small_blind", settings.small_blind),
            ("big_blind", settings.big_blind),
            ("ante", settings.ante),
            ("straddle", settings.straddle),
            ("run_it_max", settings.run_it_max),
            ("rabbit_hunt", settings.rabbit_hunt),
            ("bomb_pot_ante", settings.bomb_pot_ante),
            ("bomb_pot_every", settings.bomb_pot_every),
        )
        if value is not None
    }
    if settings.big_blind_ante is not None:
        changes["ante_mode"] = (
            AnteMode.BIG_BLIND if settings.big_blind_ante else AnteMode.EVERY_SEAT
        )
    if not changes:
        return config
    blinds = "small_blind" in changes or "big_blind" in changes
    if config.variant is Variant.LIMIT and blinds:
        changes |= {"small_bet": 0, "big_bet": 0}  # derived again from the new big blind
    try:
        return TableConfig.model_validate({**config.model_dump(), **changes})
    except ValueError as error:
        raise CommandError(ErrorCode.BAD_MESSAGE, f"the stakes: {error}") from error


def home_rules_note(old: TableConfig, new: TableConfig) -> list[str]:
    """The home-game rules that changed, for the hand log."""
    parts: list[str] = []
    if old.big_blind_ante != new.big_blind_ante:
        parts.append("big-blind ante " + ("on" if new.big_blind_ante else "off"))
    if old.straddle != new.straddle:
        parts.append(f"straddle {new.straddle.value}")
    if old.run_it_max != new.run_it_max:
        parts.append(
            "run it once" if new.run_it_max == 1 else f"run it up to {new.run_it_max} times"
        )
    if old.rabbit_hunt != new.rabbit_hunt:
        parts.append("rabbit hunt " + ("on" if new.rabbit_hunt else "off"))
    if (old.bomb_pot_ante, old.bomb_pot_every) != (new.bomb_pot_ante, new.bomb_pot_every):
        every = f" every {new.bomb_pot_every} hands" if new.bomb_pot_every else ""
        parts.append(
            f"bomb pot ante {new.bomb_pot_ante}{every}" if new.bomb_pot_ante else "no bomb pots"
        )
    return parts


def refuse_with_bots(table: Table, config: TableConfig) -> None:
    """A CommandError if bots sit at `table` and cannot play `config`'s rules."""
    why = bot_refusal(config)
    if why is not None and any(seat.is_bot for seat in table.seats.values()):
        raise CommandError(ErrorCode.BAD_MESSAGE, why)


def settings_note(old: TableConfig, new: TableConfig, settings: TableSettingsCommand) -> str:
    """What changed, for the hand log: "blinds 10/20, ante 2, time bank 30 s"."""
    parts: list[str] = []
    if (old.small_blind, old.big_blind) != (new.small_blind, new.big_blind):
        parts.append(f"blinds {new.small_blind}/{new.big_blind}")
    if old.ante != new.ante:
        parts.append(f"ante {new.ante}")
    parts += home_rules_note(old, new)
    if settings.time_bank is not None:
        parts.append(f"time bank {settings.time_bank:g} s")
    if settings.advice_allowed is not None:
        parts.append("advice " + ("allowed" if settings.advice_allowed else "off"))
    if settings.approve_seats is not None:
        parts.append("seats " + ("need approval" if settings.approve_seats else "free"))
    return ", ".join(parts)
