"""A PokerStars hand-history reader written from the format's description, not from our writer.

The format (as PokerStars writes it, and as the trackers' import documentation and the
open parsers describe it): a header line "PokerStars Hand #<digits>: <game> (<stakes>)
- <date>", a table line naming the button, one "Seat N: name (stack in chips)" line a
player, the forced bets, then sections "*** HOLE CARDS ***", "*** FLOP *** [...]",
"*** TURN *** [...] [x]", "*** RIVER *** [...] [x]", "*** SHOW DOWN ***" and
"*** SUMMARY ***"; action lines are "name: verb amount", a raise "raises <by> to <to>".
Hands are separated by blank lines. It imports nothing from holdem.pokerstars.
Home-game lines as the format's sites write them: "posts straddle" (a live blind, part of
the straddler's preflop bet); a board run more than once as "*** FIRST TURN *** [...]
[x]", "*** SECOND TURN ***"... (the brackets hold that run's whole board so far), one
"*** FIRST SHOW DOWN ***" per run, and "FIRST Board [...]" lines in the summary.

`read_hands` parses; `check_chips` checks a parsed hand's arithmetic: every player's
chips in minus returned plus collected, and the pot against what was collected and raked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal

_HEADER = re.compile(
    r"^PokerStars (?:Hand|Game) #(?P<id>\d+): +(?P<tour>Tournament #\d+, .*? )?"
    r"Hold'em (?P<limit>No Limit|Pot Limit|Limit) (?:- Level \S+ )?"
    r"\((?P<small>[^/)]+)/(?P<big>[^)\s]+)(?: [A-Z]{3})?\) - (?P<date>.+)$"
)
_TABLE = re.compile(
    r"^Table '(?P<name>[^']*)' (?P<max>\d+)-max Seat #(?P<button>\d+) is the button"
)
_SEAT = re.compile(
    r"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<stack>[$\d.,]+) in chips(?:, [^)]*)?\)"
)
_RUNS = ("FIRST", "SECOND", "THIRD")
_STREET = re.compile(
    r"^\*\*\* (?:(?P<run>FIRST|SECOND|THIRD) )?(?P<street>FLOP|TURN|RIVER) \*\*\* "
    r"(?:\[(?P<before>[^\]]*)\] )?\[(?P<cards>[^\]]*)\]$"
)
_SHOW_DOWN = re.compile(r"^\*\*\* (?:(?:FIRST|SECOND|THIRD) )?SHOW DOWN \*\*\*$")
_CARDS = re.compile(r"\[(?P<cards>[^\]]*)\]")
_VERB = re.compile(
    r"^(?P<verb>posts small blind|posts big blind|posts the ante|posts small & big blinds"
    r"|posts straddle"
    r"|folds|checks|calls|bets|raises|shows|mucks hand|doesn't show hand)"
    r"(?: (?P<rest>.*))?$"
)
_NUMBER = r"\$?([\d.,]+)"


def _money(text: str) -> Decimal:
    return Decimal(text.replace("$", "").replace(",", ""))


@dataclass
class Act:
    street: str  # preflop, flop, turn, river
    player: str
    verb: str  # ante, small_blind, big_blind, straddle, fold, check, call, bet, raise
    amount: Decimal | None = None  # chips added (call, post) or the total "to" (bet, raise)
    all_in: bool = False


@dataclass
class ParsedHand:
    hand_id: str
    limit: str
    stakes: tuple[Decimal, Decimal]
    table: str
    max_seats: int
    button: int
    seats: dict[int, tuple[str, Decimal]] = field(default_factory=dict)
    acts: list[Act] = field(default_factory=list)
    hero: str | None = None
    hero_cards: tuple[str, ...] = ()
    board: list[str] = field(default_factory=list)  # the first run's, if run more than once
    boards: list[list[str]] = field(default_factory=list)  # each run's board (run it twice)
    shown: dict[str, tuple[str, ...]] = field(default_factory=dict)
    shown_names: dict[str, str] = field(default_factory=dict)  # "(a pair of Sixes)"
    mucked: set[str] = field(default_factory=set)
    returned: dict[str, Decimal] = field(default_factory=dict)
    collected: dict[str, Decimal] = field(default_factory=dict)
    total_pot: Decimal | None = None
    rake: Decimal | None = None
    summary_board: list[str] = field(default_factory=list)
    summary_boards: list[list[str]] = field(default_factory=list)
    runs_said: str | None = None  # "twice" from "Hand was run twice"
    rabbit: list[str] = field(default_factory=list)  # "Rabbit hunt [...]": no part of the hand

    @property
    def names(self) -> list[str]:
        return [name for name, _ in self.seats.values()]

    def final_stacks(self) -> dict[str, Decimal]:
        """Each player's chips after the hand, from the starting stacks and the actions."""
        stacks = {name: stack for name, stack in self.seats.values()}
        for name, paid in self.paid().items():
            stacks[name] -= paid
        for name, back in self.returned.items():
            stacks[name] += back
        for name, won in self.collected.items():
            stacks[name] += won
        return stacks

    def paid(self) -> dict[str, Decimal]:
        """Chips each player put in (returned chips not yet taken off)."""
        paid = {name: Decimal(0) for name in self.names}
        street_in: dict[str, Decimal] = {}
        street = "preflop"
        for act in self.acts:
            if act.street != street:
                street, street_in = act.street, {}
            if act.verb in ("bet", "raise"):
                assert act.amount is not None
                added = act.amount - street_in.get(act.player, Decimal(0))
                street_in[act.player] = act.amount
            elif act.verb in ("call", "small_blind", "big_blind", "straddle"):
                added = act.amount or Decimal(0)
                street_in[act.player] = street_in.get(act.player, Decimal(0)) + added
            elif act.verb == "ante":
                added = act.amount or Decimal(0)  # dead money: not part of the street's bets
            else:
                continue
            paid[act.player] += added
        return paid


