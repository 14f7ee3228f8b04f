"""One director per tournament on a cluster: its lease, and its writes fenced.

On the real embedded database; time is a clock the test moves (the leases read it).
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime, timedelta

import pytest
from pymongo import AsyncMongoClient
from pymongo.asynchronous.database import AsyncDatabase

from backend.ai_gateway import AIGateway
from backend.cluster.fencing import StaleOwner, stamp
from backend.cluster.keeper import LeaseKeeper
from backend.cluster.leases import Leases
from backend.cluster.tournaments import LEASES, order_doc, order_from
from backend.db.codec import Document, config_to_doc, hand_id, snapshot_to_doc
from backend.db.repositories import Repositories
from backend.realtime import host_commands
from backend.realtime.manager import TableManager
from backend.realtime.runtime import TableRuntime
from backend.schemas import TableOptions
from backend.settings import Settings
from backend.tournament.director import Director, Order, OrderKind, Spec, State
from backend.tournament.service import NotDirector, TournamentService
from backend.tournament.store import TournamentStore
from backend.tournament.structures import Level, LevelsBy, Structure
from backend.tournament.tables import table_config
from holdem.table import Table


class Clock:
    def __init__(self) -> None:
        self.at = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.at

    def advance(self, seconds: float) -> None:
        self.at += timedelta(seconds=seconds)


@pytest.fixture
async def db(mongo_url: str) -> AsyncIterator[AsyncDatabase[Document]]:
    client: AsyncMongoClient[Document] = AsyncMongoClient(mongo_url, tz_aware=True)
    name = "tl" + uuid.uuid4().hex[:12]
    yield client[name]
    await client.drop_database(name)
    await client.close()


@pytest.fixture
def store(db: AsyncDatabase[Document]) -> TournamentStore:
    return TournamentStore(db)


@pytest.fixture
async def repos(db: AsyncDatabase[Document]) -> AsyncIterator[Repositories]:
    repos = Repositories.of(db)
    yield repos
    await repos.writer.close()


@pytest.fixture
async def tables(
    repos: Repositories, make_settings: Callable[..., Settings]
) -> AsyncIterator[TableManager]:
    tables = TableManager(make_settings(), repos, AIGateway("secret", 16))
    yield tables
    await tables.close()


@pytest.fixture
async def service(store: TournamentStore, tables: TableManager) -> AsyncIterator[TournamentService]:
    """A node's tournament service over its own table manager, closed after the test."""
    service = TournamentService(store, tables)
    yield service
    await service.close()


LEVELS = [Level(small_blind=10, big_blind=20), Level(small_blind=20, big_blind=40)]


def _state(
    tournament_id: str, players: int = 0, seats: int = 2, by: LevelsBy = LevelsBy.TIME
) -> State:
    structure = Structure(
        starting_chips=1000, levels=LEVELS, levels_by=by, level_seconds=60, level_hands=4
    )
    spec = Spec(
        name="t",
        max_players=max(4, players),
        seats_per_table=seats,
        structure=structure,
        prize_shares=[100],
    )
    director = Director(State(tournament_id=tournament_id, spec=spec, seed=1))
    for i in range(players):
        director.register(f"p{i}", f"P{i}")
    return director.state


async def test_a_stale_directors_write_to_its_tournament_is_refused(
    db: AsyncDatabase[Document], store: TournamentStore
) -> None:
    clock = Clock()
    a = Leases(db, "a", ttl=10, clock=clock, collection=LEASES)
    b = Leases(db, "b", ttl=10, clock=clock, collection=LEASES)
    old = await a.acquire("T1")
    assert old is not None and await b.acquire("T1") is None  # one director at a time
    await store.save(_state("T1", players=1), old.token)
    clock.advance(11)  # a paused past its lease: b takes the director over
    new = await b.acquire("T1")
    assert new is not None and new.token > old.token
    assert await stamp(db, "tournaments", "T1", new.token)
    with pytest.raises(StaleOwner):  # a's late write (it thinks 3 registered)
        await store.save(_state("T1", players=3), old.token)
    stored = await store.one("T1")
    assert stored is not None and list(stored.entrants) == ["p0"]
    await store.save(_state("T1", players=2), new.token)
    stored = await store.one("T1")
    assert stored is not None and len(stored.entrants) == 2
    assert await store.unfinished() == ["T1"]


