"""The tournament rules with known answers: levels on a fake clock, payouts, places,
balancing, a broken table, hand-for-hand, and whole tournaments of bots."""

from __future__ import annotations

import random

import pytest

from backend.tournament import balancing, places, prizes
from backend.tournament.clock import FakeClock, LevelClock
from backend.tournament.director import Director, OrderKind, Spec, State, Status
from backend.tournament.simulate import Simulation
from backend.tournament.structures import Level, LevelsBy, Structure, preset


def _structure(**kw: object) -> Structure:
    levels = [Level(small_blind=10 * 2**i, big_blind=20 * 2**i) for i in range(4)]
    return Structure.model_validate({"starting_chips": 1000, "levels": levels, **kw})


# -- the clock ---------------------------------------------------------------------------


def test_levels_by_time_on_a_fake_clock() -> None:
    fake = FakeClock(1000.0)
    clock = LevelClock(_structure(level_seconds=60))
    clock.start(fake.now())
    assert clock.period(fake.now()).level == 0
    fake.advance(59)
    assert (clock.period(fake.now()).level, clock.period(fake.now()).seconds_left) == (0, 1)
    fake.advance(1)
    assert clock.period(fake.now()).level == 1
    clock.stop(fake.now())  # paused: no time passes for the levels
    fake.advance(3600)
    assert clock.period(fake.now()).level == 1
    clock.start(fake.now())
    fake.advance(125)
    period = clock.period(fake.now())
    assert (period.level, period.seconds_left) == (3, None)  # the last level lasts


def test_breaks_sit_between_levels() -> None:
    fake = FakeClock()
    clock = LevelClock(_structure(level_seconds=60, break_every=2, break_seconds=30))
    clock.start(0)
    fake.advance(120)  # two levels played: the break before level 3
    period = clock.period(fake.now())
    assert (period.level, period.on_break, period.seconds_left) == (2, True, 30)
    fake.advance(30)
    assert clock.period(fake.now()).on_break is False
    assert clock.period(fake.now()).level == 2


def test_levels_by_hands() -> None:
    clock = LevelClock(_structure(levels_by=LevelsBy.HANDS, level_hands=5))
    assert [clock.period(0, h).level for h in (0, 4, 5, 14, 15, 99)] == [0, 0, 1, 2, 3, 3]


def test_bad_structures_are_refused() -> None:
    with pytest.raises(ValueError, match="breaks need levels by time"):
        _structure(levels_by=LevelsBy.HANDS, break_every=2)
    with pytest.raises(ValueError, match="small blind cannot exceed"):
        Level(small_blind=30, big_blind=20)
    with pytest.raises(ValueError, match="big-blind ante needs"):
        Level(small_blind=10, big_blind=20, big_blind_ante=True)
    assert preset("deep").starting_chips == 5000


# -- prizes and places -------------------------------------------------------------------


@pytest.mark.parametrize("pool", [0, 1, 7, 100, 999, 12_345])
@pytest.mark.parametrize("name", ["winner_takes_all", "top2", "top3"])
def test_payouts_sum_to_the_pool(pool: int, name: str) -> None:
    amounts = prizes.payouts(pool, prizes.percents(name))
    assert sum(amounts) == pool
    assert amounts == sorted(amounts, reverse=True)


def test_standard_and_custom_payouts() -> None:
    shares = prizes.percents("standard", 100)
    assert len(shares) == 15 and sum(prizes.payouts(10_000, shares)) == 10_000
    assert prizes.payouts(1000, [50, 30, 20]) == [500, 300, 200]
    assert prizes.payouts(10, [1, 1, 1]) == [4, 3, 3]
    with pytest.raises(ValueError, match="lower place"):
        prizes.check_custom([30, 50])


