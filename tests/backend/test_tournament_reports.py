"""A tournament table's reports sent on the bus while no node directs its tournament
(the director's node died, its lease not yet run out) reach the next director.

Two nodes in this process (each its own bus connection, tables, tournament service and
`ClusterTournaments`, as `showdown serve --nodes` runs them) on a real nats-server and
the real embedded database. The director's node `a` took the tournament's lease and
died: nobody directs. Node `c` (it takes no director over) owns table 1, which plays
three hands meanwhile and reports them on the bus: hand 2 busts two players who began
it with 700 and 1,000 chips. Then `a`'s lease runs out and node `b` takes the director
over from the stored state: it asks table 1 for its seats, and `c` first tells it the
three hands again (kept until a stored state of the director counts them). The busts
are placed by the chips they began hand 2 with, 7th and 8th; before, only the seats
after hand 3 came, in which neither was dealt, and they tied for 7th.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest
from pymongo import AsyncMongoClient
from pymongo.asynchronous.database import AsyncDatabase

from backend.ai_gateway import AIGateway
from backend.cluster.bus import Bus
from backend.cluster.launch import NatsServer
from backend.cluster.leases import Leases
from backend.cluster.remote import OwnerSide
from backend.cluster.tournaments import LEASES, ClusterTournaments
from backend.db.codec import Document
from backend.db.repositories import Repositories
from backend.realtime import host_commands
from backend.realtime.manager import TableManager
from backend.settings import Settings
from backend.tournament.director import Director, Spec, State
from backend.tournament.service import TournamentService
from backend.tournament.store import TournamentStore
from backend.tournament.structures import Level, Structure
from backend.tournament.tables import table_config

TTL = 60.0  # no lease runs out by itself in the test
LEVEL = Level(small_blind=10, big_blind=20)


@pytest.fixture
async def nats_url() -> AsyncIterator[str]:
    server = await NatsServer.start()
    yield server.url
    await server.stop()


@pytest.fixture
async def db(mongo_url: str) -> AsyncIterator[AsyncDatabase[Document]]:
    client: AsyncMongoClient[Document] = AsyncMongoClient(mongo_url, tz_aware=True)
    name = "tr" + uuid.uuid4().hex[:12]
    yield client[name]
    await client.drop_database(name)
    await client.close()


@dataclass
class Node:
    bus: Bus
    repos: Repositories
    tables: TableManager
    service: TournamentService
    link: ClusterTournaments
    owner: OwnerSide

    async def close(self) -> None:
        await self.service.close()  # (its link too)
        await self.tables.close()
        await self.repos.writer.close()
        await self.bus.close()


@pytest.fixture
async def nodes(
    nats_url: str, db: AsyncDatabase[Document], make_settings: Callable[..., Settings]
) -> AsyncIterator[Callable[..., Awaitable[Node]]]:
    started: list[Node] = []

    async def start(name: str, directs: bool = True) -> Node:
        """`directs`: False, the node takes no director over (as a draining node)."""
        bus = await Bus.connect(nats_url, name)
        repos = Repositories.of(db)
        # Its tables deal no hand of their own: the test tells the hands.
        tables = TableManager(make_settings(hand_pause_ms=600_000), repos, AIGateway("s", 16))
        store = TournamentStore(db)
        service = TournamentService(store, tables)

        async def nowhere(body: dict[str, object]) -> bool:
            return False

        link = ClusterTournaments(
            bus, db, name, TTL, service, store, tables, lambda: not directs, nowhere
        )
        owner = OwnerSide(bus, tables, name, 16)
        owner.tournament_op = link.table_op
        await link.start()
        node = Node(bus, repos, tables, service, link, owner)
        started.append(node)
        return node

    yield start
    for node in reversed(started):
        await node.close()


async def until(done: Callable[[], bool], within: float = 10.0) -> None:
    """Until `done` holds: the bus's messages are handled in the nodes' own tasks."""
    async with asyncio.timeout(within):
        while not done():  # noqa: ASYNC110
            await asyncio.sleep(0.01)  # polling the nodes' state: no event to wait on


async def test_reports_sent_while_no_node_directs_reach_the_next_director(
    db: AsyncDatabase[Document], nodes: Callable[..., Awaitable[Node]]
) -> None:
    structure = Structure(starting_chips=1000, levels=[LEVEL, LEVEL.model_copy()])
    spec = Spec(name="t", max_players=8, seats_per_table=4, structure=structure, prize_shares=[100])
    director = Director(State(tournament_id="TR", spec=spec, seed=1))
    for i in range(8):
        director.register(f"p{i}", f"P{i}")
    director.start(0.0)
    await TournamentStore(db).save(director.state)
    # Node a took the director's lease, then died.
    assert await Leases(db, "a", ttl=TTL, collection=LEASES).acquire("TR") is not None
    c = await nodes("c", False)
    table_id = "TR-1"
    runtime = await c.tables.open_tournament_table(table_id, table_config(4, LEVEL), "t #1", "TR")
    c.link.opened(runtime)
    await c.owner.serve(table_id)
    seats = director.state.tables[table_id].seats
    for number, player_id in seats.items():
        host_commands.seat_player(runtime.table, number, player_id, player_id, 1000)
    x, y, z, w = (seats[n] for n in sorted(seats))

    # Three hands at table 1, told on the bus with nobody directing.
    hands = [
        ({x: 1300, y: 700, z: 1000, w: 1000}, {x: 1000, y: 1000, z: 1000, w: 1000}),
        ({x: 3000, y: 0, z: 0, w: 1000}, {x: 1300, y: 700, z: 1000, w: 1000}),
        ({x: 3200, y: 0, z: 0, w: 800}, {x: 3000, w: 1000}),  # y, z not dealt
    ]
    for hand_no, (stacks, starting) in enumerate(hands, start=1):
        c.service.hand_started(table_id, hand_no)
        c.service.hand_finished(table_id, 1, stacks, starting, hand_no)
    for seat in runtime.table.seats.values():  # the table as hand 3 left it
        seat.stack = hands[-1][0][seat.player_id]
    runtime.stored_last_hand = (3, hands[-1][1])
    assert len(c.service.unacknowledged(table_id)) == 6  # each hand's start and end

    # a's lease runs out; b takes the director over from the stored state.
    expired = datetime.now(UTC) - timedelta(seconds=1)
    await db[LEASES].update_one({"_id": "TR"}, {"$set": {"expires_at": expired}})
    b = await nodes("b")
    await b.link.take_over()  # (unless its first round, as it started, took it)
    taken = b.service.get("TR")
    assert taken is not None and b.service.holds("TR")
    await until(lambda: taken.state.counted.get(table_id) == 3)
    entrants = taken.state.entrants
    assert (entrants[z].place, entrants[y].place) == (7, 8)  # by hand 2's chips
    assert (entrants[x].chips, entrants[w].chips) == (3200, 800)
    assert taken.state.hands[table_id] == 3
    assert sum(e.chips for e in entrants.values()) == 8 * 1000  # every chip
    # Once the director stored the state that counts them, c forgets the reports.
    await until(lambda: not c.service.unacknowledged(table_id))
