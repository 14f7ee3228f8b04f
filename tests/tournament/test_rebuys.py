"""Rebuys and the add-on on a fake clock: the period, who may rebuy, the add-on once, a
busted player who rebuys (or is out once the period ends, in bust order), the pool that
grows with each, payouts that still sum to it, and a whole tournament with every chip
counted."""

from __future__ import annotations

import random

import pytest

from backend.tournament import prizes
from backend.tournament.director import (
    Director,
    Order,
    OrderKind,
    Spec,
    State,
    Status,
    TournamentError,
)
from backend.tournament.service import results
from backend.tournament.simulate import Simulation
from backend.tournament.structures import Level, Structure

START = 1000


def _spec(players: int = 4, seats: int = 4, **kw: object) -> Spec:
    structure = Structure(
        starting_chips=START,
        levels=[Level(small_blind=10 * 2**i, big_blind=20 * 2**i) for i in range(5)],
        level_seconds=60,
    )
    rules: dict[str, object] = {"rebuy_levels": 2, "add_on": 1500, **kw}
    return Spec.model_validate(
        {
            "name": "rebuy",
            "max_players": players,
            "seats_per_table": seats,
            "buy_in": 100,
            "structure": structure,
            "prize_shares": [65, 35],
            **rules,
        }
    )


def _started(spec: Spec | None = None) -> Director:
    spec = spec or _spec()
    director = Director(State(tournament_id="R", spec=spec, seed=5))
    for i in range(spec.max_players):
        director.register(f"p{i}", f"P{i}")
    director.start(0.0)
    return director


def _table(director: Director) -> str:
    (table_id,) = director.state.tables
    return table_id


def _hand(director: Director, now: float, stacks: dict[str, int]) -> list[Order]:
    """One hand at the only table: the stacks given, the others unchanged."""
    tid = _table(director)
    seated = list(director.state.tables[tid].seats.values())
    before = {p: director.state.entrants[p].chips for p in seated}
    director.hand_started(tid)
    return director.hand_finished(tid, now, 1, {**before, **stacks}, before)


def test_the_spec_refuses_a_rebuy_period_that_never_ends() -> None:
    with pytest.raises(ValueError, match="before the last level"):
        _spec(rebuy_levels=5)
    with pytest.raises(ValueError, match="need a rebuy period"):
        _spec(rebuy_levels=0)  # an add-on of 1500 without a period


def test_a_rebuy_at_the_starting_stack_adds_chips_and_grows_the_pool() -> None:
    director = _started()
    assert director.pool == 400
    orders = director.rebuy("p0", 10.0)
    assert [(o.kind, o.player_id, o.chips) for o in orders] == [(OrderKind.ADD, "p0", START)]
    assert director.state.entrants["p0"].chips == 2 * START
    assert director.pool == 500 and sum(director.prizes) == 500
    with pytest.raises(TournamentError, match="at or below the starting 1000"):
        director.rebuy("p0", 11.0)  # 2000 chips now
    with pytest.raises(TournamentError, match="not registered"):
        director.rebuy("nobody", 11.0)
    assert director.state.rebuys == 1 and director.pool == 500  # the refusals changed nothing


def test_rebuys_close_with_the_period_and_a_freezeout_has_none() -> None:
    director = _started()
    assert director.rebuy_open(119.0) and not director.rebuy_open(120.0)  # level 3
    with pytest.raises(TournamentError, match="rebuy period is over"):
        director.rebuy("p1", 120.0)
    frozen = _started(_spec(rebuy_levels=0, add_on=0))
    with pytest.raises(TournamentError, match="no rebuys"):
        frozen.rebuy("p1", 1.0)
    with pytest.raises(TournamentError, match="no add-on"):
        frozen.add_on("p1", 1.0)
    capped = _started(_spec(max_rebuys=1))
    capped.rebuy("p2", 1.0)
    _hand(capped, 2.0, {"p2": 900})
    with pytest.raises(TournamentError, match="no rebuys left"):
        capped.rebuy("p2", 3.0)


def test_the_add_on_once_in_the_last_level_of_the_period() -> None:
    director = _started()
    with pytest.raises(TournamentError, match="opens in level 2"):
        director.add_on("p0", 30.0)
    orders = director.add_on("p0", 70.0)
    assert [(o.kind, o.chips) for o in orders] == [(OrderKind.ADD, 1500)]
    with pytest.raises(TournamentError, match="one add-on"):
        director.add_on("p0", 80.0)
    with pytest.raises(TournamentError, match="add-on is over"):
        director.add_on("p1", 125.0)
    assert director.pool == 500 and director.state.entrants["p0"].chips == START + 1500


def test_the_add_on_window_includes_the_break_after_the_period() -> None:
    structure = Structure(
        starting_chips=START,
        levels=[Level(small_blind=10 * 2**i, big_blind=20 * 2**i) for i in range(5)],
        level_seconds=60,
        break_every=2,
        break_seconds=30,
    )
    director = _started(_spec().model_copy(update={"structure": structure}))
    assert director.period(130.0).on_break and director.add_on_open(130.0)
    director.rebuy("p3", 130.0)  # rebuys too, on the break
    assert not director.rebuy_open(151.0)


