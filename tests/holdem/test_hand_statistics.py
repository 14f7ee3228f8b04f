"""Player statistics on hand-made hands with known answers (holdem.stats), and the
all-in equity they rest on (holdem.showdown_equity)."""

from __future__ import annotations

import random
from collections.abc import Mapping

import pokerkit as pk
import pytest
from holdem_testlib import deck, nl, play

from holdem.actions import Action
from holdem.cards import FULL_DECK
from holdem.config import TableConfig
from holdem.hand import Hand
from holdem.history import HandRecord, SeatRecord
from holdem.showdown_equity import equities, rank_hand
from holdem.stats import PlayerHand, StatCounts, player_hands, ratios

FOLD, CHECK, CALL = Action.fold(), Action.check(), Action.call()


def record_of(hand: Hand, config: TableConfig, hand_no: int = 1) -> HandRecord:
    result = hand.result
    assert result is not None
    return HandRecord(
        table_id="t1",
        hand_no=hand_no,
        config=config,
        button=hand.button,
        seats=[
            SeatRecord(
                seat=s,
                player_id=f"p{s}",
                name=f"P{s}",
                starting_stack=hand.starting_stacks[s],
                final_stack=result.final_stacks[s],
                hole_cards=hand.hole_cards[s],
            )
            for s in hand.seats
        ],
        events=list(hand.events),
        board=tuple(hand.board),
    )


def by_seat(record: HandRecord) -> dict[int, PlayerHand]:
    return {p.seat: p for p in player_hands(record)}


def counts(p: PlayerHand, *names: str) -> dict[str, float]:
    values = p.counts.as_dict()
    return {n: values[n] for n in names}


def three_handed(holes: Mapping[int, str], board: str = "", stacks: int = 200) -> Hand:
    # Button 3: seat 1 posts the small blind, 2 the big, 3 acts first.
    return Hand(nl(seats=3), dict.fromkeys((1, 2, 3), stacks), 3, deck([1, 2, 3], holes, board))


HOLES3 = {1: "2c3d", 2: "4h5s", 3: "7c8d"}


def test_a_walk_is_a_hand_but_no_preflop_decision_for_the_big_blind() -> None:
    hand = three_handed(HOLES3)
    play(hand, (3, FOLD), (1, FOLD))
    seats = by_seat(record_of(hand, nl(seats=3)))
    big = seats[2]
    assert counts(big, "hands", "preflop_decisions", "vpip") == {
        "hands": 1,
        "preflop_decisions": 0,
        "vpip": 0,
    }
    assert big.net == 1 and big.counts.won_no_showdown == 1 and not big.showdown
    assert ratios(big.counts)["vpip"] is None  # no chance yet: not 0%
    assert counts(seats[1], "preflop_decisions", "vpip", "won") == {
        "preflop_decisions": 1,
        "vpip": 0,
        "won": -1,
    }
    assert big.counts.won_bb == big.counts.won_no_showdown_bb == 0.5


def test_open_three_bet_and_fold_to_it() -> None:
    hand = three_handed(HOLES3)
    play(hand, (3, Action.raise_to(6)), (1, Action.raise_to(18)), (2, FOLD), (3, FOLD))
    seats = by_seat(record_of(hand, nl(seats=3)))
    opener, three_bettor, big = seats[3], seats[1], seats[2]
    assert counts(
        opener,
        "vpip",
        "pfr",
        "three_bet_chances",
        "fold_to_three_bet_chances",
        "folds_to_three_bet",
    ) == {
        "vpip": 1,
        "pfr": 1,
        "three_bet_chances": 0,
        "fold_to_three_bet_chances": 1,
        "folds_to_three_bet": 1,
    }
    assert counts(three_bettor, "vpip", "pfr", "three_bet_chances", "three_bets") == {
        "vpip": 1,
        "pfr": 1,
        "three_bet_chances": 1,
        "three_bets": 1,
    }
    # The big blind faced a 3-bet, not a single raise: no 3-bet chance.
    assert counts(big, "vpip", "three_bet_chances") == {"vpip": 0, "three_bet_chances": 0}
    assert three_bettor.net == 6 + 2


