"""Home-game rules (#34) with known answers: run it twice or three times, the straddle,
the bomb pot and the rabbit hunt; chips conserved with every option on; PHH round trips."""

from __future__ import annotations

import random

import pytest
from holdem_testlib import check_down, nl, play, random_action, seated_table
from test_phh_histories import pokerkit_finishing_stacks

from ai.models.public import from_record_doc
from holdem.actions import Action, EventKind, Street
from holdem.cards import Deck, ScriptedDeck, make_rng
from holdem.config import Straddle, TableConfig
from holdem.errors import IllegalActionError, SeatError
from holdem.hand import Hand
from holdem.phh import parse_phh, replay_text, to_phh
from holdem.stats import player_hands

# -- run it twice ------------------------------------------------------------------------


def _twice_deck() -> ScriptedDeck:
    """Seats 1, 2, 3 (3 the button) hold AA, KK, QQ; run 1 helps nobody, run 2 gives QQ a set."""
    holes = ["Ac", "Kc", "Qc", "Ad", "Kd", "Qs"]
    run_1 = ["6c", "2c", "7d", "9h", "6d", "Js", "6h", "3c"]  # burn, flop, burn, turn, burn, river
    run_2 = ["6s", "Qd", "4s", "8c", "Tc", "5h", "Td", "2d"]
    return ScriptedDeck(holes + run_1 + run_2)


def _all_in_three_ways(config: TableConfig) -> Hand:
    """Seat 1 (small blind) all-in for 25, seats 2 and 3 for 100: a main pot of 75 (odd)
    and a side pot of 150 between seats 2 and 3."""
    hand = Hand(config, {1: 25, 2: 100, 3: 100}, button=3, deck=_twice_deck())
    play(hand, (3, Action.raise_to(100)), (1, Action.call()), (2, Action.call()))
    return hand


def test_run_twice_splits_each_pot_per_run_the_odd_chip_to_the_first_run() -> None:
    hand = _all_in_three_ways(nl(seats=3, run_it_max=2))
    assert hand.runout_voters == (1, 2, 3) and hand.actor is None and not hand.is_over
    hand.vote_runouts(2, 2)
    hand.vote_runouts(1, 2)
    waiting: tuple[int, ...] = hand.runout_voters
    assert waiting == (3,) and hand.board == []  # nothing dealt before all agree
    hand.vote_runouts(3, 2)
    assert hand.is_over and hand.runs == 2
    assert hand.boards == [["2c", "7d", "9h", "Js", "3c"], ["Qd", "4s", "8c", "5h", "2d"]]
    # Main pot 75: run 1 (AA) 38 with the odd chip, run 2 (set of queens) 37.
    # Side pot 150: run 1 (KK) 75, run 2 (QQQ) 75.
    assert hand.stacks == {1: 38, 2: 75, 3: 112}
    wins = [(e.seat, e.amount, e.run) for e in hand.events if e.kind is EventKind.WIN]
    assert sorted(wins) == [(1, 38, 0), (2, 75, 0), (3, 37, 1), (3, 75, 1)]
    runs = [e for e in hand.events if e.kind is EventKind.RUNOUTS]
    assert [e.amount for e in runs] == [2]


def test_run_it_once_unless_every_player_agrees() -> None:
    hand = _all_in_three_ways(nl(seats=3, run_it_max=3))
    hand.vote_runouts(1, 3)
    hand.vote_runouts(2, 3)
    hand.vote_runouts(3, 1)
    assert hand.is_over and hand.runs == 1 and len(hand.boards) == 1
    # One run (the first board): AA wins the main pot, KK the side pot.
    assert hand.stacks == {1: 75, 2: 150, 3: 0}
    assert not any(e.kind is EventKind.RUNOUTS for e in hand.events)


def test_run_three_times() -> None:
    deck = Deck(rng=make_rng(7))
    hand = Hand(nl(seats=3, run_it_max=3), {1: 100, 2: 100, 3: 100}, button=3, deck=deck)
    play(hand, (3, Action.raise_to(100)), (1, Action.call()), (2, Action.call()))
    for seat in (1, 2, 3):
        hand.vote_runouts(seat, 3)
    assert hand.is_over and len(hand.boards) == 3
    cards = [c for board in hand.boards for c in board] + [
        c for hole in hand.hole_cards.values() for c in hole
    ]
    assert len(set(cards)) == len(cards) == 21
    assert sum(hand.stacks.values()) == 300


