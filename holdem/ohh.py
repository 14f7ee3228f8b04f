"""Open Hand History (https://hh-specs.handhistories.org) JSON of a finished hand.

`to_ohh(record, hero)` is the hand as player `hero` may see it: the record passes
through `observe_record`, so only hero's hole cards ("Dealt Cards") and cards shown at
the showdown ("Shows Cards") appear. Players are numbered by seat (`id` = seat).
Bet and raise amounts are the street total ("raise to"), calls the chips added, as in
the specification's examples. Uncalled chips handed back have no OHH action: the pots
hold only what was won.

Home-game rules in the specification's terms: a live straddle is a "Straddle" action;
a bomb pot is a "Post Ante" from every seat (its ante the hand's `ante_amount`) and no
preflop betting; a board run more than once is the "Run_It_Twice" flag, each run's
streets as rounds of their own after the shared ones, and a pot for each run's share.
The specification has no place for a rabbit hunt (cards that are no part of the hand),
so OHH leaves it out.

Each event kind has one writer in `_WRITERS`; a kind without one (a rule added later)
is left out, so a new kind needs only a writer of its own.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from holdem.actions import EventKind, HandEvent, Street
from holdem.history import HandRecord, SeatRecord
from holdem.pokerstars import hand_number
from holdem.views import observe_record

SPEC_VERSION = "1.4.6"
SITE_NAME = "Showdown"
_HIDDEN = "??"
_ORDER = (Street.PREFLOP, Street.FLOP, Street.TURN, Street.RIVER, Street.SHOWDOWN)
_ROUND_NAME = {
    Street.PREFLOP: "Preflop",
    Street.FLOP: "Flop",
    Street.TURN: "Turn",
    Street.RIVER: "River",
    Street.SHOWDOWN: "Showdown",
}


def _number(chips: int | None, unit: Decimal) -> int | float:
    """A JSON number: an int where the amount is whole."""
    value = Decimal(chips or 0) * unit
    return int(value) if value == value.to_integral() else float(value)


@dataclass
class _Rounds:
    unit: Decimal
    # Keyed by street and run (None: dealt once, shared by every run).
    rounds: dict[tuple[Street, int | None], dict[str, Any]] = field(default_factory=dict)
    count: int = 0
    late_shows: list[HandEvent] = field(default_factory=list)
    pots: dict[tuple[int, int], list[tuple[int, int]]] = field(default_factory=dict)
    runs: int = 1

    def round(self, street: Street, run: int | None = None) -> dict[str, Any]:
        if (street, run) not in self.rounds:
            self.rounds[street, run] = {"id": 0, "street": _ROUND_NAME[street], "actions": []}
        return self.rounds[street, run]

    def in_order(self) -> list[dict[str, Any]]:
        """Preflop, the shared streets, each run's streets, the showdown; ids in that order."""

        def key(item: tuple[tuple[Street, int | None], Any]) -> tuple[int, int]:
            (street, run), _ = item
            last = street is Street.SHOWDOWN
            return (1_000 if last else -1 if run is None else run, _ORDER.index(street))

        ordered = [body for _, body in sorted(self.rounds.items(), key=key)]
        for i, body in enumerate(ordered):
            body["id"] = i
        return ordered

    def act(self, street: Street, action: str, event: HandEvent, **extra: Any) -> None:
        self.count += 1
        entry: dict[str, Any] = {"action_number": self.count, "player_id": event.seat}
        entry["action"] = action
        entry.update(extra)
        self.round(street)["actions"].append(entry)


def _action_with_amount(name: str) -> Callable[[_Rounds, HandEvent], None]:
    def write(r: _Rounds, e: HandEvent) -> None:
        r.act(e.street, name, e, amount=_number(e.amount, r.unit), is_allin=e.all_in)

    return write


def _no_amount(name: str) -> Callable[[_Rounds, HandEvent], None]:
    def write(r: _Rounds, e: HandEvent) -> None:
        r.act(e.street, name, e)

    return write


def _board(r: _Rounds, e: HandEvent) -> None:
    r.round(e.street, e.run)["cards"] = list(e.cards)


def _runouts(r: _Rounds, e: HandEvent) -> None:
    r.runs = e.amount or 1


def _show(r: _Rounds, e: HandEvent) -> None:
    r.act(Street.SHOWDOWN, "Shows Cards", e, cards=list(e.cards))


def _muck(r: _Rounds, e: HandEvent) -> None:
    r.act(Street.SHOWDOWN, "Mucks Cards", e)