async def test_a_director_whose_write_is_refused_stops_directing(
    db: AsyncDatabase[Document], store: TournamentStore, service: TournamentService
) -> None:
    clock = Clock()
    lost: list[str] = []
    keeper = LeaseKeeper(Leases(db, "a", ttl=10, clock=clock, collection=LEASES), lost.append)
    lease = await keeper.take("T2")
    assert lease is not None
    await store.save(_state("T2", players=1))
    assert await service.take("T2", lease.token)
    assert service.holds("T2")
    registered = await service.register("T2", "p1", "P1")  # written with its token
    assert len(registered.state.entrants) == 2
    await service.saved()  # its take's write too: none in flight past the takeover
    # Another node takes the lease over and stamps the document (a's lease ran out).
    clock.advance(11)
    other = Leases(db, "b", ttl=10, clock=clock, collection=LEASES)
    taken = await other.acquire("T2")
    assert taken is not None
    await stamp(db, "tournaments", "T2", taken.token)
    assert await keeper.renew_all() == ["T2"] and lost == ["T2"]
    with pytest.raises(NotDirector):  # its next write is refused: it stops at once
        await service.register("T2", "p2", "P2")
    assert not service.holds("T2")
    stored = await store.one("T2")
    assert stored is not None and sorted(stored.entrants) == ["p0", "p1"]
    # What it shows now is the stored state, and a request is not carried out here.
    await service.refresh("T2")
    replica = service.get("T2")
    assert replica is not None and sorted(replica.state.entrants) == ["p0", "p1"]
    with pytest.raises(KeyError):
        await service.register("T2", "p3", "P3")


def test_an_order_crosses_the_bus_unchanged() -> None:
    level = Level(small_blind=50, big_blind=100, ante=100, big_blind_ante=True)
    for order in (
        Order(OrderKind.SEAT, "T1-2", player_id="p1", name="P1", seat=3, chips=1234, is_bot=True),
        Order(OrderKind.STAKES, "T1-1", level=level),
        Order(OrderKind.RESUME, "T1-1"),
    ):
        assert order_from(order_doc(order)) == order


async def test_a_tables_seats_reconcile_its_director_after_a_takeover(
    store: TournamentStore, service: TournamentService
) -> None:
    """A table reports its stored seats to a director just taken over: the bust of a hand
    whose report was lost with the old node is counted, stacks come from the table."""
    state = _state("T3", players=4)
    director = Director(state)
    director.start(service.now())
    await store.save(director.state)
    assert await service.take("T3", 1)
    taken = service.get("T3")
    assert taken is not None
    table_id = next(iter(taken.state.tables))
    here = sorted(taken.state.tables[table_id].seats.values())
    assert len(here) == 2
    seats = {here[0]: 2000, here[1]: 0, "stranger": 500}  # here[1] busted, unheard
    service.reported("T3", {"kind": "seats", "table": table_id, "seats": seats, "button": 1})
    entrants = taken.state.entrants
    assert entrants[here[0]].chips == 2000
    assert entrants[here[1]].chips == 0 and entrants[here[1]].place == 4
    assert "stranger" not in entrants
    assert len(taken.players_left) == 3


async def test_a_bust_the_table_already_cashed_out_is_counted_not_seated_again(
    store: TournamentStore, service: TournamentService
) -> None:
    """The hand's report was lost with the old node and the table already stood its busted
    player up: the table's seats lack them, its stacks hold their chips. They are out (no
    chip created by seating them again with what they had)."""
    state = _state("T4", players=4)
    director = Director(state)
    director.start(service.now())
    await store.save(director.state)
    assert await service.take("T4", 1)
    taken = service.get("T4")
    assert taken is not None
    table_id = next(iter(taken.state.tables))
    here = sorted(taken.state.tables[table_id].seats.values())
    total = sum(taken.state.entrants[p].chips for p in here)
    seats = {here[0]: total}  # here[1] busted and cashed out, unheard
    service.reported("T4", {"kind": "seats", "table": table_id, "seats": seats, "button": 1})
    entrants = taken.state.entrants
    assert entrants[here[0]].chips == total
    assert entrants[here[1]].chips == 0 and entrants[here[1]].place == 4
    assert len(taken.players_left) == 3
    assert sum(e.chips for e in entrants.values()) == 4 * 1000  # every chip, none created


