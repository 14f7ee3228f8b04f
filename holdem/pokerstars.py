"""PokerStars-format text hand histories, the format trackers and solvers import.

`to_pokerstars(record, hero)` writes one finished hand as `hero` (a player id) may see
it: hero's hole cards ("Dealt to"), other players' only where the showdown showed them
(the record passes through `observe_record` first, so nothing else can leak).

Amounts are in chips times the table's chip unit, without a currency (the play-money
form of the format). Home-game rules as the format's sites write them: "posts straddle"
(a live straddle, a blind of its own), a bomb pot's antes as "posts the ante" with no
preflop betting, a board run twice or three times as "*** FIRST TURN ***", "*** SECOND
TURN ***"... and one "*** FIRST SHOW DOWN ***" per run with "Hand was run twice" and a
board per run in the summary; a rabbit hunt is a "Rabbit hunt [...]" summary line only.

Each event kind has one writer in `_WRITERS`; a kind without one (a rule added later)
is left out of the text, never guessed at, so a new kind needs only a writer of its own.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

from holdem.actions import EventKind, HandEvent, Street
from holdem.hand_names import hand_name
from holdem.history import HandRecord
from holdem.views import observe_record

_EASTERN = ZoneInfo("America/New_York")  # PokerStars stamps hands in ET as well
_HIDDEN = "??"
_STREET_TITLE = {Street.FLOP: "Flop", Street.TURN: "Turn", Street.RIVER: "River"}
_RUN = ("FIRST", "SECOND", "THIRD")
_TIMES = {2: "twice", 3: "three times"}


def hand_number(table_id: str, hand_no: int) -> int:
    """A numeric hand id (the format wants digits), stable for a table's hand."""
    table_part = int.from_bytes(hashlib.sha256(table_id.encode()).digest()[:4], "big")
    return table_part * 1_000_000 + hand_no % 1_000_000


def amount(chips: int, unit: Decimal) -> str:
    """Chips as the format writes them: 150, or 1.5 at a chip unit of 0.01."""
    value = Decimal(chips) * unit
    text = format(value.normalize(), "f") if value != value.to_integral() else str(int(value))
    return text


@dataclass
class _Writer:
    """What the lines written so far left behind: street bets, folds, wins."""

    record: HandRecord
    unit: Decimal
    lines: list[str] = field(default_factory=list)
    street_in: dict[int, int] = field(default_factory=dict)  # chips in front, this street
    street: Street = Street.PREFLOP
    folded_on: dict[int, Street] = field(default_factory=dict)
    won: dict[int, int] = field(default_factory=dict)
    pot_wins: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    run_wins: dict[int, dict[int, list[tuple[int, int]]]] = field(default_factory=dict)
    runs: int = 1
    run_boards: dict[int, list[str]] = field(default_factory=dict)
    showdown: list[HandEvent] = field(default_factory=list)
    pushed: bool = False
    board: list[str] = field(default_factory=list)
    put_in: dict[int, int] = field(default_factory=dict)  # voluntarily, for the summary

    def name(self, seat: int | None) -> str:
        return self.record.seat(seat).name if seat is not None else "?"

    def chips(self, value: int | None) -> str:
        return amount(value or 0, self.unit)

    def level(self) -> int:
        return max(self.street_in.values(), default=0)

    def add(self, seat: int, chips: int) -> None:
        self.street_in[seat] = self.street_in.get(seat, 0) + chips


def _all_in(event: HandEvent) -> str:
    return " and is all-in" if event.all_in else ""


def _ante(w: _Writer, e: HandEvent) -> None:
    w.lines.append(f"{w.name(e.seat)}: posts the ante {w.chips(e.amount)}{_all_in(e)}")


def _blind(w: _Writer, e: HandEvent) -> None:
    which = {
        EventKind.SMALL_BLIND: "small blind",
        EventKind.BIG_BLIND: "big blind",
        EventKind.STRADDLE: "straddle",  # live: it counts as the straddler's bet
    }[e.kind]
    assert e.seat is not None
    w.add(e.seat, e.amount or 0)
    w.put_in[e.seat] = w.put_in.get(e.seat, 0) + (e.amount or 0)
    w.lines.append(f"{w.name(e.seat)}: posts {which} {w.chips(e.amount)}{_all_in(e)}")