def test_runout_votes_are_checked() -> None:
    hand = _all_in_three_ways(nl(seats=3, run_it_max=2))
    with pytest.raises(IllegalActionError, match="from 1 to 2 runs"):
        hand.vote_runouts(1, 3)
    hand.vote_runouts(1, 2)
    with pytest.raises(IllegalActionError, match="once each"):
        hand.vote_runouts(1, 2)
    once = _all_in_three_ways(nl(seats=3))
    assert once.is_over and once.runout_voters == ()
    with pytest.raises(IllegalActionError):
        once.vote_runouts(1, 2)


def test_no_vote_without_an_all_in_before_the_river() -> None:
    hand = Hand(
        nl(seats=3, run_it_max=2), {1: 50, 2: 50, 3: 50}, button=3, deck=Deck(rng=make_rng(1))
    )
    while not hand.is_over:
        legal = hand.legal_actions()
        assert legal is not None and hand.runout_voters == ()
        hand.act(legal.seat, Action.check() if legal.can_check else Action.call())


# -- the straddle ------------------------------------------------------------------------


def _preflop_order(hand: Hand) -> list[int]:
    """Who acts preflop, everyone calling or checking once round."""
    order = []
    while hand.street is Street.PREFLOP and hand.actor is not None:
        legal = hand.legal_actions()
        assert legal is not None
        order.append(legal.seat)
        hand.act(legal.seat, Action.check() if legal.can_check else Action.call())
    return order


@pytest.mark.parametrize(
    ("seats", "rule", "straddler", "order"),
    [
        (3, Straddle.UTG, 3, [1, 2, 3]),  # three-handed the button is under the gun
        (6, Straddle.UTG, 3, [4, 5, 6, 1, 2, 3]),
        (10, Straddle.UTG, 3, [4, 5, 6, 7, 8, 9, 10, 1, 2, 3]),
        (6, Straddle.BUTTON, 6, [1, 2, 3, 4, 5, 6]),  # the small blind first, the button last
        (10, Straddle.BUTTON, 10, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]),
    ],
)
def test_straddle_action_order(
    seats: int, rule: Straddle, straddler: int, order: list[int]
) -> None:
    config = nl(seats=seats, straddle=rule)
    stacks = dict.fromkeys(range(1, seats + 1), 200)
    hand = Hand(config, stacks, button=seats, deck=Deck(rng=make_rng(seats)), straddle=True)
    posts = [(e.kind, e.seat, e.amount) for e in hand.events]
    assert posts == [
        (EventKind.SMALL_BLIND, 1, 1),
        (EventKind.BIG_BLIND, 2, 2),
        (EventKind.STRADDLE, straddler, 4),
    ]
    legal = hand.legal_actions()
    assert (
        legal is not None and legal.committed + legal.call_amount == 4 and legal.min_to == 8
    )  # a raise: by 4
    assert _preflop_order(hand) == order  # the straddler has the last word (the option)
    assert hand.street is Street.FLOP and hand.total_pot == 4 * seats


def test_straddle_is_refused_where_it_makes_no_sense() -> None:
    with pytest.raises(ValueError, match="no-limit rule"):
        TableConfig(variant="limit", seats=6, small_blind=1, big_blind=2, straddle=Straddle.UTG)
    with pytest.raises(ValueError, match="three players"):
        Hand(nl(straddle=Straddle.UTG), {1: 50, 2: 50}, button=2, deck=Deck(), straddle=True)
    with pytest.raises(ValueError, match="straddle table"):
        Hand(nl(), {1: 50, 2: 50, 3: 50}, button=2, deck=Deck(), straddle=True)


