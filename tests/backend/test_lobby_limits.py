"""Quotas (429 with Retry-After), names (normalised, restricted, unique tables), amount bounds."""

from __future__ import annotations

from typing import Any

import httpx
from backend_testlib import RunningServer, create_table, guest

from backend.schemas import MAX_CHIPS


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_guest_sign_ins_are_limited_per_client(server_factory: Any) -> None:
    server = await server_factory(signin_burst=2, signins_per_hour=1)
    async with httpx.AsyncClient(base_url=server.http) as http:
        for name in ("A", "B"):
            assert (await http.post("/api/auth/guest", json={"name": name})).status_code == 201
        # X-Forwarded-For from a peer that is not a trusted proxy changes nothing.
        refused = await http.post(
            "/api/auth/guest", json={"name": "C"}, headers={"X-Forwarded-For": "203.0.113.9"}
        )
    assert refused.status_code == 429
    retry = int(refused.headers["Retry-After"])
    assert 0 < retry <= 3600
    assert "too many sign-ins" in refused.json()["detail"]
    assert f"try again in {retry} s" in refused.json()["detail"]


async def test_behind_a_trusted_proxy_clients_are_told_apart(server_factory: Any) -> None:
    server = await server_factory(signin_burst=1, signins_per_hour=1, trusted_proxies=["127.0.0.1"])
    async with httpx.AsyncClient(base_url=server.http) as http:
        for client in ("203.0.113.1", "203.0.113.2"):
            headers = {"X-Forwarded-For": f"198.51.100.7, {client}"}
            ok = await http.post("/api/auth/guest", json={"name": "A"}, headers=headers)
            assert ok.status_code == 201
        again = await http.post(
            "/api/auth/guest", json={"name": "A"}, headers={"X-Forwarded-For": "203.0.113.2"}
        )
        assert again.status_code == 429


async def test_table_creations_are_limited_per_client(server_factory: Any) -> None:
    server = await server_factory(table_create_burst=2, table_creates_per_hour=1)
    token, _ = await guest(server, "Alice")
    other, _ = await guest(server, "Bob")  # another guest from the same client: same quota
    await create_table(server, token)
    await create_table(server, other)
    async with httpx.AsyncClient(base_url=server.http) as http:
        refused = await http.post("/api/tables", json={}, headers=bearer(token))
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
        assert "too many tables created" in refused.json()["detail"]
        assert len((await http.get("/api/tables")).json()) == 2
        # Refused for a bad field: no quota spent on it.
        bad = await http.post("/api/tables", json={"big_blind": 0}, headers=bearer(token))
        assert bad.status_code == 422


async def test_names_are_normalised_and_restricted(server: RunningServer) -> None:
    async with httpx.AsyncClient(base_url=server.http) as http:
        ok = await http.post("/api/auth/guest", json={"name": "  Ｚｏｅ \t  the\u00a0Great "})
        assert ok.status_code == 201 and ok.json()["name"] == "Zoe the Great"
        for bad, why in (
            ("evil\u202etxt.exe", "bidirectional"),
            ("a\u2066b", "bidirectional"),
            ("zero\u200bwidth", "zero-width"),
            ("bell\x07", "control"),
            ("   ", "empty"),
            ("x" * 25, "at most 24"),
        ):
            refused = await http.post("/api/auth/guest", json={"name": bad})
            assert refused.status_code == 422 and why in refused.text, (bad, refused.text)
        token = ok.json()["token"]
        made = await http.post(
            "/api/tables", json={"name": " Friday  Night "}, headers=bearer(token)
        )
        assert made.status_code == 201 and made.json()["name"] == "Friday Night"
        for clash in ("friday night", "FRIDAY\u3000NIGHT"):
            same = await http.post("/api/tables", json={"name": clash}, headers=bearer(token))
            assert same.status_code == 409 and "open already" in same.json()["detail"]
        hidden = await http.post(
            "/api/tables", json={"name": "Fri\u202eday"}, headers=bearer(token)
        )
        assert hidden.status_code == 422
        # Unnamed tables are "Table N", the first number free (not the game and stakes
        # the lobby shows in their own columns).
        names = [
            (await http.post("/api/tables", json={}, headers=bearer(token))).json()["name"]
            for _ in range(2)
        ]
        assert names == ["Table 1", "Table 2"]
        assert len((await http.get("/api/tables")).json()) == 3


async def test_amounts_are_bounded_well_below_int64(server: RunningServer) -> None:
    token, _ = await guest(server, "Alice")
    huge = 2**62
    async with httpx.AsyncClient(base_url=server.http) as http:
        for fields in (
            {"small_blind": huge, "big_blind": huge},
            {"big_blind": huge},
            {"ante": huge},
            {"max_buy_in": huge},
            {"variant": "limit", "big_bet": huge},
        ):
            refused = await http.post("/api/tables", json=fields, headers=bearer(token))
            assert refused.status_code == 422, (fields, refused.text)
            assert str(MAX_CHIPS) in refused.text, refused.text
        # Blinds within the bound whose default buy-in (100 big blinds) is not.
        refused = await http.post(
            "/api/tables", json={"small_blind": 10**8, "big_blind": 10**8}, headers=bearer(token)
        )
        assert refused.status_code == 422
        assert "buy_in would be" in refused.text and str(MAX_CHIPS) in refused.text
        assert (await http.get("/api/tables")).json() == []  # nothing was created
    # At the bound itself a table plays.
    table = await create_table(
        server,
        token,
        small_blind=MAX_CHIPS // 100,
        big_blind=MAX_CHIPS // 100,
        max_buy_in=MAX_CHIPS,
        seats=10,
        bots=9,
    )
    assert table["max_buy_in"] == MAX_CHIPS
    # 10 seats buying in a million times each hold 900 times less than MongoDB can store.
    assert 10 * MAX_CHIPS * 1_000_000 * 900 < 2**63