def _fold(w: _Writer, e: HandEvent) -> None:
    assert e.seat is not None
    w.folded_on.setdefault(e.seat, e.street)
    w.lines.append(f"{w.name(e.seat)}: folds")


def _check(w: _Writer, e: HandEvent) -> None:
    w.lines.append(f"{w.name(e.seat)}: checks")


def _call(w: _Writer, e: HandEvent) -> None:
    assert e.seat is not None
    w.add(e.seat, e.amount or 0)
    w.put_in[e.seat] = w.put_in.get(e.seat, 0) + (e.amount or 0)
    w.lines.append(f"{w.name(e.seat)}: calls {w.chips(e.amount)}{_all_in(e)}")


def _bet_or_raise(w: _Writer, e: HandEvent) -> None:
    assert e.seat is not None
    to = e.amount or 0
    before, level = w.street_in.get(e.seat, 0), w.level()
    w.street_in[e.seat] = to
    w.put_in[e.seat] = w.put_in.get(e.seat, 0) + to - before
    who = w.name(e.seat)
    if e.kind is EventKind.BET:
        w.lines.append(f"{who}: bets {w.chips(to)}{_all_in(e)}")
    else:
        w.lines.append(f"{who}: raises {w.chips(to - level)} to {w.chips(to)}{_all_in(e)}")


def _board(w: _Writer, e: HandEvent) -> None:
    w.street = e.street
    w.street_in.clear()
    title = e.street.value.upper()
    if e.run is None:
        board = w.board
    else:  # one run of a board run more than once: the cards shared so far, then its own
        board = w.run_boards.setdefault(e.run, list(w.board))
        title = f"{_RUN[e.run]} {title}"
    before = f"[{' '.join(board)}] " if board else ""
    board += e.cards
    w.lines.append(f"*** {title} *** {before}[{' '.join(e.cards)}]")


def _runouts(w: _Writer, e: HandEvent) -> None:
    w.runs = e.amount or 1  # no line of its own: the runs' streets and showdowns say it


def _return(w: _Writer, e: HandEvent) -> None:
    w.lines.append(f"Uncalled bet ({w.chips(e.amount)}) returned to {w.name(e.seat)}")


def _show_or_muck(w: _Writer, e: HandEvent) -> None:
    if not w.pushed:  # shown after the chips were pushed: see _late_shows
        w.showdown.append(e)  # written under SHOW DOWN, after the whole board


def _win(w: _Writer, e: HandEvent) -> None:
    assert e.seat is not None
    if not w.pushed and w.showdown and w.runs == 1:  # runs: a showdown each, in _collected
        w.lines.append("*** SHOW DOWN ***")
        w.lines += _showdown_lines(w)
    w.pushed = True
    pot = e.pot_index or 0
    w.pot_wins.setdefault(pot, []).append((e.seat, e.amount or 0))
    w.run_wins.setdefault(e.run or 0, {}).setdefault(pot, []).append((e.seat, e.amount or 0))
    w.won[e.seat] = w.won.get(e.seat, 0) + (e.amount or 0)


def _showdown_lines(w: _Writer) -> list[str]:
    lines = []
    for shown in w.showdown:
        if shown.kind is EventKind.SHOW:
            lines.append(f"{w.name(shown.seat)}: shows {_shown(w.record, shown.cards)}")
        else:
            lines.append(f"{w.name(shown.seat)}: mucks hand")
    return lines


_WRITERS: dict[EventKind, Callable[[_Writer, HandEvent], None]] = {
    EventKind.ANTE: _ante,
    EventKind.SMALL_BLIND: _blind,
    EventKind.BIG_BLIND: _blind,
    EventKind.STRADDLE: _blind,
    EventKind.FOLD: _fold,
    EventKind.CHECK: _check,
    EventKind.CALL: _call,
    EventKind.BET: _bet_or_raise,
    EventKind.RAISE: _bet_or_raise,
    EventKind.BOARD: _board,
    EventKind.RETURN: _return,
    EventKind.SHOW: _show_or_muck,
    EventKind.MUCK: _show_or_muck,
    EventKind.WIN: _win,
    EventKind.RUNOUTS: _runouts,
}


