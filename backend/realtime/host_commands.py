"""The host's table commands as functions of the table: each changes it (or raises a
RuleError / CommandError and changes nothing) and returns the event and the chips booked.

Who may give them, and what the runtime does around them (storing, scheduling,
telling everyone), is backend.realtime.hosting's job.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Mapping

from backend.home_rules import bot_refusal
from backend.realtime import table_commands
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
    SeatRequest,
    TableSettingsCommand,
)

MAX_STACK = 1_000_000_000  # backend.schemas.MAX_CHIPS: what any buy-in may be

# For the refusal: "only the table's host may ...".
_WHAT = {
    "pause": "pause the game",
    "resume": "resume the game",
    "remove": "remove a player or a bot",
    "adjust": "adjust a stack",
    "add_bot": "add a bot",
    "bot_style": "change a bot's style",
    "table_settings": "change the stakes and settings",
    "approve": "approve a seat request",
    "reject": "reject a seat request",
    "hand_over": "hand the host's role on",
    "bomb_pot": "call a bomb pot",
}


def check_host(host_id: str | None, player_id: str, command: str) -> None:
    """A CommandError (not_host) unless `player_id` is the table's host."""
    if player_id != host_id:
        what = _WHAT.get(command, "give that command")
        raise CommandError(ErrorCode.NOT_HOST, f"only the table's host may {what}")


def _pause_change(table: Table, paused: bool, pause: bool) -> Change:
    if pause == paused:
        raise CommandError(
            ErrorCode.BAD_MESSAGE, "the game is " + ("paused" if pause else "not paused")
        )
    hand = table.hand
    live = hand is not None and not hand.is_over
    note = "after this hand" if pause and live else ""  # a hand in progress plays on
    kind = ChangeKind.PAUSE if pause else ChangeKind.RESUME
    return Change(kind=kind, by=ActedBy.HOST, note=note)


def pause(table: Table, paused: bool) -> Change:
    """The game stops dealing (after the hand in progress); refused if already paused."""
    return _pause_change(table, paused, True)


def resume(table: Table, paused: bool) -> Change:
    """The game deals again; refused if it is not paused."""
    return _pause_change(table, paused, False)


def seat_request(requests: Mapping[str, SeatRequest], player_id: str) -> SeatRequest:
    request = requests.get(player_id)
    if request is None:
        raise CommandError(ErrorCode.NO_SUCH_REQUEST, "that player asked for no seat")
    return request


def approve(table: Table, requests: Mapping[str, SeatRequest], player_id: str) -> Outcome:
    """The requested seat is taken with the requested buy-in (booked), by the host's leave.
    The runtime then forgets the request."""
    request = seat_request(requests, player_id)
    outcome = table_commands.sit(
        table, request.player_id, request.name, request.seat, request.buy_in
    )
    change = outcome.change.model_copy(update={"by": ActedBy.HOST, "note": "approved"})
    return Outcome(change, outcome.seats_changed, outcome.ledger)


def reject(requests: Mapping[str, SeatRequest], player_id: str) -> Change:
    """The request is refused: nobody sits, no chip moves. The runtime forgets it."""
    request = seat_request(requests, player_id)
    return Change(
        kind=ChangeKind.SEAT_REJECTED,
        seat=request.seat,
        player_id=request.player_id,
        by=ActedBy.HOST,
    )


def host_change(table: Table, player_id: str, by: ActedBy) -> Change:
    """The role passes to `player_id`: by the host's hand-over, or the table's when the
    host left."""
    seat = table.find_seat(player_id)
    return Change(
        kind=ChangeKind.HOST,
        seat=seat.number if seat is not None else None,
        player_id=player_id,
        by=by,
        note="the host left" if by is ActedBy.TABLE else "",
    )


def hand_over(table: Table, host_id: str, target: str, watching: Collection[str]) -> Change:
    """The host gives the role to a player seated here or watching (never a bot)."""
    if target == host_id:
        raise CommandError(ErrorCode.BAD_MESSAGE, "you are the host already")
    seat = table.find_seat(target)
    if (seat is None or seat.is_bot) and target not in watching:
        raise SeatError("hand the role to a player at this table (seated or watching)")
    return host_change(table, target, ActedBy.HOST)


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
