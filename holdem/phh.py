"""PHH export and import: hand records as Poker Hand History files, and files replayed.

PHH (the Poker Hand History format used by pokerkit and research datasets) is
TOML. Players are listed from the first seat left of the button to the button,
the order pokerkit uses, so "p1" is that first seat. Fields starting with "_"
are ours (PHH allows user-defined fields that way).
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from holdem.actions import Action, EventKind
from holdem.cards import FULL_DECK, CardError, ScriptedDeck, is_card
from holdem.config import AnteMode, TableConfig, Variant
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
    fields: list[tuple[str, Any]] = [
        ("variant", "FT" if cfg.is_limit else "NT"),
        ("ante_trimming_status", not cfg.big_blind_ante),
        ("antes", antes),
        ("blinds_or_straddles", [cfg.small_blind, cfg.big_blind] + [0] * (count - 2)),
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
    if any(blinds[2:]) or blinds[0] <= 0 or blinds[1] <= 0:
        raise PhhError("only a small and a big blind are supported (no straddles)")
    antes = _int_list(data, "antes", count) if "antes" in data else [0] * count
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
    )


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
            board += [c for c in _cards_of(parts[2]) if c is not None]
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
    for street_cards in (board[:3], board[3:4], board[4:5]):
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
        )
    except (ValueError, CardError) as error:
        raise PhhError(str(error)) from error
    count = len(phh.seats)
    board_read = 0  # board cards of the history matched so far (all-in: dealt at once)
    for number, line in enumerate(phh.actions, start=1):
        parts = line.split()
        if not parts:
            raise PhhError(f"action {number} is empty")
        if parts[0] == "d":
            if parts[1:2] == ["db"]:
                dealt = [c for c in _cards_of(parts[2]) if c is not None]
                if hand.board[board_read : board_read + len(dealt)] != dealt:
                    raise PhhError(f"action {number} ({line!r}): the board is dealt out of turn")
                board_read += len(dealt)
            elif parts[1:2] != ["dh"]:
                raise PhhError(f"action {number} ({line!r}) is not supported")
            continue
        seat = phh.seats[_player(parts[0], count)]
        verb = parts[1] if len(parts) > 1 else ""
        if verb == "sm":
            continue  # showing or mucking is decided by the showdown rules
        try:
            hand.act(seat, _action_for(hand, verb, parts[2:]))
        except RuleError as error:
            raise PhhError(f"action {number} ({line!r}): {error.message}") from error
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