def _header(record: HandRecord, table_name: str | None) -> list[str]:
    cfg = record.config
    if cfg.is_limit:
        game = f"Hold'em Limit ({amount(cfg.small_bet, cfg.chip_unit)}/"
        game += f"{amount(cfg.big_bet, cfg.chip_unit)})"
    else:
        game = f"Hold'em No Limit ({amount(cfg.small_blind, cfg.chip_unit)}/"
        game += f"{amount(cfg.big_blind, cfg.chip_unit)})"
    played = record.played_at or datetime(1970, 1, 1, tzinfo=UTC)
    played = played if played.tzinfo else played.replace(tzinfo=UTC)
    utc, eastern = played.astimezone(UTC), played.astimezone(_EASTERN)
    stamp = f"{utc:%Y/%m/%d %H:%M:%S} UTC [{eastern:%Y/%m/%d %H:%M:%S} ET]"
    name = (table_name or record.table_id).replace("'", "")
    lines = [
        f"PokerStars Hand #{hand_number(record.table_id, record.hand_no)}:  {game} - {stamp}",
        f"Table '{name}' {cfg.seats}-max Seat #{record.button} is the button",
    ]
    for seat in sorted(record.seats, key=lambda s: s.seat):
        lines.append(
            f"Seat {seat.seat}: {seat.name} ({amount(seat.starting_stack, cfg.chip_unit)} in chips)"
        )
    return lines


def _positions(record: HandRecord) -> dict[int, str]:
    """(button), (small blind), (big blind) as the summary marks them."""
    marks: dict[int, list[str]] = {record.button: ["(button)"]}
    for event in record.events:
        if event.seat is not None and event.kind is EventKind.SMALL_BLIND:
            marks.setdefault(event.seat, []).append("(small blind)")
        elif event.seat is not None and event.kind is EventKind.BIG_BLIND:
            marks.setdefault(event.seat, []).append("(big blind)")
    return {seat: " ".join(m) + " " for seat, m in marks.items()}


def _summary(w: _Writer) -> list[str]:
    record = w.record
    total = sum(w.won.values())
    pots = sorted(w.pot_wins)
    if len(pots) > 1:
        parts = [f"Main pot {w.chips(sum(a for _, a in w.pot_wins[pots[0]]))}."]
        parts += [
            f"Side pot-{i} {w.chips(sum(a for _, a in w.pot_wins[p]))}."
            for i, p in enumerate(pots[1:], start=1)
        ]
        lines = [f"Total pot {w.chips(total)} {' '.join(parts)} | Rake 0"]
    else:
        lines = [f"Total pot {w.chips(total)} | Rake 0"]
    if w.runs > 1 and record.boards:
        lines.append(f"Hand was run {_TIMES[w.runs]}")
        lines += [f"{_RUN[i]} Board [{' '.join(b)}]" for i, b in enumerate(record.boards)]
    elif record.board:
        lines.append(f"Board [{' '.join(record.board)}]")
    if record.rabbit:  # cards that would have come: never the board, never a result
        lines.append(f"Rabbit hunt [{' '.join(record.rabbit)}]")
    marks = _positions(record)
    shown = {e.seat: e.cards for e in record.events if e.kind is EventKind.SHOW}
    mucked = {e.seat for e in record.events if e.kind is EventKind.MUCK}
    for seat in sorted(record.seats, key=lambda s: s.seat):
        head = f"Seat {seat.seat}: {seat.name} {marks.get(seat.seat, '')}"
        if seat.seat in w.folded_on:
            street = w.folded_on[seat.seat]
            where = "before Flop" if street is Street.PREFLOP else f"on the {_STREET_TITLE[street]}"
            quiet = (
                " (didn't bet)" if street is Street.PREFLOP and not w.put_in.get(seat.seat) else ""
            )
            lines.append(f"{head}folded {where}{quiet}")
        elif seat.seat in shown:
            cards = " ".join(shown[seat.seat])
            won = w.won.get(seat.seat)
            outcome = f"won ({w.chips(won)})" if won else "lost"
            name = hand_name(shown[seat.seat], record.board)
            lines.append(f"{head}showed [{cards}] and {outcome}{f' with {name}' if name else ''}")
        elif seat.seat in w.won:
            lines.append(f"{head}collected ({w.chips(w.won[seat.seat])})")
        elif seat.seat in mucked:
            lines.append(f"{head}mucked")
        else:
            lines.append(f"{head}lost")
    return lines


