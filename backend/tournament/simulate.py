"""A whole tournament of bots on in-memory tables: the director's rules end to end, fast.

Every table able to deal plays one hand per round; the round's hands are all started
before any is finished, as tables running side by side would be, so hand-for-hand and
busts at several tables are exercised. The fake clock moves `seconds_per_round` a round.
A simple seeded bot (push or fold short, value bets deep) plays: the point is the
director, not the poker. Chips are counted after every round.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from backend.tournament.clock import FakeClock
from backend.tournament.director import Director, Order, State, Status
from backend.tournament.tables import LocalTables
from holdem.actions import Action
from holdem.cards import RANKS
from holdem.hand import Hand
from holdem.table import Table, TableSnapshot


@dataclass(frozen=True, slots=True)
class SimResult:
    hands: int
    rounds: int
    moves: int
    seconds: float
    max_tables: int
    chips: int  # every chip at the tables at the end: entrants x starting chips
    hand_for_hand_rounds: int


def _strength(cards: tuple[str, ...]) -> float:
    """0..1, a crude preflop rank: pairs, high cards, suited."""
    a, b = sorted((RANKS.index(c[0]) for c in cards), reverse=True)
    score = (a + b) / 24 + (0.5 if a == b else 0.0) + (0.06 if cards[0][1] == cards[1][1] else 0)
    return min(1.0, score / 1.5)


def bot_action(hand: Hand, rng: random.Random) -> Action:
    legal = hand.legal_actions()
    assert legal is not None and hand.actor is not None
    big_blind = hand.config.big_blind
    strength = _strength(hand.hole_cards[hand.actor])
    short = legal.stack + legal.committed < 12 * big_blind
    shove = legal.max_to is not None and (strength > 0.72 or (short and strength > 0.55))
    if shove and rng.random() < 0.9:
        assert legal.max_to is not None and legal.raise_kind is not None
        return Action(kind=legal.raise_kind, amount=legal.max_to)
    if legal.can_check:
        return Action.check()
    if legal.call_amount <= big_blind or (strength > 0.62 and rng.random() < 0.8):
        return Action.call()
    return Action.fold()


class Simulation:
    def __init__(self, director: Director, tables: LocalTables, seed: int = 0) -> None:
        self.director = director
        self.tables = tables
        self.rng = random.Random(seed)
        self.clock = FakeClock(director.state.started_at or 0.0)
        self.hands = 0
        self.rounds = 0
        self.hfh_rounds = 0
        self.max_tables = len(tables.tables)

    @classmethod
    def start(cls, director: Director, seed: int = 0) -> Simulation:
        tables = LocalTables(director.state.spec.seats_per_table, seed)
        sim = cls(director, tables, seed)
        tables.apply(director.start(sim.clock.now()))
        sim.max_tables = len(tables.tables)
        return sim

    @property
    def entrant_chips(self) -> int:
        """Every chip bought: the entries, the rebuys and the add-ons."""
        s = self.director.state
        bought = s.spec.structure.starting_chips * len(s.entrants)
        return bought + s.rebuys * self.director.rebuy_chips + s.add_ons * s.spec.add_on

    def check_chips(self) -> None:
        counted = self.tables.chips()
        if counted != self.entrant_chips:
            raise AssertionError(f"chips: {counted} at the tables, {self.entrant_chips} bought")

    def step(self, seconds_per_round: float = 20.0) -> bool:
        """One round; False once the tournament is over (or nothing can deal)."""
        d, tables = self.director, self.tables
        if d.state.status is not Status.RUNNING:
            return False
        self.clock.advance(seconds_per_round)
        tables.apply(d.tick(self.clock.now()))
        dealing = [tid for tid in tables.tables if tables.may_deal(tid)]
        if not dealing:
            if not d.period(self.clock.now()).on_break:
                raise AssertionError("no table can deal and no break holds them")
            return True
        if d.hand_for_hand:
            self.hfh_rounds += 1
        for tid in dealing:
            tables.between_hands(tid)
            tables.tables[tid].start_hand()
            d.hand_started(tid)
        for tid in dealing:
            self._play(tables.tables[tid])
            tables.apply(self._report(tid))
            self.hands += 1
        self.rounds += 1
        self.check_chips()
        return True

    def _play(self, table: Table) -> None:
        hand = table.hand
        assert hand is not None
        while not hand.is_over:
            assert hand.actor is not None
            table.act(hand.actor, bot_action(hand, self.rng))

    def _report(self, table_id: str) -> list[Order]:
        table = self.tables.tables[table_id]
        record = table.last_record
        assert record is not None
        starting = {s.player_id: s.starting_stack for s in record.seats}
        stacks = {s.player_id: s.stack for s in table.seats.values()}
        return self.director.hand_finished(
            table_id, self.clock.now(), table.button, stacks, starting
        )

    def run(self, max_rounds: int = 100_000) -> SimResult:
        began = time.perf_counter()
        while self.rounds < max_rounds and self.step():
            self.max_tables = max(self.max_tables, len(self.director.state.tables))
        return SimResult(
            hands=self.hands,
            rounds=self.rounds,
            moves=self.director.state.moves,
            seconds=time.perf_counter() - began,
            max_tables=self.max_tables,
            chips=self.tables.chips(),
            hand_for_hand_rounds=self.hfh_rounds,
        )

    # -- a crash and a restart ---------------------------------------------------------

    def crash_and_restart(self) -> Simulation:
        """What survives a crash: the director's stored state and each table's snapshot
        (a hand in progress voided); both brought back, the tables resynced."""
        state_json = self.director.state.model_dump_json()
        snapshots: dict[str, TableSnapshot] = {
            tid: t.snapshot() for tid, t in self.tables.tables.items()
        }
        director = Director(State.model_validate_json(state_json))
        director.restarted(self.clock.now())
        tables = LocalTables(self.tables.seats, self.tables.seed)
        tables.tables = {tid: Table.restore(snap) for tid, snap in snapshots.items()}
        tables.held = set(director.state.held)
        tables.closed = {tid for tid in tables.tables if tid not in director.state.tables}
        for tid, table in tables.tables.items():
            tables.apply(director.resync(tid, {s.player_id: s.stack for s in table.seats.values()}))
        sim = Simulation(director, tables, self.rng.randrange(1 << 30))
        sim.clock = FakeClock(self.clock.now())
        sim.hands, sim.rounds, sim.max_tables = self.hands, self.rounds, self.max_tables
        return sim