def test_simultaneous_busts_ranked_by_starting_chips() -> None:
    # 4 left, 3 bust in one hand: the winner of the hand is 1st-to-be; they take 2nd to 4th.
    result = places.finish([("a", 200), ("b", 900), ("c", 500)], 4, [50, 30, 20])
    assert [(f.player_id, f.place, f.prize) for f in result] == [
        ("b", 2, 30),
        ("c", 3, 20),
        ("a", 4, 0),
    ]


def test_tied_busts_split_their_places_prizes() -> None:
    # 3 left, two bust with the same chips: they share 2nd and 3rd (30 + 20 = 50).
    result = places.finish([("a", 400), ("b", 400)], 3, [50, 30, 20])
    assert [(f.player_id, f.place, f.prize) for f in result] == [("a", 2, 25), ("b", 2, 25)]
    odd = places.finish([("a", 1), ("b", 1)], 3, [50, 30, 21])
    assert sorted(f.prize for f in odd) == [25, 26]


# -- balancing ---------------------------------------------------------------------------


def _tables(counts: list[int], size: int = 9) -> dict[str, balancing.TableSeats]:
    out = {}
    for i, count in enumerate(counts, 1):
        tid = f"t{i}"
        seats = {n: f"{tid}p{n}" for n in range(1, count + 1)}
        out[tid] = balancing.TableSeats(table_id=tid, size=size, seats=seats, button=1)
    return out


def test_the_player_due_the_big_blind_moves() -> None:
    # Table 1 has 9, table 2 has 7: one moves, the one due the big blind next hand.
    # Button on seat 1: next button seat 2, small blind 3, big blind 4.
    tables = _tables([9, 7])
    moves = balancing.plan(tables, "t1", random.Random(1))
    assert [(m.player_id, m.from_table, m.to_table) for m in moves] == [("t1p4", "t1", "t2")]
    assert [len(t.seats) for t in tables.values()] == [8, 8]
    assert balancing.plan(tables, "t1", random.Random(1)) == []  # within one: no move


def test_heads_up_due_big_blind() -> None:
    table = balancing.TableSeats(table_id="t", size=9, seats={2: "a", 7: "b"}, button=2)
    assert table.due_big_blind() == ["a", "b"]  # b gets the button, a the big blind


def test_three_tables_of_nine_going_to_two() -> None:
    # 27 players at 3 tables of 9; busts bring it to 18 (6 a table): 2 tables are enough.
    tables = _tables([6, 6, 6])
    assert balancing.plan(tables, "t1", random.Random(1)) == []  # t3 breaks, not t1
    moves = balancing.plan(tables, "t3", random.Random(1))
    assert len(moves) == 6 and {m.from_table for m in moves} == {"t3"}
    assert sorted(m.to_table for m in moves) == ["t1"] * 3 + ["t2"] * 3
    assert [len(t.seats) for t in tables.values()] == [9, 9, 0]
    # The broken table's players move in the order the big blind would have reached them.
    assert [m.player_id for m in moves] == ["t3p4", "t3p5", "t3p6", "t3p1", "t3p2", "t3p3"]


def test_balancing_from_the_biggest_to_the_smallest() -> None:
    tables = _tables([9, 9, 5])
    moves = balancing.plan(tables, "t1", random.Random(2))
    assert [(m.from_table, m.to_table) for m in moves] == [("t1", "t3"), ("t1", "t3")]
    assert [len(t.seats) for t in tables.values()] == [7, 9, 7]


# -- the director ------------------------------------------------------------------------


def _director(players: int, size: int, shares: list[int], seed: int = 1) -> Director:
    spec = Spec(
        name="test",
        max_players=players,
        seats_per_table=size,
        structure=preset("turbo"),
        prize_shares=shares,
    )
    director = Director(State(tournament_id="tt", spec=spec, seed=seed))
    for i in range(players):
        director.register(f"p{i}", f"P{i}", is_bot=True)
    return director