def to_pokerstars(record: HandRecord, hero: str | None, table_name: str | None = None) -> str:
    """One hand in PokerStars format, as player `hero` may see it."""
    record = _unique_names(observe_record(record, hero))
    w = _Writer(record, record.config.chip_unit)
    w.lines += _header(record, table_name)
    first_deal = next(
        (i for i, e in enumerate(record.events) if e.kind not in _FORCED),
        len(record.events),
    )
    events = list(record.events)
    for index, event in enumerate(events):
        if index == first_deal:
            w.lines += _hole_cards(record, hero)
        writer = _WRITERS.get(event.kind)
        if writer is not None:
            writer(w, event)
    if first_deal == len(events):
        w.lines += _hole_cards(record, hero)
    if w.pot_wins:
        w.lines += _collected(w)
        w.lines += _late_shows(w, events)
    w.lines.append("*** SUMMARY ***")
    w.lines += _summary(w)
    return "\n".join(w.lines) + "\n"


_FORCED = (EventKind.ANTE, EventKind.SMALL_BLIND, EventKind.BIG_BLIND, EventKind.STRADDLE)


def _unique_names(record: HandRecord) -> HandRecord:
    """The format knows players by name alone: two guests of one name (which the room
    allows) are told apart by their seats, "Sam #2" and "Sam #5"."""
    counts = Counter(s.name for s in record.seats)
    if all(n == 1 for n in counts.values()):
        return record
    seats = [
        s.model_copy(update={"name": f"{s.name} #{s.seat}"}) if counts[s.name] > 1 else s
        for s in record.seats
    ]
    return record.model_copy(update={"seats": seats})


def _hole_cards(record: HandRecord, hero: str | None) -> list[str]:
    lines = ["*** HOLE CARDS ***"]
    mine = next((s for s in record.seats if s.player_id == hero), None)
    if mine is not None and _HIDDEN not in mine.hole_cards:
        lines.append(f"Dealt to {mine.name} [{' '.join(mine.hole_cards)}]")
    return lines


def _collected(w: _Writer) -> list[str]:
    if w.runs == 1:
        return _pot_lines(w, w.pot_wins)
    lines = []
    for run in range(w.runs):  # each run its showdown; the cards are shown at the first
        lines.append(f"*** {_RUN[run]} SHOW DOWN ***")
        lines += _showdown_lines(w) if run == 0 else []
        lines += _pot_lines(w, w.run_wins.get(run, {}))
    return lines


def _pot_lines(w: _Writer, wins: dict[int, list[tuple[int, int]]]) -> list[str]:
    pots = sorted(w.pot_wins)  # named from every pot of the hand, whichever run won them
    lines = []
    for i, pot in enumerate(pots):
        which = "pot" if len(pots) == 1 else ("main pot" if i == 0 else f"side pot-{i}")
        for seat, won in wins.get(pot, []):
            lines.append(f"{w.name(seat)} collected {w.chips(won)} from {which}")
    return lines


def _late_shows(w: _Writer, events: Iterable[HandEvent]) -> list[str]:
    """A winner's cards shown once the chips were pushed (an uncalled win shown)."""
    after = False
    lines = []
    for event in events:
        after = after or event.kind is EventKind.WIN
        if after and event.kind is EventKind.SHOW:
            lines.append(f"{w.name(event.seat)}: shows {_shown(w.record, event.cards)}")
    return lines


def _shown(record: HandRecord, cards: tuple[str, ...]) -> str:
    """Shown cards as the format writes them: "[Ad Qd] (a pair of Sixes)"."""
    name = hand_name(cards, record.board)
    return f"[{' '.join(cards)}]" + (f" ({name})" if name else "")
