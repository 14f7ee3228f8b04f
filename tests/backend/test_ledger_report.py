"""The players' ledger: settle-up with the fewest payments (known answers), nets that
sum to zero, and on the real server a session with a top-up, adjustments, a removal and
a restart mid-hand whose ledger still sums to zero, as JSON and as CSV."""

from __future__ import annotations

import asyncio
import csv
import io
import random
from typing import Any

import httpx
import pytest
from backend_testlib import (
    RunningServer,
    WsClient,
    create_table,
    guest,
    join,
    my_turn,
    passive,
    play_until_hand_over,
)

from backend.ledger_report import Payment, build_ledger, settle_up

Message = dict[str, Any]


def squares(nets: dict[str, int], payments: list[Payment]) -> bool:
    left = dict(nets)
    for p in payments:
        assert p.amount > 0
        left[p.payer] += p.amount
        left[p.payee] -= p.amount
    return all(v == 0 for v in left.values())


def test_the_fewest_payments_known_answers() -> None:
    # Six players in two groups that square among themselves: 6 - 2 payments.
    nets = {"a": 60, "b": 40, "c": -41, "d": -59, "e": 1, "f": -1}
    payments = settle_up(nets)
    assert squares(nets, payments) and len(payments) == 4
    nets = {"a": 30, "b": -30, "c": 20, "d": -20}
    assert len(settle_up(nets)) == 2 and squares(nets, settle_up(nets))
    nets = {"a": 50, "b": -20, "c": -30, "d": 0}
    assert len(settle_up(nets)) == 2 and squares(nets, settle_up(nets))
    assert settle_up({"a": 0}) == []
    with pytest.raises(ValueError, match="sum to zero"):
        settle_up({"a": 5, "b": -4})


def most_zero_groups(values: list[int]) -> int:
    """By brute force: the most groups summing to zero the values split into."""
    if not values:
        return 0
    first, rest = values[0], values[1:]
    best = 0
    for mask in range(1 << len(rest)):
        group = [v for i, v in enumerate(rest) if mask >> i & 1]
        if first + sum(group) == 0:
            others = [v for i, v in enumerate(rest) if not mask >> i & 1]
            best = max(best, 1 + most_zero_groups(others))
    return best


def test_random_nights_square_with_the_fewest_payments() -> None:
    rng = random.Random(7)
    for _ in range(150):
        players = [f"p{i}" for i in range(rng.randint(2, 8))]
        nets = {p: rng.randint(-6, 6) for p in players[:-1]}  # small: zero groups happen
        nets[players[-1]] = -sum(nets.values())
        payments = settle_up(nets)
        nonzero = [v for v in nets.values() if v]
        assert squares(nets, payments)
        assert len(payments) == len(nonzero) - most_zero_groups(nonzero)


def test_the_ledger_counts_adjustments_as_chips_in_and_entries_once() -> None:
    entries = [
        {"_id": "1", "player_id": "a", "kind": "buy_in", "amount": 500},
        {"_id": "2", "player_id": "b", "kind": "buy_in", "amount": 500},
        {"_id": "3", "player_id": "b", "kind": "adjust", "amount": 100},
        {"_id": "3", "player_id": "b", "kind": "adjust", "amount": 100},  # stored and booked
        {"_id": "4", "player_id": "a", "kind": "cashout", "amount": 350},
    ]
    ledger = build_ledger("t1", entries, {"b": 750}, {"a": "Ana", "b": "Bo"})
    rows = {r.player_id: r for r in ledger.rows}
    assert (rows["a"].net, rows["b"].net, ledger.total) == (-150, 150, 0)
    assert ledger.settle_up == [Payment(payer="a", payee="b", amount=150)]


def caused(kind: str, **fields: Any) -> Any:
    def match(state: Message) -> bool:
        cause = state["cause"]
        return (
            bool(cause) and cause["kind"] == kind and all(cause[k] == v for k, v in fields.items())
        )

    return match