async def _two_busts_reported_at_a_takeover(
    service: TournamentService, store: TournamentStore, tid: str
) -> tuple[Director, str, list[str]]:
    """6 players at two tables of 3, the director taken over; one table reports its seats
    after its hand 7, whose report was lost: `short` busted (still seated with nothing),
    `big` too (stood up by the table already), `winner` holds their chips."""
    director = Director(_state(tid, players=6, seats=3))
    director.start(service.now())
    await store.save(director.state)
    assert await service.take(tid, 1)
    taken = service.get(tid)
    assert taken is not None
    table_id = next(iter(taken.state.tables))
    winner, short, big = sorted(taken.state.tables[table_id].seats.values())
    seats = {
        "kind": "seats",
        "table": table_id,
        "seats": {winner: 3000, short: 0},
        "button": 2,
        "hand_no": 7,
        "starting": {winner: 1000, short: 400, big: 1600},  # the hand's start
    }
    service.reported(tid, seats)
    return taken, table_id, [winner, short, big]


async def test_busts_of_one_lost_report_are_placed_by_the_chips_they_started_the_hand_with(
    store: TournamentStore, service: TournamentService
) -> None:
    """Two players busted in one hand whose report was lost: the table's last hand tells
    the chips each began it with, and the bigger stack takes the better place (the rule
    for busts in one hand), as in one process."""
    taken, _, (winner, short, big) = await _two_busts_reported_at_a_takeover(service, store, "T5")
    entrants = taken.state.entrants
    assert (entrants[big].place, entrants[short].place) == (5, 6)
    assert entrants[winner].chips == 3000 and len(taken.players_left) == 4
    assert sum(e.chips for e in entrants.values()) == 6 * 1000  # every chip, none created


async def test_a_hand_counted_by_a_reconcile_is_not_counted_again_by_its_late_report(
    store: TournamentStore, service: TournamentService
) -> None:
    """A table on the director's new node told its hand's end over the bus while no node
    directed; the takeover's reconcile counted that hand from the seats before the report
    came back: the late report counts for nothing (no hand twice, and the table's next
    hand, already started, stays in progress for the director)."""
    taken, table_id, (winner, _, _) = await _two_busts_reported_at_a_takeover(service, store, "T6")
    assert table_id in taken.state.tables  # (4 players: still two tables, balanced)
    hands = dict(taken.state.hands)
    service.reported("T6", {"kind": "started", "table": table_id})  # hand 8
    late = {"kind": "finished", "table": table_id, "button": 2, "hand_no": 7}
    service.reported("T6", {**late, "stacks": {winner: 3000}, "starting": {}})
    assert taken.state.hands == hands
    assert table_id in taken.state.busy
    service.reported("T6", {**late, "hand_no": 8, "stacks": {winner: 3000}, "starting": {}})
    assert taken.state.hands[table_id] == hands[table_id] + 1
    assert table_id not in taken.state.busy


async def test_lost_hands_count_toward_a_level_by_hands_from_the_tables_hand_number(
    store: TournamentStore, service: TournamentService
) -> None:
    """Levels by hands (4 a level), a table's reports of its hands 1 to 5 lost with a node:
    its seats, reported to the director just taken over, carry its last hand's number, so
    the five hands count (the second level, its stakes sent), and a late report of hand 5
    counts for nothing while hand 6's counts."""
    director = Director(_state("T7", players=4, by=LevelsBy.HANDS))
    director.start(service.now())
    await store.save(director.state)
    assert await service.take("T7", 1)
    taken = service.get("T7")
    assert taken is not None
    table_id = next(iter(taken.state.tables))
    here = sorted(taken.state.tables[table_id].seats.values())
    seats = {here[0]: 1300, here[1]: 700}
    body = {"kind": "seats", "table": table_id, "seats": seats, "button": 1, "starting": {}}
    service.reported("T7", {**body, "hand_no": None})  # no number known: nothing counted
    assert taken.state.hands[table_id] == 0
    service.reported("T7", {**body, "hand_no": 5})
    assert taken.state.hands[table_id] == 5
    assert taken.level(service.now()) == LEVELS[1]
    assert taken.state.table_level[table_id] == 1
    assert taken.state.entrants[here[0]].chips == 1300
    late = {"kind": "finished", "table": table_id, "button": 1, "stacks": seats, "starting": {}}
    service.reported("T7", {**late, "hand_no": 5})
    assert taken.state.hands[table_id] == 5
    service.reported("T7", {**late, "hand_no": 6})
    assert taken.state.hands[table_id] == 6