def test_chips_bought_during_a_hand_are_added_when_it_ends() -> None:
    director = _started()
    tid = _table(director)
    seated = list(director.state.tables[tid].seats.values())
    even = dict.fromkeys(seated, START)
    director.hand_started(tid)
    assert director.rebuy("p0", 5.0) == []  # owed: the table is in a hand
    assert director.state.entrants["p0"].owed == START
    # p0 loses every chip in that hand: not busted, the rebuy keeps them in.
    stacks = {**even, "p0": 0, "p1": 2 * START}
    orders = director.hand_finished(tid, 6.0, 1, stacks, even)
    assert [(o.kind, o.player_id, o.chips) for o in orders] == [(OrderKind.ADD, "p0", START)]
    entrant = director.state.entrants["p0"]
    assert (entrant.chips, entrant.owed, entrant.table_id) == (START, 0, tid)


def test_a_busted_player_rebuys_and_is_seated_again() -> None:
    director = _started()
    orders = _hand(director, 10.0, {"p0": 0, "p1": 2 * START})
    assert [(o.kind, o.player_id) for o in orders] == [(OrderKind.REMOVE, "p0")]
    p0 = director.state.entrants["p0"]
    assert p0.awaiting_rebuy and p0.place is None and not director.state.eliminations
    assert len(director.players_left) == 4
    with pytest.raises(TournamentError, match="rebuy first"):
        director.add_on("p0", 70.0)
    orders = director.rebuy("p0", 20.0)
    assert [(o.kind, o.player_id, o.chips) for o in orders] == [(OrderKind.SEAT, "p0", START)]
    assert not p0.awaiting_rebuy and p0.table_id == _table(director)
    assert not director.state.rebuy_busts


def test_busts_in_the_period_are_placed_once_it_ends_in_bust_order() -> None:
    director = _started(_spec(players=5, seats=5, prize_shares=[65, 35]))
    _hand(director, 10.0, {"p0": 0, "p1": 2 * START})  # p0 busts first
    _hand(director, 20.0, {"p2": 0, "p3": 0, "p4": 3 * START})  # p2, p3 together
    director.rebuy("p3", 30.0)  # p3 comes back
    assert [e.place for e in director.state.entrants.values()] == [None] * 5
    assert director.tick(119.0) == []  # the period lasts
    director.tick(121.0)  # over: the two who did not rebuy are out
    places = {p: e.place for p, e in director.state.entrants.items() if e.place}
    assert places == {"p0": 5, "p2": 4}
    assert director.pool == 600 and director.prizes == [390, 210]
    assert director.state.status is Status.RUNNING


def test_busts_in_the_period_are_out_when_nobody_could_play_on() -> None:
    director = _started(_spec(players=2, seats=2))
    _hand(director, 10.0, {"p0": 0})  # heads-up: the one left cannot play alone
    assert director.state.status is Status.FINISHED
    assert {p: e.place for p, e in director.state.entrants.items()} == {"p0": 2, "p1": 1}


def test_a_rebuy_tournament_to_the_end_with_a_restart_counts_every_chip() -> None:
    spec = _spec(players=12, seats=6, prize_shares=prizes.percents("top3"), max_rebuys=3)
    steep = [Level(small_blind=10 * 3**i, big_blind=20 * 3**i) for i in range(8)]
    structure = spec.structure.model_copy(update={"levels": steep})
    spec = spec.model_copy(update={"structure": structure})  # the bots finish sooner
    director = Director(State(tournament_id="S", spec=spec, seed=11))
    for i in range(spec.max_players):
        director.register(f"p{i}", f"P{i}")
    sim = Simulation.start(director, seed=11)
    buyers = random.Random(11)
    for round_no in range(200):
        if not sim.step(seconds_per_round=6.0):
            break
        if round_no == 12:
            sim = sim.crash_and_restart()
            sim.check_chips()
        now = sim.clock.now()
        d = sim.director
        for player_id in list(d.state.entrants):
            if d.rebuy_refusal(player_id, now) is None and buyers.random() < 0.7:
                sim.tables.apply(d.rebuy(player_id, now))
            if d.add_on_refusal(player_id, now) is None and buyers.random() < 0.5:
                sim.tables.apply(d.add_on(player_id, now))
        sim.check_chips()  # every chip: entries, rebuys and add-ons
    result = sim.run()
    state = sim.director.state
    assert state.status is Status.FINISHED
    assert state.rebuys > 0 and state.add_ons > 0
    assert sim.director.pool == 100 * (12 + state.rebuys + state.add_ons)
    assert sum(e.prize for e in state.entrants.values()) == sim.director.pool
    assert sorted(e.place or 0 for e in state.entrants.values())[0] == 1
    assert all(e.place is not None for e in state.entrants.values())
    assert result.chips == sim.entrant_chips
    # Each player's result counts all they paid (entry, rebuys, add-on): ROI on that.
    assert sum(r["buy_in"] for r in results(sim.director)) == sim.director.pool


def test_a_rebuy_owed_during_a_hand_survives_a_restart() -> None:
    director = _started()
    tid = _table(director)
    director.hand_started(tid)
    director.rebuy("p1", 5.0)  # owed until the hand ends; then the server dies
    stored = State.model_validate_json(director.state.model_dump_json())
    again = Director(stored)
    again.restarted(50.0)
    assert again.pool == 500 and again.state.entrants["p1"].owed == START
    # The table comes back with the hand voided: every stack as it began.
    seated = list(stored.tables[tid].seats.values())
    orders = again.resync(tid, dict.fromkeys(seated, START))
    assert [(o.kind, o.player_id, o.chips) for o in orders] == [(OrderKind.ADD, "p1", START)]
    assert again.state.entrants["p1"].chips == 2 * START and not again.state.busy
    assert again.rebuy_refusal("p1", 51.0) is not None  # 2000 chips: above the start
