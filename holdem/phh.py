"""PHH export and import: hand records as Poker Hand History files, and files replayed.

PHH (the Poker Hand History format used by pokerkit and research datasets) is
TOML. Players are listed from the first seat left of the button to the button,
the order pokerkit uses, so "p1" is that first seat. Fields starting with "_"
are ours (PHH allows user-defined fields that way).

Home-game rules: a straddle is a third entry in `blinds_or_straddles` (under the
gun, p3, or on the button, the last player). A bomb pot has the same ante for
everyone, no blinds and everyone's preflop check (`_bomb_pot = true`; the
table's blinds in `_table_blinds`). Running it more than once deals each run's
board as `d db` lines, run after run (`_runs`). A rabbit hunt is only
`_rabbit_hunt`: never a `d db` line, as it is never part of the hand.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from holdem.actions import Action, EventKind
from holdem.cards import FULL_DECK, CardError, ScriptedDeck, is_card
from holdem.config import AnteMode, Straddle, TableConfig, Variant
from holdem.errors import RuleError
from holdem.hand import Hand
from holdem.history import HandRecord

# -- PHH export ---------------------------------------------------------------


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        # A JSON string is a TOML basic string, once DEL (which TOML wants escaped) is.
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} to PHH")


def phh_actions(record: HandRecord) -> list[str]:
    """The PHH action lines: hole dealing, then every action, board and showdown."""
    player = {s.seat: f"p{i + 1}" for i, s in enumerate(record.seats)}
    lines = [f"d dh {player[s.seat]} {''.join(s.hole_cards)}" for s in record.seats]
    if record.bomb_pot:  # pokerkit's preflop with no blinds: all who can act check, p1 first
        all_in = {e.seat for e in record.events if e.kind is EventKind.ANTE and e.all_in}
        checks = [f"{player[s.seat]} cc" for s in record.seats if s.seat not in all_in]
        lines += checks if len(checks) > 1 else []
    pushed = False  # chips were pushed: a SHOW after that is an uncalled winner's, not PHH's
    for event in record.events:
        pushed = pushed or event.kind is EventKind.WIN
        who = player.get(event.seat) if event.seat is not None else None
        if event.kind is EventKind.FOLD:
            lines.append(f"{who} f")
        elif event.kind in (EventKind.CHECK, EventKind.CALL):
            lines.append(f"{who} cc")
        elif event.kind in (EventKind.BET, EventKind.RAISE):
            lines.append(f"{who} cbr {event.amount}")
        elif event.kind is EventKind.BOARD:
            lines.append(f"d db {''.join(event.cards)}")
        elif event.kind is EventKind.SHOW and not pushed:
            lines.append(f"{who} sm {''.join(event.cards)}")
        elif event.kind is EventKind.MUCK:
            lines.append(f"{who} sm")
    return lines


def to_phh(record: HandRecord) -> str:
    cfg = record.config
    count = len(record.seats)
    # A big-blind ante is p2's in PHH (pokerkit gives it to the big blind, heads-up too),
    # and untrimmed: trimming would hand a lone ante back.
    antes = [0, cfg.ante] + [0] * (count - 2) if cfg.big_blind_ante else [cfg.ante] * count
    blinds = [cfg.small_blind, cfg.big_blind] + [0] * (count - 2)
    index = {s.seat: i for i, s in enumerate(record.seats)}
    for event in record.events:
        if event.kind is EventKind.STRADDLE and event.seat is not None:
            blinds[index[event.seat]] = 2 * cfg.big_blind
    if record.bomb_pot:
        antes, blinds = [cfg.bomb_pot_ante] * count, [0] * count
    fields: list[tuple[str, Any]] = [
        ("variant", "FT" if cfg.is_limit else "NT"),
        ("ante_trimming_status", record.bomb_pot or not cfg.big_blind_ante),
        ("antes", antes),
        ("blinds_or_straddles", blinds),
    ]
    if cfg.is_limit:
        fields += [("small_bet", cfg.small_bet), ("big_bet", cfg.big_bet)]
    else:
        fields.append(("min_bet", cfg.big_blind))
    fields += [
        ("starting_stacks", [s.starting_stack for s in record.seats]),
        ("actions", phh_actions(record)),
        ("players", [s.name for s in record.seats]),
        ("seats", [s.seat for s in record.seats]),
        ("seat_count", cfg.seats),
        ("table", record.table_id),
        ("hand", record.hand_no),
        ("finishing_stacks", [s.final_stack for s in record.seats]),
        ("_player_ids", [s.player_id for s in record.seats]),
        ("_button_seat", record.button),
    ]
    if cfg.is_limit and cfg.raise_cap is not None:
        fields.append(("_raise_cap", cfg.raise_cap))
    if record.bomb_pot:
        fields += [("_bomb_pot", True), ("_table_blinds", [cfg.small_blind, cfg.big_blind])]
    if record.boards:
        fields.append(("_runs", len(record.boards)))
    if record.rabbit:
        fields.append(("_rabbit_hunt", "".join(record.rabbit)))
    return "".join(f"{key} = {_toml_value(value)}\n" for key, value in fields)


# -- PHH import and replay -------------------------------------------------------


class PhhError(ValueError):
    """A PHH file we cannot play: malformed, or a variant or rule we do not support."""


@dataclass(frozen=True)
class PhhHand:
    config: TableConfig
    seats: tuple[int, ...]  # pokerkit order; the last is the button
    starting_stacks: tuple[int, ...]
    actions: tuple[str, ...]
    players: tuple[str, ...]
    finishing_stacks: tuple[int, ...] | None
    straddled: bool = False
    bomb_pot: bool = False
    runs: int = 1


def _int_list(data: dict[str, Any], key: str, count: int | None = None) -> list[int]:
    value = data.get(key)
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise PhhError(f"'{key}' must be a list of integers (chip amounts)")
    if count is not None and len(value) != count:
        raise PhhError(f"'{key}' has {len(value)} entries for {count} players")
    return value


def parse_phh(text: str) -> PhhHand:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PhhError(f"not valid TOML: {error}") from error
    variant = data.get("variant")
    if variant not in ("NT", "FT"):
        raise PhhError(
            f"unsupported variant {variant!r}: only NT (no-limit) and FT (fixed-limit) "
            "Texas hold'em"
        )
    stacks = _int_list(data, "starting_stacks")
    count = len(stacks)
    if not 2 <= count <= 10:
        raise PhhError(f"{count} players: Showdown plays 2 to 10")
    blinds = _int_list(data, "blinds_or_straddles", count)
    antes = _int_list(data, "antes", count) if "antes" in data else [0] * count
    bomb_pot = data.get("_bomb_pot") is True
    rules: dict[str, Any] = {}
    if bomb_pot:
        blinds = _bomb_pot_blinds(data, blinds, antes, count)
        rules["bomb_pot_ante"], antes = antes[0], [0] * count
    straddle = _straddle_of(blinds, count)
    if straddle is not Straddle.OFF:
        rules["straddle"] = straddle
    runs = data.get("_runs", 1)
    if not isinstance(runs, int) or isinstance(runs, bool) or not 1 <= runs <= 3:
        raise PhhError("'_runs' must be 1, 2 or 3 (the board's runs)")
    rules["run_it_max"] = runs
    if blinds[0] <= 0 or blinds[1] <= 0:
        raise PhhError("a small and a big blind are needed")
    ante, ante_mode = _ante_of(antes, data.get("ante_trimming_status", False))
    small_blind, big_blind = sorted(blinds[:2]) if count == 2 else blinds[:2]
    try:
        if variant == "FT":
            cap = data.get("_raise_cap")
            config = TableConfig(
                variant=Variant.LIMIT,
                seats=count,
                small_blind=small_blind,
                big_blind=big_blind,
                ante=ante,
                ante_mode=ante_mode,
                small_bet=int(data["small_bet"]),
                big_bet=int(data["big_bet"]),
                raise_cap=cap if isinstance(cap, int) else None,
                min_buy_in=big_blind,
                max_buy_in=big_blind,
                **rules,
            )
        else:
            if data.get("min_bet", big_blind) != big_blind:
                raise PhhError("a minimum bet other than the big blind is not supported")
            config = TableConfig(
                variant=Variant.NO_LIMIT,
                seats=count,
                small_blind=small_blind,
                big_blind=big_blind,
                ante=ante,
                ante_mode=ante_mode,
                min_buy_in=big_blind,
                max_buy_in=big_blind,
                **rules,
            )
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, PhhError):
            raise
        raise PhhError(f"bad stakes: {error}") from error
    actions = data.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise PhhError("'actions' must be a list of strings")
    players = data.get("players", [f"p{i + 1}" for i in range(count)])
    if not isinstance(players, list):
        raise PhhError("'players' must be a list of names")
    finishing = data.get("finishing_stacks")
    return PhhHand(
        config=config,
        seats=tuple(range(1, count + 1)),
        starting_stacks=tuple(stacks),
        actions=tuple(actions),
        players=tuple(str(p) for p in players),
        finishing_stacks=tuple(finishing) if isinstance(finishing, list) else None,
        straddled=straddle is not Straddle.OFF,
        bomb_pot=bomb_pot,
        runs=runs,
    )


def _bomb_pot_blinds(
    data: dict[str, Any], blinds: list[int], antes: list[int], count: int
) -> list[int]:
    """A bomb pot's PHH: no blinds, one ante for all; the table's blinds from `_table_blinds`."""
    if any(blinds) or len(set(antes)) != 1 or antes[0] <= 0:
        raise PhhError("a bomb pot has no blinds and the same ante above 0 for everyone")
    table = _int_list(data, "_table_blinds", 2)
    return table + [0] * (count - 2)


def _straddle_of(blinds: list[int], count: int) -> Straddle:
    """The straddle rule a third entry of `blinds_or_straddles` shows (two big blinds)."""
    extra = [i for i in range(2, count) if blinds[i]]
    if not extra:
        return Straddle.OFF
    if len(extra) > 1 or blinds[extra[0]] != 2 * blinds[1]:
        raise PhhError("only one straddle of two big blinds is supported")
    if extra[0] == 2:
        return Straddle.UTG
    if extra[0] == count - 1:
        return Straddle.BUTTON
    raise PhhError("a straddle is under the gun (p3) or on the button (the last player)")


def _ante_of(antes: list[int], trimming: object) -> tuple[int, AnteMode]:
    """The table's ante from PHH `antes`: the same for everyone, or the big blind's alone."""
    if len(set(antes)) == 1:
        return antes[0], AnteMode.EVERY_SEAT
    if antes[1] > 0 and not any(antes[:1] + antes[2:]):
        if trimming is not False:
            raise PhhError(
                "a big-blind ante needs ante_trimming_status = false "
                "(trimmed, the lone ante would be handed back)"
            )
        return antes[1], AnteMode.BIG_BLIND
    raise PhhError(
        "antes must be the same for every player, or a big-blind ante "
        "(only the second entry set: pokerkit's big blind, heads-up too)"
    )


def _cards_of(text: str) -> list[str | None]:
    """PHH cards with unknown ones ("??") as None."""
    if len(text) % 2:
        raise PhhError(f"cannot read cards {text!r}")
    out: list[str | None] = []
    for i in range(0, len(text), 2):
        card = text[i : i + 2]
        if card == "??":
            out.append(None)
        elif is_card(card):
            out.append(card)
        else:
            raise PhhError(f"{card!r} is not a card")
    return out


def _deck_for(phh: PhhHand) -> ScriptedDeck:
    """Our deck in the order our Hand deals: holes round by round, burns, board."""
    count = len(phh.seats)
    holes: list[list[str | None]] = [[None, None] for _ in range(count)]
    shown: dict[int, list[str | None]] = {}
    board: list[str] = []
    dealt: list[list[str]] = []  # each `d db` line's cards, in order
    for line in phh.actions:
        parts = line.split()
        if parts[:2] == ["d", "dh"] and len(parts) == 4:
            cards = _cards_of(parts[3])
            if len(cards) != 2:
                raise PhhError(f"{line!r}: Texas hold'em deals two hole cards")
            holes[_player(parts[2], count)] = cards
        elif parts[:2] == ["d", "db"]:
            if len(parts) != 3:
                raise PhhError(f"{line!r}: say which board cards are dealt")
            dealt.append([c for c in _cards_of(parts[2]) if c is not None])
            board += dealt[-1]
        elif len(parts) == 3 and parts[1] == "sm":
            shown[_player(parts[0], count)] = _cards_of(parts[2])
    for i, cards in shown.items():
        holes[i] = [h if h is not None else s for h, s in zip(holes[i], cards, strict=False)]
    known = [c for hole in holes for c in hole if c is not None] + board
    if len(set(known)) != len(known):
        raise PhhError("a card is dealt twice")
    spare = iter(c for c in FULL_DECK if c not in set(known))
    filled = [[c if c is not None else next(spare) for c in hole] for hole in holes]
    order: list[str] = [filled[i][0] for i in range(count)] + [filled[i][1] for i in range(count)]
    for street_cards in dealt:  # each street (and each run's street) burns first
        if street_cards:
            order += [next(spare), *street_cards]
    return ScriptedDeck(order)


def _player(token: str, count: int) -> int:
    if not (token.startswith("p") and token[1:].isdigit() and 1 <= int(token[1:]) <= count):
        raise PhhError(f"unknown player {token!r}")
    return int(token[1:]) - 1


def replay_phh(phh: PhhHand) -> Hand:
    """Play a PHH hand through our rules core; raises PhhError on anything unplayable."""
    try:
        hand = Hand(
            phh.config,
            dict(zip(phh.seats, phh.starting_stacks, strict=True)),
            button=phh.seats[-1],
            deck=_deck_for(phh),
            straddle=phh.straddled,
            bomb_pot=phh.bomb_pot,
        )
    except (ValueError, CardError) as error:
        raise PhhError(str(error)) from error
    count = len(phh.seats)
    board_read = 0  # board cards of the history matched so far (all-in: dealt at once)
    # A bomb pot's preflop checks are the rules' own: our hand starts on the flop.
    preflop = phh.bomb_pot
    for number, line in enumerate(phh.actions, start=1):
        parts = line.split()
        if not parts:
            raise PhhError(f"action {number} is empty")
        for seat in hand.runout_voters:  # the runs everyone agreed on (`_runs`)
            hand.vote_runouts(seat, phh.runs)
        if parts[0] == "d":
            if parts[1:2] == ["db"]:
                preflop = False
                dealt = [c for c in _cards_of(parts[2]) if c is not None]
                if hand.board_cards_dealt[board_read : board_read + len(dealt)] != dealt:
                    raise PhhError(f"action {number} ({line!r}): the board is dealt out of turn")
                board_read += len(dealt)
            elif parts[1:2] != ["dh"]:
                raise PhhError(f"action {number} ({line!r}) is not supported")
            continue
        seat = phh.seats[_player(parts[0], count)]
        verb = parts[1] if len(parts) > 1 else ""
        if preflop and verb == "cc":
            continue
        if verb == "sm":
            continue  # showing or mucking is decided by the showdown rules
        try:
            hand.act(seat, _action_for(hand, verb, parts[2:]))
        except RuleError as error:
            raise PhhError(f"action {number} ({line!r}): {error.message}") from error
    for seat in hand.runout_voters:
        hand.vote_runouts(seat, phh.runs)
    if not hand.is_over:
        raise PhhError("the history ends before the hand is over")
    return hand


def _action_for(hand: Hand, verb: str, rest: Sequence[str]) -> Action:
    legal = hand.legal_actions()
    if legal is None:
        raise PhhError("an action after the hand is over")
    if verb == "f":
        return Action.fold()
    if verb == "cc":
        return Action.check() if legal.can_check else Action.call()
    if verb == "cbr" and len(rest) == 1 and rest[0].isdigit():
        if legal.raise_kind is None:
            raise PhhError("a bet or raise where none is allowed")
        return Action(kind=legal.raise_kind, amount=int(rest[0]))
    raise PhhError(f"unknown action {verb!r}")


def replay_text(text: str, *, check_recorded: bool = False) -> list[int]:
    """Finishing stacks, in PHH player order, of a hand given as PHH text.

    With `check_recorded`, stacks other than the history's own `finishing_stacks`
    (when it has them) raise a PhhError naming both.
    """
    phh = parse_phh(text)
    hand = replay_phh(phh)
    stacks = [hand.stacks[s] for s in phh.seats]
    recorded = phh.finishing_stacks
    if check_recorded and recorded is not None and list(recorded) != stacks:
        raise PhhError(
            f"the hand ends with stacks {' '.join(map(str, stacks))}, "
            f"not the recorded {' '.join(map(str, recorded))}"
        )
    return stacks