async def get(server: RunningServer, path: str, token: str) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.http) as http:
        return await http.get(path, headers={"Authorization": f"Bearer {token}"})


async def test_a_session_with_a_restart_mid_hand_sums_to_zero(server_factory: Any) -> None:
    server = await server_factory()
    host, host_id = await guest(server, "Hana")
    carol_token, carol_id = await guest(server, "=Carol")
    dave_token, _ = await guest(server, "Dave")
    table = await create_table(server, host, seats=4, bots=1, small_blind=5, big_blind=10)
    table_id = table["table_id"]
    hana = await join(server, table_id, host)
    carol = await join(server, table_id, carol_token)
    await hana.send({"type": "pause"})
    await hana.wait_state(caused("pause"))
    await hana.send({"type": "sit", "seat": 2, "buy_in": 500})
    await carol.send({"type": "sit", "seat": 3, "buy_in": 400})
    await hana.wait_state(caused("sit", player_id=carol_id))
    await hana.send({"type": "adjust", "seat": 3, "amount": 100})
    await hana.send({"type": "adjust", "seat": 2, "amount": -50})
    await carol.send({"type": "rebuy", "amount": 200})
    await hana.send({"type": "add_bot", "seat": 4, "style": "calling-station"})
    await hana.send({"type": "remove", "seat": 1})
    await hana.wait_state(caused("remove", seat=1))
    await hana.send({"type": "resume"})
    first = await hana.wait_state(caused("hand_start"))
    hand_no = first["view"]["hand_no"]

    async def play(client: WsClient) -> None:
        await play_until_hand_over(client, hand_no)

    if my_turn(first):  # the deal's state was hers, and consumed
        await hana.send(passive(first["view"]))
    await asyncio.gather(play(hana), play(carol))
    second = await carol.wait_state(lambda s: s["view"]["hand_no"] == hand_no + 1)
    assert second["view"]["hand_in_progress"]  # the humans do not act: it waits for them
    await hana.close()
    await carol.close()
    await server.stop()  # mid-hand: the restart voids it back to its starting stacks

    again = await server_factory()
    response = await get(again, f"/api/tables/{table_id}/ledger", host)
    assert response.status_code == 200, response.text
    ledger = response.json()
    assert ledger["total"] == 0 and sum(r["net"] for r in ledger["rows"]) == 0
    rows = {r["player_id"]: r for r in ledger["rows"]}
    carol_row = rows[carol_id]
    assert (carol_row["buy_ins"], carol_row["adjustments"], carol_row["rebuys"]) == (400, 100, 200)
    assert rows[host_id]["adjustments"] == -50 and rows[host_id]["name"] == "Hana"
    removed = rows[f"bot-{table_id}-1"]
    assert removed["cashed_out"] == table["max_buy_in"] and removed["on_table"] == 0
    on_table = sum(r["on_table"] for r in ledger["rows"])
    chips_in = sum(r["buy_ins"] + r["rebuys"] + r["adjustments"] for r in ledger["rows"])
    assert on_table + sum(r["cashed_out"] for r in ledger["rows"]) == chips_in
    nets = {r["player_id"]: r["net"] for r in ledger["rows"]}
    for payment in ledger["settle_up"]:
        nets[payment["payer"]] += payment["amount"]
        nets[payment["payee"]] -= payment["amount"]
    assert set(nets.values()) <= {0}

    # The CSV says the same; a name cannot run as a spreadsheet formula.
    download = await get(again, f"/api/tables/{table_id}/ledger.csv", carol_token)
    assert download.status_code == 200 and "attachment" in download.headers["content-disposition"]
    lines = list(csv.reader(io.StringIO(download.text)))
    header, body = lines[0], lines[1 : lines.index([])]
    assert {row[header.index("player_id")]: int(row[header.index("net")]) for row in body} == {
        r["player_id"]: r["net"] for r in ledger["rows"]
    }
    assert "'=Carol" in [row[0] for row in body]
    # Only the table's players see it.
    assert (await get(again, f"/api/tables/{table_id}/ledger", dave_token)).status_code == 404
