"""ai.sim against holdem.Hand (pokerkit): same cards, same random actions, same everything.

Each case plays seeded random hands through both engines and requires identical
legal actions (fold/check/call amounts, bet-or-raise kind, min/max), stacks and bets
at every step, and identical final stacks. The deals lean on the edge cases: 2-10
seats, stacks below one big blind (even below the small blind or the ante), heavy
all-ins with side pots, odd blinds, antes, Limit caps from 1 bet to uncapped, and a
share of boards that play for everyone so pots split with odd chips. The home-game
rules the bots play (#34) too: a live straddle (under the gun or on the button) and
bomb pots, hand by hand as a table deals them.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

import pytest

from ai.sim.rules import CALL, CHECK, FOLD, SimAction, SimLegal
from ai.sim.state import SimState
from holdem.actions import EventKind
from holdem.cards import FULL_DECK, ScriptedDeck
from holdem.config import AnteMode, Straddle, TableConfig, Variant
from holdem.hand import Hand

# Boards everyone plays (broadway straights with at most two of a suit, a royal flush,
# quads with an ace kicker), or nearly (two pair with an ace: kickers decide).
TIE_BOARDS = (
    ("Ah", "Kd", "Qc", "Js", "Th"),
    ("As", "Ks", "Qs", "Js", "Ts"),
    ("Ac", "Kc", "Qd", "Jd", "Th"),
    ("9c", "9d", "9h", "9s", "Ah"),
    ("Kc", "Kd", "Qh", "Qs", "Ad"),
)


@dataclass(frozen=True)
class Case:
    name: str
    hands: int
    seed: int
    variant: Variant | None  # None: either
    stacks: str  # deep | short | mixed
    ante_share: float = 0.0
    big_blind_ante: bool = False  # antes, when dealt, are the big blind's alone
    home: bool = False  # no-limit tables with a straddle (UTG or button) and bomb pots


CASES = (
    Case("nl-deep", 1200, 101, Variant.NO_LIMIT, "deep"),
    Case("nl-short", 1600, 202, Variant.NO_LIMIT, "short", ante_share=0.3),
    Case("nl-mixed", 1600, 303, Variant.NO_LIMIT, "mixed", ante_share=0.3),
    Case("fl-deep", 1000, 404, Variant.LIMIT, "deep", ante_share=0.2),
    Case("fl-short", 1600, 505, Variant.LIMIT, "short", ante_share=0.3),
    Case("fl-mixed", 1400, 606, Variant.LIMIT, "mixed"),
    Case("any-mixed-antes", 1600, 707, None, "mixed", ante_share=1.0),
    Case("nl-short-bb-ante", 800, 808, Variant.NO_LIMIT, "short", 1.0, big_blind_ante=True),
    Case("nl-mixed-home-rules", 1000, 1010, Variant.NO_LIMIT, "mixed", 0.3, home=True),
)


def make_config(rng: random.Random, case: Case, table_size: int) -> TableConfig:
    variant = case.variant or rng.choice((Variant.LIMIT, Variant.NO_LIMIT))
    big = rng.choice((2, 2, 2, 3, 4, 10, 1))
    small = rng.choice((1, big // 2 or 1, big // 2 or 1, big, max(1, big - 1)))
    ante = rng.choice((1, big // 2 or 1, big)) if rng.random() < case.ante_share else 0
    extra: dict[str, int | Straddle | None] = {}
    if case.home:
        extra["straddle"] = rng.choice((Straddle.UTG, Straddle.BUTTON))
        extra["bomb_pot_ante"] = rng.choice((1, big, 3 * big))
    if variant is Variant.LIMIT:
        extra["raise_cap"] = rng.choice((None, 1, 2, 3, 4, 4, 4, 5))
        if rng.random() < 0.3:
            small_bet = rng.choice((big, 2 * big, big + 1))
            extra["small_bet"] = small_bet
            extra["big_bet"] = rng.choice((2 * small_bet, small_bet, 3 * small_bet))
    return TableConfig(
        variant=variant,
        seats=table_size,
        small_blind=small,
        big_blind=big,
        ante=ante,
        ante_mode=AnteMode.BIG_BLIND if case.big_blind_ante and ante else AnteMode.EVERY_SEAT,
        min_buy_in=big,
        max_buy_in=1000 * big,
        **extra,
    )


def make_stack(rng: random.Random, style: str, big: int) -> int:
    if style == "deep":
        return rng.randint(20 * big, 300 * big)
    if style == "short":
        return rng.randint(1, 6 * big)
    return rng.choice(
        (rng.randint(1, 2 * big), rng.randint(2 * big, 12 * big), rng.randint(40 * big, 200 * big))
    )


def choose(legal: SimLegal, rng: random.Random) -> SimAction:
    """Random, but often enough a raise of each size: minimum, all-in, in between."""
    roll = rng.random()
    if legal.raise_kind is not None and roll < 0.4:
        low, high = legal.min_to, legal.max_to
        size = rng.random()
        to = low if size < 0.35 else high if size < 0.7 else rng.randint(low, high)
        return SimAction(legal.raise_kind, to)
    if legal.can_fold and roll < 0.52:
        return SimAction(FOLD)
    return SimAction(CHECK if legal.can_check else CALL)


def play_both(rng: random.Random, case: Case, stats: Counter[str]) -> None:
    table_size = rng.randint(2, 10)
    players = rng.randint(2, table_size)
    seats = sorted(rng.sample(range(1, table_size + 1), players))
    button = rng.choice(seats)
    config = make_config(rng, case, table_size)
    stacks = {seat: make_stack(rng, case.stacks, config.big_blind) for seat in seats}
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    if rng.random() < 0.2:
        board = list(rng.choice(TIE_BOARDS))
        deck = [c for c in deck if c not in board]
    else:
        board = [deck.pop() for _ in range(5)]
    holes = {seat: (deck.pop(), deck.pop()) for seat in seats}

    straddle = config.straddle is not Straddle.OFF and players >= 3 and rng.random() < 0.5
    bomb = bool(config.bomb_pot_ante) and not straddle and rng.random() < 0.5
    sim = SimState.new_hand(config, stacks, button, holes, board, straddle=straddle, bomb_pot=bomb)
    # Hand deals one card round the table twice, then burns before each street.
    order = sim.seats
    script = [holes[s][0] for s in order] + [holes[s][1] for s in order]
    script += [deck.pop(), *board[:3], deck.pop(), board[3], deck.pop(), board[4]]
    hand = Hand(config, stacks, button, ScriptedDeck(script), straddle=straddle, bomb_pot=bomb)
    stats["straddle"] += straddle
    stats["bomb"] += bomb

    def context() -> str:  # only built when an assertion fails
        return f"{case.name}: {config!r} {stacks=} {button=} {board=} {holes=} {hand.events=}"

    while True:
        expected = hand.legal_actions()
        legal = sim.legal_actions()
        assert (legal.to_legal_actions() if legal else None) == expected, context()
        assert sim.final_stacks() == hand.stacks, context()
        assert {s: sim.bets[i] for i, s in enumerate(order)} == hand.bets, context()
        if legal is None:
            break
        action = choose(legal, rng)
        stats["raise" if action.kind >= 3 else "action"] += 1
        hand.act(legal.seat, action.to_action())
        sim.apply(action)
    assert sim.is_terminal()
    assert sim.final_stacks() == hand.stacks, context()
    assert sum(sim.payoffs()) == 0
    stats["showdown" if len(hand.shown) > 1 else "folded"] += 1
    winners_per_pot = Counter(e.pot_index for e in hand.events if e.kind is EventKind.WIN)
    stats["split"] += any(count > 1 for count in winners_per_pot.values())


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_sim_matches_holdem_hand(case: Case) -> None:
    rng = random.Random(case.seed)
    stats: Counter[str] = Counter()
    for _ in range(case.hands):
        play_both(rng, case, stats)
    # The deals must really reach the interesting places.
    assert stats["showdown"] > case.hands // 5
    assert stats["split"] > case.hands // 50
    assert stats["raise"] > case.hands // 2


def test_cases_cover_ten_thousand_hands() -> None:
    assert sum(c.hands for c in CASES) >= 10_000


def test_big_blind_ante_short_stacks_quick() -> None:
    """The tournament structure in the unit tier: big-blind antes, stacks of a few blinds."""
    case = Case("bb-ante-quick", 150, 909, Variant.NO_LIMIT, "short", 1.0, big_blind_ante=True)
    rng = random.Random(case.seed)
    stats: Counter[str] = Counter()
    for _ in range(case.hands):
        play_both(rng, case, stats)
    assert stats["showdown"] > case.hands // 5


def test_straddles_and_bomb_pots_quick() -> None:
    """The home-game rules the bots play, in the unit tier: straddles and bomb pots."""
    case = Case("home-quick", 200, 1111, Variant.NO_LIMIT, "mixed", 0.3, home=True)
    rng = random.Random(case.seed)
    stats: Counter[str] = Counter()
    for _ in range(case.hands):
        play_both(rng, case, stats)
    assert stats["straddle"] > case.hands // 5 and stats["bomb"] > case.hands // 10
    assert stats["showdown"] > case.hands // 5