class ParseError(ValueError):
    pass


def split_hands(text: str) -> list[list[str]]:
    """The hands of a file, each as its lines (separator and blank lines dropped)."""
    hands: list[list[str]] = []
    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith(("PokerStars Hand #", "PokerStars Game #")):
            hands.append([])
        if line and hands and not line.startswith("*****"):
            hands[-1].append(line)
        elif line.startswith("*****") and not line.startswith("*** "):
            continue
    return hands


def read_hands(text: str) -> list[ParsedHand]:
    return [read_hand(lines) for lines in split_hands(text)]


def _split_name(line: str, names: list[str]) -> tuple[str, str] | None:
    """(name, rest) for a line starting "name: " with a seated player's name (names may
    hold spaces and colons, so the longest seated name that fits wins)."""
    for name in sorted(names, key=len, reverse=True):
        if line.startswith(name + ": "):
            return name, line[len(name) + 2 :]
    return None


def read_hand(lines: list[str]) -> ParsedHand:
    header = _HEADER.match(lines[0])
    if header is None:
        raise ParseError(f"not a PokerStars hold'em header: {lines[0]!r}")
    table = _TABLE.match(lines[1])
    if table is None:
        raise ParseError(f"not a table line: {lines[1]!r}")
    hand = ParsedHand(
        hand_id=header["id"],
        limit=header["limit"],
        stakes=(_money(header["small"]), _money(header["big"])),
        table=table["name"],
        max_seats=int(table["max"]),
        button=int(table["button"]),
    )
    section = "preflop"
    for line in lines[2:]:
        seat = _SEAT.match(line)
        if seat is not None and section == "preflop" and not hand.acts and "in chips" in line:
            hand.seats[int(seat["seat"])] = (seat["name"], _money(seat["stack"]))
            continue
        if line == "*** HOLE CARDS ***":
            continue
        if _SHOW_DOWN.match(line):
            section = "showdown"
            continue
        if line == "*** SUMMARY ***":
            section = "summary"
            continue
        street = _STREET.match(line)
        if street is not None:
            section = street["street"].lower()
            if street["run"] is None:
                hand.board += street["cards"].split()
            else:  # the run's board so far: what the brackets before the new cards hold
                run = _RUNS.index(street["run"])
                while len(hand.boards) <= run:
                    hand.boards.append(list(hand.board))
                hand.boards[run] = (street["before"] or "").split() + street["cards"].split()
            continue
        if section == "summary":
            _summary_line(hand, line)
            continue
        if line.startswith("Dealt to "):
            rest = line[len("Dealt to ") :]
            name, _, cards = rest.rpartition(" [")
            hand.hero, hand.hero_cards = name, tuple(cards.rstrip("]").split())
            continue
        returned = re.match(rf"^Uncalled bet \({_NUMBER}\) returned to (.+)$", line)
        if returned is not None:
            hand.returned[returned[2]] = hand.returned.get(returned[2], 0) + _money(returned[1])
            continue
        collected = re.match(rf"^(.+) collected {_NUMBER} from (?:main |side )?pot(?:-\d+)?$", line)
        if collected is not None:
            won = _money(collected[2])
            hand.collected[collected[1]] = hand.collected.get(collected[1], Decimal(0)) + won
            continue
        split = _split_name(line, hand.names)
        if split is None:
            continue  # chat, table talk, tournament results: not the hand's chips
        name, rest = split
        verb = _VERB.match(rest)
        if verb is None:
            continue  # "sits out", "is disconnected" and the like
        _act(hand, section, name, verb["verb"], verb["rest"] or "")
    if hand.boards:
        hand.board = list(hand.boards[0])
    return hand