def test_cbet_fold_to_cbet_and_aggression() -> None:
    hand = three_handed(HOLES3, board="KsQh2d")
    play(hand, (3, Action.raise_to(6)), (1, FOLD), (2, CALL))
    play(hand, (2, CHECK), (3, Action.bet(8)), (2, FOLD))
    seats = by_seat(record_of(hand, nl(seats=3)))
    raiser, caller = seats[3], seats[2]
    assert counts(raiser, "cbet_chances", "cbets", "postflop_aggressive", "saw_flop") == {
        "cbet_chances": 1,
        "cbets": 1,
        "postflop_aggressive": 1,
        "saw_flop": 1,
    }
    assert counts(
        caller,
        "fold_to_cbet_chances",
        "folds_to_cbet",
        "postflop_folds",
        "saw_flop",
        "showdowns",
        "cbet_chances",
    ) == {
        "fold_to_cbet_chances": 1,
        "folds_to_cbet": 1,
        "postflop_folds": 1,
        "saw_flop": 1,
        "showdowns": 0,
        "cbet_chances": 0,
    }
    r = ratios(caller.counts)
    assert r["aggression_frequency"] == 0.0 and r["aggression_factor"] is None
    assert r["wtsd"] == 0.0 and r["fold_to_cbet"] == 1.0
    assert counts(seats[1], "saw_flop") == {"saw_flop": 0}


def test_checked_down_showdown_counts_wtsd_and_wsd_and_the_showdown_line() -> None:
    hand = three_handed(HOLES3, board="KsQh9dJc2h")  # 7c8d: nothing; 4h5s: nothing; 2c3d: pair
    play(hand, (3, CALL), (1, CALL), (2, CHECK))
    for _ in range(3):
        play(hand, (1, CHECK), (2, CHECK), (3, CHECK))
    seats = by_seat(record_of(hand, nl(seats=3)))
    assert all(p.showdown for p in seats.values())
    assert counts(seats[1], "showdowns", "showdowns_won", "won_showdown", "won_no_showdown") == {
        "showdowns": 1,
        "showdowns_won": 1,
        "won_showdown": 4,
        "won_no_showdown": 0,
    }
    assert counts(seats[3], "showdowns", "showdowns_won", "won_showdown", "won_showdown_bb") == {
        "showdowns": 1,
        "showdowns_won": 0,
        "won_showdown": -2,
        "won_showdown_bb": -1.0,
    }
    assert ratios(seats[1].counts)["wsd"] == 1.0
    assert counts(seats[2], "vpip", "preflop_decisions") == {"vpip": 0, "preflop_decisions": 1}
    # Checked down: no all-in, so the expectation is the result.
    assert seats[1].allin_ev == 4.0


def test_allin_on_the_turn_gives_the_exact_equity_of_that_moment() -> None:
    config = nl(seats=2)
    # Heads-up, button 1 posts the small blind; the river Ac wins it for the aces.
    holes = {1: "AhAd", 2: "KcKd"}
    hand = Hand(config, {1: 100, 2: 100}, 1, deck([2, 1], holes, "Ks7h2c3dAc"))
    play(hand, (1, CALL), (2, CHECK))
    play(hand, (2, CHECK), (1, CHECK))  # flop
    play(hand, (2, Action.bet(98)), (1, CALL))  # turn: all in
    seats = by_seat(record_of(hand, config))
    aces, kings = seats[1], seats[2]
    assert aces.net == 100 and kings.net == -100
    pot = 200
    assert aces.allin_ev == pytest.approx(2 / 44 * pot - 100)
    assert kings.allin_ev == pytest.approx(42 / 44 * pot - 100)
    assert aces.counts.allin_ev_bb == pytest.approx((2 / 44 * pot - 100) / 2)
    assert ratios(kings.counts)["allin_ev_bb_per_100"] == pytest.approx(
        100 * (42 / 44 * pot - 100) / 2
    )


def test_a_side_pot_shares_equity_only_among_those_in_it() -> None:
    config = nl(seats=3)
    holes = {1: "AhAd", 2: "KcKd", 3: "QcQd"}
    stacks = {1: 50, 2: 200, 3: 200}
    hand = Hand(config, stacks, 3, deck([1, 2, 3], holes, "Ks7h2c3d4s"))
    play(hand, (3, CALL), (1, CALL), (2, CHECK))
    play(hand, (1, CHECK), (2, CHECK), (3, CHECK))  # flop
    play(hand, (1, Action.bet(48)), (2, Action.raise_to(198)), (3, CALL))  # turn: all in
    seats = by_seat(record_of(hand, config))
    # The river, enumerated here with pokerkit's own ranking: the main pot is everyone's,
    # the side pot only the kings' and the queens'.
    main, side = 3 * 50, 2 * 150
    live = [
        c
        for c in FULL_DECK
        if c not in {"Ah", "Ad", "Kc", "Kd", "Qc", "Qd", "Ks", "7h", "2c", "3d"}
    ]
    expected = {1: 0.0, 2: 0.0, 3: 0.0}
    for river in live:
        board = ["Ks", "7h", "2c", "3d", river]
        best = {s: pk.StandardHighHand.from_game(holes[s], "".join(board)) for s in (1, 2, 3)}
        top = max(best.values())
        winners = [s for s in (1, 2, 3) if best[s] == top]
        for s in winners:
            expected[s] += main / len(winners) / len(live)
        top_side = max(best[2], best[3])
        side_winners = [s for s in (2, 3) if best[s] == top_side]
        for s in side_winners:
            expected[s] += side / len(side_winners) / len(live)
    assert seats[1].allin_ev == pytest.approx(expected[1] - 50)
    assert seats[2].allin_ev == pytest.approx(expected[2] - 200)
    assert seats[3].allin_ev == pytest.approx(expected[3] - 200)