def test_table_straddles_only_for_a_seat_that_chose_to() -> None:
    table = seated_table(nl(seats=6, straddle=Straddle.UTG), {1: 200, 2: 200, 4: 200, 5: 200}, 5)
    with pytest.raises(SeatError, match="no straddle"):
        seated_table(nl(), {1: 100, 2: 100}).set_straddle("p1", True)
    table.set_straddle("p4", True)  # the button is 5: 1 small, 2 big, 4 under the gun
    hand = table.start_hand()
    assert [e.seat for e in hand.events if e.kind is EventKind.STRADDLE] == [4]
    check_down(table)
    hand = table.start_hand()  # the button is 1: seat 5 is under the gun and did not choose
    assert not any(e.kind is EventKind.STRADDLE for e in hand.events)


# -- the bomb pot ------------------------------------------------------------------------


def test_bomb_pot_starts_on_the_flop_with_everyones_ante() -> None:
    config = nl(seats=6, bomb_pot_ante=10)
    hand = Hand(
        config, {1: 100, 3: 100, 4: 7, 6: 100}, button=6, deck=Deck(rng=make_rng(2)), bomb_pot=True
    )
    assert hand.street is Street.FLOP and len(hand.board) == 3
    assert hand.total_pot == 37  # 10 + 10 + 7 (all-in) + 10, no blinds
    assert [e.kind for e in hand.events] == [EventKind.ANTE] * 4 + [EventKind.BOARD]
    assert hand.actor == 1  # the first seat left of the button opens the flop
    rng = random.Random(3)
    while not hand.is_over:
        legal = hand.legal_actions()
        if legal is None:
            break
        hand.act(legal.seat, random_action(legal, rng))
    assert sum(hand.stacks.values()) == 307


def test_table_bomb_pot_every_n_hands_and_when_called() -> None:
    config = nl(seats=6, bomb_pot_ante=5, bomb_pot_every=3)
    table = seated_table(config, {1: 200, 2: 200, 3: 200})
    bombs = []
    for _ in range(4):
        hand = table.start_hand()
        bombs.append(hand.bomb_pot)
        while not hand.is_over:
            table.act(hand.actor or 0, table.default_action())
    assert bombs == [False, False, True, False]
    table.call_bomb_pot()
    with pytest.raises(SeatError, match="called already"):
        table.call_bomb_pot()
    restored = type(table).restore(table.snapshot())
    assert restored.bomb_pot_called  # a called bomb pot survives a restart
    assert table.start_hand().bomb_pot and not table.bomb_pot_called
    with pytest.raises(SeatError, match="no bomb pots"):
        seated_table(nl(), {1: 100, 2: 100}).call_bomb_pot()


# -- the rabbit hunt ----------------------------------------------------------------------


def test_rabbit_hunt_shows_the_cards_to_come_and_changes_nothing() -> None:
    holes = ["Ac", "Kc", "Qc", "Ad", "Kd", "Qs"]
    board = ["2s", "2c", "7d", "9h", "3s", "Js", "4s", "3c"]  # burn, flop, burn, turn, burn, river
    config = nl(seats=3, rabbit_hunt=True)
    table = seated_table(config, {1: 100, 2: 100, 3: 100}, button=3)
    table.start_hand(ScriptedDeck(holes + board))
    play(table, (3, Action.call()), (1, Action.call()), (2, Action.check()))
    play(table, (1, Action.bet(6)), (2, Action.fold()), (3, Action.fold()))
    assert table.last_record is not None and table.last_result is not None
    stacks = {n: s.stack for n, s in table.seats.items()}
    record_before = table.last_record
    cards = table.rabbit_hunt("p2")  # a folded player may ask
    assert cards == ("Js", "3c")
    assert {n: s.stack for n, s in table.seats.items()} == stacks
    assert table.last_record.board == ("2c", "7d", "9h") and table.last_record.rabbit == cards
    assert table.last_record.events == record_before.events
    folded = {c for seat in (2, 3) for c in table.last_record.seat(seat).hole_cards}
    assert not folded & set(cards)
    with pytest.raises(SeatError, match="hunted already"):
        table.rabbit_hunt("p3")
    text = to_phh(table.last_record)
    assert '_rabbit_hunt = "Js3c"' in text and "d db Js" not in text
    assert replay_text(text, check_recorded=True) == [104, 98, 98]