def test_registration_refusals_change_nothing() -> None:
    director = _director(2, 2, [100])
    with pytest.raises(ValueError, match="full"):
        director.register("x", "X")
    with pytest.raises(ValueError, match="already registered"):
        director.register("p0", "P0")
    with pytest.raises(ValueError, match="not registered"):
        director.unregister("nobody")
    director.start(0.0)
    with pytest.raises(ValueError, match="closed"):
        director.register("y", "Y")
    assert len(director.state.entrants) == 2


def test_a_broken_table_and_final_table() -> None:
    """18 players at 2 tables of 9. One busts at table 1 (17: 8 and 9, no move); then 8
    bust at table 2 in one hand, leaving 9: table 2 breaks, its survivor moves to the
    final table."""
    director = _director(18, 9, [50, 30, 20])
    orders = director.start(0.0)
    assert [o.kind for o in orders].count(OrderKind.OPEN) == 2
    t1, t2 = sorted(director.state.tables)
    at_t1 = list(director.state.tables[t1].seats.values())
    stacks = dict.fromkeys(at_t1, 1000) | {at_t1[0]: 0, at_t1[1]: 2000}
    director.hand_started(t1)
    orders = director.hand_finished(t1, 1.0, 1, stacks, dict.fromkeys(at_t1, 1000))
    assert [o.kind for o in orders] == [OrderKind.REMOVE] and director.state.moves == 0
    at_t2 = list(director.state.tables[t2].seats.values())
    survivor = at_t2[0]
    stacks = dict.fromkeys(at_t2[1:], 0) | {survivor: 9000}
    director.hand_started(t2)
    orders = director.hand_finished(t2, 2.0, 1, stacks, dict.fromkeys(at_t2, 1000))
    kinds = [(o.kind, o.table_id) for o in orders]
    assert kinds.count((OrderKind.REMOVE, t2)) == 9  # 8 busted, then the survivor moves
    assert (OrderKind.SEAT, t1) in kinds and (OrderKind.CLOSE, t2) in kinds
    assert director.final_table and director.state.moves == 1
    assert len(director.players_left) == 9
    # The 8 busted together started with the same chips: they share 10th to 17th.
    assert {director.state.entrants[p].place for p in at_t2[1:]} == {10}


def test_a_table_left_with_one_player_is_broken_when_another_tables_hand_ends() -> None:
    """6 players at 2 tables of 3. Table 2 busts two while table 1 is mid-hand: 4 left
    still need two tables, and table 2, alone with one player, deals no more hands.
    Table 1's hand then busts one: 3 left fit one table, so table 2 is the one to break,
    though it is not the table whose hand just ended (its player moves to table 1)."""
    director = _director(6, 3, [100])
    director.start(0.0)
    t1, t2 = sorted(director.state.tables)
    at_t1 = list(director.state.tables[t1].seats.values())
    at_t2 = list(director.state.tables[t2].seats.values())
    director.hand_started(t1)
    director.hand_started(t2)
    stacks = {at_t2[0]: 3000, at_t2[1]: 0, at_t2[2]: 0}
    orders = director.hand_finished(t2, 1.0, 1, stacks, dict.fromkeys(at_t2, 1000))
    assert {o.kind for o in orders} == {OrderKind.REMOVE}  # the busts, no move yet
    stacks = {at_t1[0]: 2000, at_t1[1]: 1000, at_t1[2]: 0}
    orders = director.hand_finished(t1, 2.0, 1, stacks, dict.fromkeys(at_t1, 1000))
    kinds = [(o.kind, o.table_id, o.player_id) for o in orders]
    assert (OrderKind.REMOVE, t2, at_t2[0]) in kinds and (OrderKind.SEAT, t1, at_t2[0]) in kinds
    assert (OrderKind.CLOSE, t2, None) in kinds
    assert list(director.state.tables) == [t1] and director.final_table
    assert sorted(director.state.tables[t1].seats.values()) == sorted([*at_t1[:2], at_t2[0]])


