"""The REST API: sign-in, lobby, hand histories with PHH, health, OpenAPI, the SPA."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from backend_testlib import RunningServer, create_table, guest, join, play_until_hand_over

from holdem.phh import parse_phh


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_sign_in_and_tokens(server: RunningServer) -> None:
    async with httpx.AsyncClient(base_url=server.http) as http:
        response = await http.post("/api/auth/guest", json={"name": "  Zoe "})
        assert response.status_code == 201
        body = response.json()
        assert body["name"] == "Zoe" and body["player_id"] and body["expires_at"]
        me = await http.get("/api/me", headers=bearer(body["token"]))
        assert me.json() == {"player_id": body["player_id"], "name": "Zoe", "has_password": False}
        assert (await http.get("/api/me")).status_code == 401
        forged = await http.get("/api/me", headers=bearer(body["token"][:-4] + "AAAA"))
        assert forged.status_code == 401 and "invalid token" in forged.json()["detail"]
        for bad in ({"name": ""}, {"name": "x" * 25}, {}, {"name": "a", "extra": 1}):
            assert (await http.post("/api/auth/guest", json=bad)).status_code == 422


async def test_lobby(server: RunningServer) -> None:
    token, player_id = await guest(server, "Alice")
    async with httpx.AsyncClient(base_url=server.http) as http:
        assert (await http.post("/api/tables", json={})).status_code == 401
        bad = await http.post("/api/tables", json={"seats": 3, "bots": 3}, headers=bearer(token))
        assert bad.status_code == 422 and "bots must be fewer than seats" in bad.text
        bad = await http.post(
            "/api/tables", json={"small_blind": 20, "big_blind": 10}, headers=bearer(token)
        )
        assert bad.status_code == 422 and "small blind cannot exceed" in bad.text
        bad = await http.post("/api/tables", json={"seats": 11}, headers=bearer(token))
        assert bad.status_code == 422
        bad = await http.post(
            "/api/tables", json={"bots": 1, "bot_styles": ["shark"]}, headers=bearer(token)
        )
        assert bad.status_code == 422 and "'loki'" in bad.text  # the error names the choices
        assert (await http.get("/api/tables")).json() == []  # nothing was created
    table = await create_table(
        server,
        token,
        name="Friday",
        variant="limit",
        small_blind=10,
        big_blind=20,
        seats=9,
        bots=3,
        bot_styles=["cautious", "aggressive"],
        action_timeout=15,
        advice_allowed=False,
    )
    assert table["name"] == "Friday" and table["variant"] == "limit"
    assert table["seats_taken"] == 3 and table["bots"] == 3 and table["players"] == 0
    assert table["action_timeout"] == 15 and table["advice_allowed"] is False
    styles = [s["bot_style"] for s in table["view"]["seats"]]
    assert styles == ["cautious", "aggressive", "cautious"]
    assert all(s["hole_cards"] is None for s in table["view"]["seats"])
    async with httpx.AsyncClient(base_url=server.http) as http:
        listed = (await http.get("/api/tables")).json()
        assert [t["table_id"] for t in listed] == [table["table_id"]]
        detail = (await http.get(f"/api/tables/{table['table_id']}")).json()
        assert detail["view"]["config"]["big_bet"] == 40
        assert (await http.get("/api/tables/nope")).status_code == 404
    _ = player_id


async def test_hand_histories_and_phh(server: RunningServer) -> None:
    alice_token, alice_id = await guest(server, "Alice")
    bob_token, _ = await guest(server, "Bob")
    table = await create_table(server, alice_token, seats=2, small_blind=5, big_blind=10)
    alice = await join(server, table["table_id"], alice_token)
    bob = await join(server, table["table_id"], bob_token)
    await alice.send({"type": "sit", "seat": 1, "buy_in": 1000})
    await bob.send({"type": "sit", "seat": 2, "buy_in": 1000})
    import asyncio

    await asyncio.gather(play_until_hand_over(alice, 3), play_until_hand_over(bob, 3))
    await server.state.tables.get(table["table_id"]).persister.drain()  # type: ignore[union-attr]
    async with httpx.AsyncClient(base_url=server.http) as http:
        page = (await http.get("/api/hands?limit=2", headers=bearer(alice_token))).json()
        assert page["total"] >= 3 and len(page["items"]) == 2 and page["limit"] == 2
        newest = page["items"][0]
        assert newest["hand_no"] > page["items"][1]["hand_no"]
        assert newest["seat"] == 1 and newest["players"] == 2
        rest = (await http.get("/api/hands?limit=2&offset=2", headers=bearer(alice_token))).json()
        assert rest["offset"] == 2 and rest["items"]
        assert (
            await http.get("/api/hands?limit=0", headers=bearer(alice_token))
        ).status_code == 422
        hand_id = newest["hand_id"]
        full = (await http.get(f"/api/hands/{hand_id}", headers=bearer(alice_token))).json()
        record = full["record"]
        seats = {s["seat"]: s for s in record["seats"]}
        shown = {e["seat"] for e in record["events"] if e["kind"] == "show"}
        assert "??" not in seats[1]["hole_cards"]  # her own cards
        if 2 not in shown:
            assert seats[2]["hole_cards"] == ["??", "??"]  # Bob's only if shown
        else:
            assert "??" not in seats[2]["hole_cards"]
        phh = await http.get(f"/api/hands/{hand_id}/phh", headers=bearer(alice_token))
        assert phh.status_code == 200 and phh.headers["content-type"].startswith("text/plain")
        assert f'filename="{hand_id}.phh"' in phh.headers["content-disposition"]
        parsed = parse_phh(phh.text)
        assert parsed.players == ("Alice", "Bob") or parsed.players == ("Bob", "Alice")
        assert sum(parsed.finishing_stacks or ()) == sum(parsed.starting_stacks)
        # Someone who did not play the hand cannot read it.
        carol_token, _ = await guest(server, "Carol")
        for path in (f"/api/hands/{hand_id}", f"/api/hands/{hand_id}/phh"):
            assert (await http.get(path, headers=bearer(carol_token))).status_code == 404
        assert (await http.get("/api/hands", headers=bearer(carol_token))).json()["total"] == 0
    _ = alice_id


async def test_hand_list_names_the_table_and_shows_only_your_own_cards(
    server: RunningServer,
) -> None:
    alice_token, alice_id = await guest(server, "Alice")
    bob_token, bob_id = await guest(server, "Bob")
    tables = [
        await create_table(server, alice_token, name=name, seats=2, small_blind=5, big_blind=10)
        for name in ("Monday", "Tuesday")
    ]
    import asyncio

    for table in tables:
        alice = await join(server, table["table_id"], alice_token)
        bob = await join(server, table["table_id"], bob_token)
        await alice.send({"type": "sit", "seat": 1, "buy_in": 1000})
        await bob.send({"type": "sit", "seat": 2, "buy_in": 1000})
        await asyncio.gather(play_until_hand_over(alice, 1), play_until_hand_over(bob, 1))
        await alice.close()
        await bob.close()
        await server.state.tables.get(table["table_id"]).persister.drain()  # type: ignore[union-attr]
    async with httpx.AsyncClient(base_url=server.http) as http:
        for token, player_id in ((alice_token, alice_id), (bob_token, bob_id)):
            items = (await http.get("/api/hands", headers=bearer(token))).json()["items"]
            assert {h["table_name"] for h in items} == {"Monday", "Tuesday"}
            for item in items:
                stored = await server.state.repos.hands.get(item["hand_id"])
                assert stored is not None
                cards = {s["player_id"]: s["hole_cards"] for s in stored["record"]["seats"]}
                # Your own cards, never the other player's (shown or not).
                assert item["hole_cards"] == cards[player_id]
                assert item["chip_unit"] == "1"
        only = await http.get(
            f"/api/hands?table_id={tables[1]['table_id']}", headers=bearer(alice_token)
        )
        page = only.json()
        assert page["total"] == len(page["items"]) >= 1
        assert {h["table_name"] for h in page["items"]} == {"Tuesday"}
        assert (await http.get("/api/hands?table_id=nope", headers=bearer(alice_token))).json()[
            "total"
        ] == 0


async def test_health_stats_and_openapi(server: RunningServer) -> None:
    async with httpx.AsyncClient(base_url=server.http) as http:
        assert (await http.get("/healthz")).json() == {"status": "ok"}
        ready = await http.get("/readyz")
        assert ready.status_code == 200 and ready.json()["database"] == "ok"
        stats = (await http.get("/api/stats")).json()
        assert stats["tables"] == 0 and stats["workers"] == 0
        assert set(stats["loop_lag"]) == {"p50_ms", "p99_ms", "max_ms", "ticks", "seconds"}
        paths = (await http.get("/openapi.json")).json()["paths"]
        for path in (
            "/api/auth/guest",
            "/api/me",
            "/api/tables",
            "/api/tables/{table_id}",
            "/api/hands",
            "/api/hands/{hand_id}",
            "/api/hands/{hand_id}/phh",
            "/healthz",
            "/readyz",
            "/api/stats",
        ):
            assert path in paths, path


async def test_readyz_reports_an_unreachable_database(server_factory: Any) -> None:
    server = await server_factory()
    await server.state.mongo.client.close()  # the database is gone for this app
    async with httpx.AsyncClient(base_url=server.http) as http:
        ready = await http.get("/readyz")
    assert ready.status_code == 503 and ready.json()["database"] == "unreachable"


async def test_the_built_frontend_is_served_with_spa_fallback(
    server_factory: Any, tmp_path: Path
) -> None:
    (tmp_path / "assets").mkdir()
    (tmp_path / "index.html").write_text("<html>showdown</html>")
    (tmp_path / "assets" / "app.js").write_text("console.log(1)")
    server = await server_factory(frontend_dir=tmp_path)
    async with httpx.AsyncClient(base_url=server.http) as http:
        assert (await http.get("/")).text == "<html>showdown</html>"
        assert (await http.get("/tables/abc")).text == "<html>showdown</html>"
        assert (await http.get("/assets/app.js")).text == "console.log(1)"
        assert (await http.get("/api/nothing")).status_code == 404
        assert (await http.get("/../../etc/passwd")).text in ("<html>showdown</html>", "")
        assert (await http.get("/healthz")).json() == {"status": "ok"}