def test_rabbit_hunt_is_refused_when_off_or_the_board_is_out() -> None:
    table = seated_table(nl(seats=3), {1: 100, 2: 100, 3: 100}, button=3)
    hand = table.start_hand()
    play(table, (3, Action.fold()), (1, Action.fold()))
    assert hand.is_over
    with pytest.raises(IllegalActionError, match="does not allow"):
        table.rabbit_hunt("p1")
    on = seated_table(nl(seats=3, rabbit_hunt=True), {1: 100, 2: 100, 3: 100}, button=3)
    live = on.start_hand()
    with pytest.raises(IllegalActionError, match="once the hand is over"):
        live.rabbit_cards()
    check_down(on)
    with pytest.raises(IllegalActionError, match="nothing to hunt"):
        on.rabbit_hunt("p1")


# -- every option on: chips conserved, PHH round trips ------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {"straddle": Straddle.UTG},
        {"straddle": Straddle.BUTTON},
        {"bomb_pot_ante": 4, "bomb_pot_every": 2},
        {"run_it_max": 2},
        {
            "run_it_max": 3,
            "rabbit_hunt": True,
            "straddle": Straddle.UTG,
            "bomb_pot_ante": 3,
            "bomb_pot_every": 3,
        },
    ],
    ids=["utg", "button", "bomb", "twice", "all"],
)
def test_every_option_conserves_chips_and_round_trips_through_phh(
    options: dict[str, object],
) -> None:
    config = nl(seats=6, **options)  # type: ignore[arg-type]
    rng = random.Random(11)
    table = seated_table(config, {n: 100 + 20 * n for n in range(1, 6)}, seed=5)
    for seat in table.seats.values():
        seat.straddle = True
    total = table.chips_in_play()
    kinds: set[str] = set()
    for _ in range(12):
        for seat in table.seats.values():
            if seat.stack < config.big_blind:
                table.rebuy(seat.player_id, config.min_buy_in)
                total += config.min_buy_in
                table.sit_back(seat.player_id)
        hand = table.start_hand()
        while not hand.is_over:
            if hand.runout_voters:
                voter = table.seats[hand.runout_voters[0]]
                table.vote_runouts(voter.player_id, rng.choice([config.run_it_max] * 3 + [1]))
                continue
            legal = hand.legal_actions()
            assert legal is not None
            table.act(legal.seat, random_action(legal, rng))
            assert table.chips_in_play() == total
        assert table.chips_in_play() == total
        record = table.last_record
        assert record is not None
        if config.rabbit_hunt and len(record.board) < 5:
            table.rabbit_hunt(record.seats[0].player_id)
            record = table.last_record
            assert record is not None
            kinds.add("rabbit")
        kinds |= {e.kind.value for e in record.events}
        kinds |= {"bomb"} if record.bomb_pot else set()
        text = to_phh(record)
        finishing = [s.final_stack for s in record.seats]
        assert replay_text(text, check_recorded=True) == finishing
        if parse_phh(text).runs == 1:  # pokerkit's reader runs the board once, by its rule
            assert pokerkit_finishing_stacks(text) == finishing
    if "straddle" in options:
        assert "straddle" in kinds
    if "bomb_pot_ante" in options:
        assert "bomb" in kinds
    if "run_it_max" in options:
        assert "runouts" in kinds
    if options.get("rabbit_hunt"):
        assert "rabbit" in kinds


def test_statistics_and_the_ais_public_hand_read_the_first_run_only() -> None:
    config = nl(seats=3, run_it_max=2, min_buy_in=20)
    table = seated_table(config, {1: 25, 2: 100, 3: 100}, button=3)
    table.start_hand(_twice_deck())
    play(table, (3, Action.raise_to(100)), (1, Action.call()), (2, Action.call()))
    for player in ("p1", "p2", "p3"):
        table.vote_runouts(player, 2)
    record = table.last_record
    assert record is not None and len(record.boards) == 2
    hands = player_hands(record)  # the all-in expectation from the first run's board
    assert sum(h.net for h in hands) == 0
    public = from_record_doc(record.model_dump(mode="json"))
    assert len(public.board) == 5