def _act(hand: ParsedHand, street: str, name: str, verb: str, rest: str) -> None:
    all_in = rest.endswith("and is all-in")
    rest = rest.removesuffix(" and is all-in")
    if verb == "shows":
        shown = re.match(r"^\[(?P<cards>[^\]]*)\](?: \((?P<name>.+)\))?$", rest)
        if shown is None:
            raise ParseError(f"shows what? {rest!r}")
        hand.shown[name] = tuple(shown["cards"].split())
        if shown["name"]:
            hand.shown_names[name] = shown["name"]
        return
    if verb == "mucks hand":
        hand.mucked.add(name)
        return
    if verb == "doesn't show hand":
        return
    kind = {
        "posts small blind": "small_blind",
        "posts big blind": "big_blind",
        "posts the ante": "ante",
        "posts straddle": "straddle",
        "folds": "fold",
        "checks": "check",
        "calls": "call",
        "bets": "bet",
        "raises": "raise",
    }[verb]
    amount: Decimal | None = None
    if kind == "raise":
        match = re.match(rf"^{_NUMBER} to {_NUMBER}$", rest)
        if match is None:
            raise ParseError(f"a raise without 'to': {rest!r}")
        amount = _money(match[2])
    elif kind not in ("fold", "check"):
        amount = _money(rest.split()[0])
    hand.acts.append(Act(street, name, kind, amount, all_in))


def _summary_line(hand: ParsedHand, line: str) -> None:
    total = re.match(rf"^Total pot {_NUMBER}.*\| Rake {_NUMBER}", line)
    if total is not None:
        hand.total_pot, hand.rake = _money(total[1]), _money(total[2])
    elif line.startswith("Board ["):
        hand.summary_board = line[len("Board [") : -1].split()
    elif line.startswith("Hand was run "):
        hand.runs_said = line[len("Hand was run ") :]
    elif line.split(" ", 1)[0] in _RUNS and " Board [" in line:
        hand.summary_boards.append(line.split(" Board [", 1)[1].rstrip("]").split())
    elif line.startswith("Rabbit hunt ["):
        hand.rabbit = line[len("Rabbit hunt [") : -1].split()


def check_chips(hand: ParsedHand) -> None:
    """The hand's chips add up: the pot is what went in less what came back, and it is
    all collected but the rake."""
    went_in = sum(hand.paid().values(), Decimal(0)) - sum(hand.returned.values(), Decimal(0))
    collected = sum(hand.collected.values(), Decimal(0))
    if hand.total_pot is None or hand.rake is None:
        raise ParseError("no 'Total pot ... | Rake ...' line in the summary")
    if went_in != hand.total_pot:
        raise ParseError(f"chips in {went_in} but a total pot of {hand.total_pot}")
    if collected + hand.rake != hand.total_pot:
        raise ParseError(f"collected {collected} + rake {hand.rake} != pot {hand.total_pot}")
    if hand.summary_board and hand.summary_board != hand.board:
        raise ParseError(f"board {hand.board} but the summary says {hand.summary_board}")
    if hand.summary_boards != hand.boards:
        raise ParseError(f"boards {hand.boards} but the summary says {hand.summary_boards}")
    runs = {None: 0, "twice": 2, "three times": 3}.get(hand.runs_said, -1)
    if runs != len(hand.boards):
        raise ParseError(f"{len(hand.boards)} runs but the summary says {hand.runs_said!r}")