def test_allin_preflop_by_the_blind_and_the_sampled_equity() -> None:
    config = nl(seats=3)
    holes = {1: "2c3d", 2: "AhAs", 3: "KdKc"}
    # The big blind (seat 2) is all in with its blind and never acts.
    hand = Hand(config, {1: 200, 2: 2, 3: 200}, 3, deck([1, 2, 3], holes, "9h8h4c3s2d"))
    play(hand, (3, CALL), (1, FOLD))
    seats = by_seat(record_of(hand, config))
    big = seats[2]
    assert counts(big, "preflop_decisions", "vpip", "saw_flop", "showdowns") == {
        "preflop_decisions": 0,
        "vpip": 0,
        "saw_flop": 1,
        "showdowns": 1,
    }
    assert big.net == 3 and seats[3].net == -2
    # AA against KK preflop is 81.9% (sampled: within 5% of the pot); pot 5, each put in 2.
    assert big.allin_ev == pytest.approx(0.819 * 5 - 2, abs=0.25)
    assert seats[3].allin_ev == pytest.approx(0.181 * 5 - 2, abs=0.25)
    assert big.allin_ev + seats[3].allin_ev + seats[1].allin_ev == pytest.approx(0)
    assert seats[1].allin_ev == -1.0  # folded: the small blind is lost, no expectation


def test_a_player_who_posts_and_is_sat_out_folds_without_putting_money_in() -> None:
    # The table folds for a seat sitting out: a preflop decision, no VPIP, the blind lost.
    hand = three_handed(HOLES3)
    play(hand, (3, CALL), (1, FOLD), (2, CHECK))
    play(hand, (2, CHECK), (3, CHECK), (2, CHECK), (3, CHECK), (2, CHECK), (3, CHECK))
    seats = by_seat(record_of(hand, nl(seats=3)))
    assert counts(
        seats[1], "hands", "preflop_decisions", "vpip", "pfr", "saw_flop", "won", "won_no_showdown"
    ) == {
        "hands": 1,
        "preflop_decisions": 1,
        "vpip": 0,
        "pfr": 0,
        "saw_flop": 0,
        "won": -1,
        "won_no_showdown": -1,
    }


def test_counts_add_up_and_never_read_unshown_hole_cards() -> None:
    hand = three_handed(HOLES3)
    play(hand, (3, FOLD), (1, FOLD))
    record = record_of(hand, nl(seats=3))
    # Other hole cards in the record change nothing: only public events count.
    changed = record.model_copy(
        update={"seats": [s.model_copy(update={"hole_cards": ("As", "Ks")}) for s in record.seats]}
    )
    assert player_hands(changed) == player_hands(record)
    total = sum((p.counts for p in player_hands(record)), StatCounts())
    assert total.hands == 3 and total.won == 0
    assert StatCounts.from_mapping(total.as_dict() | {"_id": "x"}) == total


def test_rank_hand_orders_hands_as_pokerkit_does() -> None:
    rng = random.Random(14)
    for _ in range(1500):
        cards = rng.sample(FULL_DECK, 9)
        board = cards[4:]
        ours = rank_hand(cards[:2] + board), rank_hand(cards[2:4] + board)
        theirs = (
            pk.StandardHighHand.from_game("".join(cards[:2]), "".join(board)),
            pk.StandardHighHand.from_game("".join(cards[2:4]), "".join(board)),
        )
        assert (ours[0] > ours[1]) == (theirs[0] > theirs[1]), cards
        assert (ours[0] == ours[1]) == (theirs[0] == theirs[1]), cards


def test_equities_split_ties_and_sum_to_one() -> None:
    shares = equities([("Ah", "Kd"), ("As", "Kc")], ("2c", "7d", "9h", "Js"))
    assert shares == pytest.approx([0.5, 0.5])
