"""Tokens: access tokens of minutes with refresh, sign-out revocation (kept across restarts),
and never a token in a socket URL."""

from __future__ import annotations

from typing import Any

import httpx
import jwt
import pytest
from backend_testlib import RunningServer, WsClient, create_table, join, signed_in
from pymongo import AsyncMongoClient
from websockets.exceptions import ConnectionClosed


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def sign_in(server: RunningServer, name: str = "Alice") -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=server.http) as http:
        response = await http.post("/api/auth/guest", json={"name": name})
        assert response.status_code == 201, response.text
        body: dict[str, Any] = response.json()
        return body


async def closed_with(client: WsClient) -> int:
    with pytest.raises(ConnectionClosed) as closed:
        await client.wait_type("never")
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code


async def test_access_tokens_are_short_and_refresh_rotates(server_factory: Any) -> None:
    server = await server_factory(access_token_ttl=120.0)
    login = await sign_in(server)
    claims = jwt.decode(login["token"], options={"verify_signature": False})
    assert claims["exp"] - claims["iat"] == 120 and claims["typ"] == "access"
    assert login["refresh_token"] not in login["token"]
    async with httpx.AsyncClient(base_url=server.http) as http:
        # A refresh token is not an access token, and an access token is not a refresh token.
        assert (
            await http.get("/api/me", headers=bearer(login["refresh_token"]))
        ).status_code == 401
        wrong = await http.post("/api/auth/refresh", json={"refresh_token": login["token"]})
        assert wrong.status_code == 401
        renewed = await http.post(
            "/api/auth/refresh", json={"refresh_token": login["refresh_token"]}
        )
        assert renewed.status_code == 200, renewed.text
        fresh = renewed.json()
        assert fresh["player_id"] == login["player_id"] and fresh["name"] == "Alice"
        assert fresh["refresh_token"] != login["refresh_token"]
        me = await http.get("/api/me", headers=bearer(fresh["token"]))
        assert me.json()["player_id"] == login["player_id"]
        # The old refresh token was used: it buys nothing more.
        again = await http.post("/api/auth/refresh", json={"refresh_token": login["refresh_token"]})
        assert again.status_code == 401 and "used already" in again.json()["detail"]


async def test_sign_out_revokes_tokens_and_closes_sockets(server_factory: Any) -> None:
    server = await server_factory()
    login = await sign_in(server)
    other = await sign_in(server, "Bob")
    table = await create_table(server, login["token"])
    alice = await join(server, table["table_id"], login["token"])
    bob = await join(server, table["table_id"], other["token"])
    async with httpx.AsyncClient(base_url=server.http) as http:
        assert (await http.post("/api/auth/logout")).status_code == 401
        out = await http.post("/api/auth/logout", headers=bearer(login["token"]))
        assert out.status_code == 204
        me = await http.get("/api/me", headers=bearer(login["token"]))
        assert me.status_code == 401 and "signed out" in me.json()["detail"]
        refresh = await http.post(
            "/api/auth/refresh", json={"refresh_token": login["refresh_token"]}
        )
        assert refresh.status_code == 401 and "signed out" in refresh.json()["detail"]
        assert (await http.get("/api/me", headers=bearer(other["token"]))).status_code == 200
    # The signed-out player's socket is closed; Bob's stays open.
    error = await alice.wait_type("error")
    assert error["code"] == "unauthorized" and "signed out" in error["message"]
    assert await closed_with(alice) == 1008
    await bob.send({"type": "ping"})
    await bob.wait_type("pong")
    again = await signed_in(server.ws_url(f"/ws/tables/{table['table_id']}"), login["token"])
    assert (await again.wait_type("error"))["code"] == "unauthorized"
    assert await closed_with(again) == 1008
    await bob.close()


async def test_revocation_survives_a_restart(server_factory: Any, make_settings: Any) -> None:
    first = await server_factory()
    login = await sign_in(first)
    kept = await sign_in(first, "Bob")
    async with httpx.AsyncClient(base_url=first.http) as http:
        assert (await http.post("/api/auth/logout", headers=bearer(login["token"]))).status_code
    await first.stop()
    second = await RunningServer(make_settings()).start()  # same database, nothing in memory
    try:
        async with httpx.AsyncClient(base_url=second.http) as http:
            assert (await http.get("/api/me", headers=bearer(login["token"]))).status_code == 401
            refresh = await http.post(
                "/api/auth/refresh", json={"refresh_token": login["refresh_token"]}
            )
            assert refresh.status_code == 401
            assert (await http.get("/api/me", headers=bearer(kept["token"]))).status_code == 200
    finally:
        await second.stop()


async def test_a_token_in_the_socket_url_is_refused(server: RunningServer) -> None:
    login = await sign_in(server)
    table = await create_table(server, login["token"])
    url = server.ws_url(f"/ws/tables/{table['table_id']}?token={login['token']}")
    client = await WsClient.connect(url)
    error = await client.wait_type("error")
    assert error["code"] == "unauthorized" and "not accepted in the URL" in error["message"]
    assert await closed_with(client) == 1008
    assert not any(m["type"] == "welcome" for m in client.received)


async def test_tokens_from_another_key_or_without_a_session_are_refused(
    server: RunningServer,
) -> None:
    login = await sign_in(server)
    claims = jwt.decode(login["token"], options={"verify_signature": False})
    secret = server.settings.secret_key
    no_session = jwt.encode({k: v for k, v in claims.items() if k != "sid"}, secret, "HS256")
    made_up = jwt.encode({**claims, "sid": "nosuchsession"}, secret, "HS256")
    async with httpx.AsyncClient(base_url=server.http) as http:
        for token in (no_session, made_up):
            assert (await http.get("/api/me", headers=bearer(token))).status_code == 401


async def test_sign_ins_cannot_be_checked_while_the_database_fails(
    server: RunningServer, mongo_url: str
) -> None:
    """Fail closed, but say "try again" (1013, 503), not "signed out"."""
    login = await sign_in(server)
    table = await create_table(server, login["token"])
    admin: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(mongo_url)
    fail_next_find = {"failCommands": ["find"], "errorCode": 2, "errmsg": "injected"}
    try:
        await admin.admin.command(
            "configureFailPoint", "failCommand", mode={"times": 1}, data=fail_next_find
        )
        client = await signed_in(server.ws_url(f"/ws/tables/{table['table_id']}"), login["token"])
        assert await closed_with(client) == 1013
        assert not any(m["type"] in ("welcome", "error") for m in client.received)
        await admin.admin.command(
            "configureFailPoint", "failCommand", mode={"times": 1}, data=fail_next_find
        )
        async with httpx.AsyncClient(base_url=server.http) as http:
            refused = await http.get("/api/me", headers=bearer(login["token"]))
            assert refused.status_code == 503 and refused.headers["Retry-After"] == "1"
            assert (await http.get("/api/me", headers=bearer(login["token"]))).status_code == 200
    finally:
        await admin.admin.command("configureFailPoint", "failCommand", mode="off")
        await admin.close()