def test_hand_for_hand_busts_at_two_tables_are_simultaneous() -> None:
    """6 players at 2 tables of 3, 2 paid, margin 2 (hand-for-hand from 4 left): two
    busts at two tables in one round place by starting chips across the tables."""
    spec = Spec(
        name="h",
        max_players=6,
        seats_per_table=3,
        structure=preset("turbo"),
        prize_shares=[70, 30],
        hand_for_hand_margin=2,
    )
    director = Director(State(tournament_id="h", spec=spec, seed=5))
    for i in range(6):
        director.register(f"p{i}", f"P{i}")
    director.start(0.0)
    t1, t2 = sorted(director.state.tables)
    p1 = list(director.state.tables[t1].seats.values())
    p2 = list(director.state.tables[t2].seats.values())
    # Round 1, not yet hand-for-hand (6 left): one bust at each table, one at a time.
    for tid, ps in ((t1, p1), (t2, p2)):
        director.hand_started(tid)
        director.hand_finished(
            tid, 1.0, 1, {ps[0]: 0, ps[1]: 1500, ps[2]: 1500}, dict.fromkeys(ps, 1000)
        )
    assert director.hand_for_hand  # 4 left, 2 paid, margin 2
    # Round 2: both tables deal; t1 finishes first and waits (a bust with 1500).
    director.hand_started(t1)
    director.hand_started(t2)
    orders = director.hand_finished(t1, 2.0, 2, {p1[1]: 0, p1[2]: 3000}, {p1[1]: 1500, p1[2]: 1500})
    assert (OrderKind.PAUSE, t1) in [(o.kind, o.table_id) for o in orders]
    assert director.state.entrants[p1[1]].place is None  # not placed until the round ends
    orders = director.hand_finished(t2, 3.0, 2, {p2[1]: 0, p2[2]: 3000}, {p2[1]: 1200, p2[2]: 1800})
    # Both busted in one round: the one who started with more chips finishes higher.
    assert director.state.entrants[p1[1]].place == 3
    assert director.state.entrants[p2[1]].place == 4
    assert not director.hand_for_hand and not director.state.held


# -- whole tournaments -------------------------------------------------------------------


def test_sit_and_go_of_six_to_the_end() -> None:
    director = _director(6, 6, prizes.percents("top3"), seed=3)
    sim = Simulation.start(director, seed=3)
    result = sim.run()
    state = director.state
    assert state.status is Status.FINISHED
    assert sorted(e.place or 0 for e in state.entrants.values()) == [1, 2, 3, 4, 5, 6]
    assert sum(e.prize for e in state.entrants.values()) == director.pool == 600
    assert result.chips == 6 * 1500


def test_multi_table_to_the_end_with_a_restart() -> None:
    director = _director(40, 9, prizes.percents("standard", 40), seed=7)
    sim = Simulation.start(director, seed=7)
    for _ in range(40):
        sim.step()
    sim = sim.crash_and_restart()
    sim.check_chips()
    result = sim.run()
    state = sim.director.state
    assert state.status is Status.FINISHED
    assert result.moves > 0 and result.chips == 40 * 1500
    placed = sorted(e.place or 0 for e in state.entrants.values())
    assert placed[0] == 1 and len(set(placed)) >= 30  # ties may share a place
    assert sum(e.prize for e in state.entrants.values()) == director.pool


def _timed(break_every: int = 0) -> Director:
    structure = Structure(
        starting_chips=1000,
        levels=[Level(small_blind=10 * 2**i, big_blind=20 * 2**i) for i in range(4)],
        level_seconds=60,
        break_every=break_every,
        break_seconds=30,
    )
    spec = Spec(name="t", max_players=4, seats_per_table=2, structure=structure, prize_shares=[100])
    director = Director(State(tournament_id="c", spec=spec, seed=2))
    for i in range(4):
        director.register(f"p{i}", f"P{i}")
    return director