async def _reload_a_table_of_three(
    db: AsyncDatabase[Document],
    repos: Repositories,
    store: TournamentStore,
    tables: TableManager,
    service: TournamentService,
    tid: str,
    stored_hand_no: int,
    filed: list[tuple[int, tuple[int, int, int]]],
) -> tuple[Director, str, tuple[str, str, str], TableRuntime]:
    """A tournament of two three-seat tables taken over by `service`; its first table as
    a node stored it (the winner alone with every chip, numbered `stored_hand_no`) with
    its hands `filed` (number, starting chips of winner, short and big stack), loaded by
    `tables`, and the seats report its load schedules run. The director, the table, its
    (winner, short, big) players and its runtime."""
    director = Director(_state(tid, players=6, seats=3))
    director.start(service.now())
    await store.save(director.state)
    assert await service.take(tid, 1)
    taken = service.get(tid)
    assert taken is not None
    table_id = next(iter(taken.state.tables))
    winner, short, big = sorted(taken.state.tables[table_id].seats.values())
    config = table_config(3, LEVELS[0])
    table = Table(table_id, config, tournament=True)
    host_commands.seat_player(table, 1, winner, "W", 3000)
    snapshot = {**snapshot_to_doc(table.snapshot()), "hand_no": stored_hand_no}
    options = TableOptions(name="t #1", action_timeout=30, time_bank=0, tournament_id=tid)
    doc = options.model_dump(mode="json")
    await repos.tables.insert(table_id, config_to_doc(config), doc, snapshot, 1)
    for hand_no, chips in filed:
        record = {
            "table_id": table_id,
            "hand_no": hand_no,
            "seats": [
                {"player_id": p, "starting_stack": c}
                for p, c in zip((winner, short, big), chips, strict=True)
            ],
        }
        found = {"_id": hand_id(table_id, hand_no), "table_id": table_id, "hand_no": hand_no}
        await db.hands.insert_one({**found, "record": record})
    tables.tournament_loaded = service.table_loaded
    assert await tables.load(table_id)
    runtime = tables.get(table_id)
    assert runtime is not None
    # The table reports its seats from a callback scheduled at its load: run it.
    ran = asyncio.get_running_loop().create_future()
    asyncio.get_running_loop().call_soon(ran.set_result, None)
    await ran
    return taken, table_id, (winner, short, big), runtime


async def test_a_table_restored_from_the_store_places_its_lost_hands_busts(
    db: AsyncDatabase[Document],
    repos: Repositories,
    store: TournamentStore,
    tables: TableManager,
    service: TournamentService,
) -> None:
    """A node stored a tournament table's hand 7 (two busts, both stood up) and died with
    its report; another node loads the table from the store: its seats carry hand 7's
    starting chips, read from the filed hand, so the bigger stack takes the better place
    (not a tie), and the seven hands are counted."""
    taken, table_id, (winner, short, big), runtime = await _reload_a_table_of_three(
        db, repos, store, tables, service, "T8", 7, [(7, (1000, 400, 1600))]
    )
    assert runtime.stored_last_hand == (7, {winner: 1000, short: 400, big: 1600})
    entrants = taken.state.entrants
    assert (entrants[big].place, entrants[short].place) == (5, 6)
    assert entrants[winner].chips == 3000 and len(taken.players_left) == 4
    assert taken.state.hands[table_id] == 7


async def test_a_table_restored_after_voided_hands_reports_its_last_filed_hand(
    db: AsyncDatabase[Document],
    repos: Repositories,
    store: TournamentStore,
    tables: TableManager,
    service: TournamentService,
) -> None:
    """A tournament table's hand 7 (two busts, both stood up) was filed with its report
    lost; hands 8 and 9 were dealt and voided by restarts (its stored seats carry number 9,
    nothing filed past 7). Loaded again, it reports hand 7, the last hand it finished: the
    busts are placed by their chips as it began (not a tie) and its seven hands count.
    Before, only the hands numbered 9 and 8 were looked for: none, so the busts tied."""
    filed = [(6, (1000, 1000, 1000)), (7, (1000, 400, 1600))]
    taken, table_id, (winner, short, big), runtime = await _reload_a_table_of_three(
        db, repos, store, tables, service, "T9", 9, filed
    )
    assert runtime.stored_last_hand == (7, {winner: 1000, short: 400, big: 1600})
    assert runtime.table.hand_no == 9  # (its numbering goes on past the voided hands)
    entrants = taken.state.entrants
    assert (entrants[big].place, entrants[short].place) == (5, 6)
    assert entrants[winner].chips == 3000 and len(taken.players_left) == 4
    assert taken.state.hands[table_id] == 7