def _win(r: _Rounds, e: HandEvent) -> None:
    assert e.seat is not None
    r.pots.setdefault((e.run or 0, e.pot_index or 0), []).append((e.seat, e.amount or 0))


def _returned(r: _Rounds, e: HandEvent) -> None:
    """No OHH action gives uncalled chips back: the pots already leave them out."""


_WRITERS: dict[EventKind, Callable[[_Rounds, HandEvent], None]] = {
    EventKind.ANTE: _action_with_amount("Post Ante"),
    EventKind.SMALL_BLIND: _action_with_amount("Post SB"),
    EventKind.BIG_BLIND: _action_with_amount("Post BB"),
    EventKind.STRADDLE: _action_with_amount("Straddle"),
    EventKind.FOLD: _no_amount("Fold"),
    EventKind.CHECK: _no_amount("Check"),
    EventKind.CALL: _action_with_amount("Call"),
    EventKind.BET: _action_with_amount("Bet"),
    EventKind.RAISE: _action_with_amount("Raise"),
    EventKind.BOARD: _board,
    EventKind.RETURN: _returned,
    EventKind.SHOW: _show,
    EventKind.MUCK: _muck,
    EventKind.WIN: _win,
    EventKind.RUNOUTS: _runouts,
}
_FORCED = (EventKind.ANTE, EventKind.SMALL_BLIND, EventKind.BIG_BLIND, EventKind.STRADDLE)


def to_ohh(record: HandRecord, hero: str | None, table_name: str | None = None) -> dict[str, Any]:
    """One hand as an OHH document ({"ohh": {...}}), as player `hero` may see it."""
    record = observe_record(record, hero)
    cfg = record.config
    unit = cfg.chip_unit
    mine = next((s for s in record.seats if s.player_id == hero), None)
    r = _Rounds(unit)
    r.round(Street.PREFLOP)
    dealt = False
    for event in record.events:
        if not dealt and event.kind not in _FORCED:
            dealt = True
            _deal(r, mine)
        writer = _WRITERS.get(event.kind)
        if writer is not None:
            writer(r, event)
    if not dealt:
        _deal(r, mine)
    played = record.played_at or datetime(1970, 1, 1, tzinfo=UTC)
    played = played if played.tzinfo else played.replace(tzinfo=UTC)
    body: dict[str, Any] = {
        "spec_version": SPEC_VERSION,
        "site_name": SITE_NAME,
        "network_name": SITE_NAME,
        "internal_version": "1",
        "tournament": False,
        "game_number": str(hand_number(record.table_id, record.hand_no)),
        "start_date_utc": played.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "table_name": table_name or record.table_id,
        "table_handle": record.table_id,
        "game_type": "Holdem",
        "bet_limit": {"bet_type": "FL" if cfg.is_limit else "NL", "bet_cap": 0},
        "table_size": cfg.seats,
        "currency": "",  # play chips
        "dealer_seat": record.button,
        "small_blind_amount": _number(cfg.small_blind, unit),
        "big_blind_amount": _number(cfg.big_blind, unit),
        "ante_amount": _number(cfg.bomb_pot_ante if record.bomb_pot else cfg.ante, unit),
        "players": [
            {
                "id": s.seat,
                "seat": s.seat,
                "name": s.name,
                "display": s.name,
                "starting_stack": _number(s.starting_stack, unit),
            }
            for s in sorted(record.seats, key=lambda s: s.seat)
        ],
        "rounds": r.in_order(),
        "pots": [
            {
                "number": i,
                "amount": _number(sum(a for _, a in r.pots[pot]), unit),
                "rake": 0,
                "player_wins": [
                    {"player_id": seat, "win_amount": _number(won, unit), "contributed_rake": 0}
                    for seat, won in r.pots[pot]
                ],
            }
            for i, pot in enumerate(sorted(r.pots))
        ],
    }
    if mine is not None:
        body["hero_player_id"] = mine.seat
    if r.runs > 1:
        body["flags"] = ["Run_It_Twice"]  # the specification's flag, for three runs too
    return {"ohh": body}


def _deal(r: _Rounds, mine: SeatRecord | None) -> None:
    if mine is not None and _HIDDEN not in mine.hole_cards:
        r.count += 1
        r.round(Street.PREFLOP)["actions"].append(
            {
                "action_number": r.count,
                "player_id": mine.seat,
                "action": "Dealt Cards",
                "cards": list(mine.hole_cards),
            }
        )


def ohh_text(documents: list[dict[str, Any]]) -> str:
    """An .ohh file: one JSON document per hand, separated by a blank line."""
    return "\n\n".join(json.dumps(d, ensure_ascii=False) for d in documents) + "\n"