def test_the_director_raises_the_blinds_by_the_fake_clock() -> None:
    director = _timed()
    director.start(1000.0)
    t1 = sorted(director.state.tables)[0]
    ps = list(director.state.tables[t1].seats.values())
    even = dict.fromkeys(ps, 1000)
    assert director.hand_finished(t1, 1059.0, 1, even, even) == []  # level 1 still
    orders = director.hand_finished(t1, 1061.0, 1, even, even)
    assert [(o.kind, o.level and o.level.big_blind) for o in orders] == [(OrderKind.STAKES, 40)]
    assert director.level(1061.0).big_blind == 40


def test_a_synchronized_break_holds_every_table_and_releases_them_together() -> None:
    director = _timed(break_every=1)
    director.start(0.0)
    t1, t2 = sorted(director.state.tables)
    for tid in (t1, t2):
        ps = list(director.state.tables[tid].seats.values())
        even = dict.fromkeys(ps, 1000)
        orders = director.hand_finished(tid, 70.0, 1, even, even)  # 60 s played: the break
        assert (OrderKind.PAUSE, tid) in [(o.kind, o.table_id) for o in orders]
    assert director.period(70.0).on_break
    assert director.tick(80.0) == []  # still on break
    released = director.tick(91.0)
    assert sorted((o.kind, o.table_id) for o in released) == [
        (OrderKind.RESUME, t1),
        (OrderKind.RESUME, t2),
    ]
    assert not director.state.held


def test_late_registration_seats_at_the_smallest_table_then_closes() -> None:
    spec = Spec(
        name="late",
        max_players=10,
        seats_per_table=3,
        structure=_structure(level_seconds=60),
        prize_shares=[100],
        late_registration_levels=1,
    )
    director = Director(State(tournament_id="L", spec=spec, seed=4))
    for i in range(5):
        director.register(f"p{i}", f"P{i}")
    director.start(0.0)
    sizes = {tid: len(t.seats) for tid, t in director.state.tables.items()}
    assert sorted(sizes.values()) == [2, 3]
    orders = director.late_register("late1", "Late", 10.0)
    assert [o.kind for o in orders] == [OrderKind.SEAT]
    assert sizes[orders[0].table_id] == 2 and orders[0].chips == 1000
    orders = director.late_register("late2", "Later", 20.0)  # both tables full: a new one
    assert [o.kind for o in orders] == [OrderKind.OPEN, OrderKind.SEAT]
    assert director.pool == 7 * 100
    with pytest.raises(ValueError, match="closed"):
        director.late_register("late3", "Too late", 61.0)  # level 2: closed
    assert len(director.state.entrants) == 7


def test_a_start_time_is_due_once_reached_while_registering() -> None:
    spec = Spec(
        name="timed", max_players=6, structure=preset("turbo"), prize_shares=[100], start_at=500.0
    )
    director = Director(State(tournament_id="S", spec=spec))
    director.register("a", "A")
    director.register("b", "B")
    assert not director.due(499.0) and director.due(500.0)
    director.start(500.0)
    assert not director.due(600.0)  # started: nothing more is due


def test_a_tournament_table_deals_short_stacks_and_seats_sitting_out() -> None:
    from backend.tournament.tables import table_config
    from holdem.table import Table

    table = Table(
        "tt", table_config(3, Level(small_blind=10, big_blind=20)), seed=1, tournament=True
    )
    table.sit(1, "short", "Short", table.config.min_buy_in)
    table.seats[1].stack = 7  # less than the big blind: all in for what it has
    table.sit(2, "away", "Away", table.config.min_buy_in)
    table.seats[2].stack = 500
    table.sit_out("away")  # disconnected: still dealt in, blinded off
    table.sit(3, "c", "C", table.config.min_buy_in)
    table.seats[3].stack = 500
    hand = table.start_hand()
    assert sorted(hand.seats) == [1, 2, 3]
    while not hand.is_over:
        table.act(hand.actor or 0, table.default_action())  # check or fold, as a timeout
    assert table.chips_in_play() == 1007  # nothing created or lost
    assert all(not s.sitting_out or s.player_id == "away" for s in table.seats.values())


def test_a_levels_big_blind_ante_is_posted_by_the_big_blind() -> None:
    from backend.tournament.director import Order
    from backend.tournament.tables import LocalTables
    from holdem.actions import EventKind

    tables = LocalTables(seats=4, seed=3)
    tables.apply([Order(OrderKind.OPEN, "t-1", level=Level(small_blind=10, big_blind=20))])
    tables.apply(
        [
            Order(OrderKind.SEAT, "t-1", player_id=f"p{n}", name=f"P{n}", seat=n, chips=1000)
            for n in (1, 2, 3, 4)
        ]
    )
    ante_level = Level(small_blind=25, big_blind=50, ante=50, big_blind_ante=True)
    tables.apply([Order(OrderKind.STAKES, "t-1", level=ante_level)])
    table = tables.tables["t-1"]
    hand = table.start_hand()
    posted = {(e.kind, e.seat): e.amount for e in hand.events}
    big_blind = next(seat for kind, seat in posted if kind is EventKind.BIG_BLIND)
    assert big_blind is not None
    assert posted[(EventKind.BIG_BLIND, big_blind)] == 50
    assert [seat for kind, seat in posted if kind is EventKind.ANTE] == [big_blind]
    assert posted[(EventKind.ANTE, big_blind)] == 50  # one ante, for the whole table
    assert hand.total_pot == 25 + 50 + 50
    assert hand.stacks[big_blind] == 1000 - 50 - 50
    assert tables.chips() == 4000


def test_the_button_moves_on_when_the_big_blind_busts() -> None:
    """docs/tournaments.md, moving button: the button moves to the next seat with chips
    and the blinds follow it (the seat after a busted big blind may skip a blind)."""
    from backend.tournament.tables import table_config
    from holdem.actions import Action, EventKind
    from holdem.cards import ScriptedDeck
    from holdem.table import Table

    table = Table(
        "bb", table_config(4, Level(small_blind=10, big_blind=20)), seed=5, tournament=True
    )
    for n in (1, 2, 3, 4):
        table.sit(n, f"p{n}", f"P{n}", table.config.min_buy_in)
        table.seats[n].stack = 20 if n == 3 else 1000
    table.button = 4  # the next hand's button: seat 1, the small blind 2, the big blind 3
    # Dealt from the small blind round: 2, 3, 4, 1. Seat 4's aces beat seat 3's 7-2 on a
    # board that cannot help it.
    hole = ["2c", "7d", "As", "3h", "4c", "2d", "Ad", "5h"]
    board = ["Kc", "Kh", "Qs", "Js", "9c", "8h", "Ks", "Qc", "Jh"]
    hand = table.start_hand(ScriptedDeck(hole + board))
    blinds = {e.kind: e.seat for e in hand.events if e.kind is not EventKind.ANTE}
    assert (hand.button, blinds[EventKind.SMALL_BLIND], blinds[EventKind.BIG_BLIND]) == (1, 2, 3)
    assert hand.is_all_in(3)
    table.act(4, Action.call())
    table.act(1, Action.fold())
    table.act(2, Action.fold())
    while not hand.is_over:
        table.act(hand.actor or 0, Action.check())
    assert table.seats[3].stack == 0  # the big blind busted
    following = table.start_hand()
    blinds = {e.kind: e.seat for e in following.events if e.kind is not EventKind.ANTE}
    # The button moves one seat to 2; the small blind skips the busted seat 3 to 4; the
    # big blind is seat 1 (which was the button: it pays no small blind this round).
    assert following.button == 2
    assert (blinds[EventKind.SMALL_BLIND], blinds[EventKind.BIG_BLIND]) == (4, 1)
    assert sorted(following.seats) == [1, 2, 4]
    assert table.chips_in_play() == 3020
