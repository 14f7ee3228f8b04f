"""A stolen session ends: a password change ends every other session, signing out
everywhere ends them all, and a spent refresh token coming back revokes its session."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from backend_testlib import RunningServer, WsClient, create_table, join
from websockets.exceptions import ConnectionClosed


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def post(
    server: RunningServer, path: str, body: dict[str, Any] | None = None, token: str | None = None
) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.http) as http:
        headers = bearer(token) if token is not None else {}
        return await http.post(path, json=body, headers=headers)


async def me(server: RunningServer, token: str) -> int:
    async with httpx.AsyncClient(base_url=server.http) as http:
        return (await http.get("/api/me", headers=bearer(token))).status_code


async def signed_in_with_password(server: RunningServer, name: str, password: str) -> Any:
    """A guest who protects the name, then a second session from a password sign-in."""
    guest = await post(server, "/api/auth/guest", {"name": name})
    assert guest.status_code == 201, guest.text
    first = guest.json()
    done = await post(server, "/api/auth/password", {"password": password}, first["token"])
    assert done.status_code == 200, done.text
    second = await post(server, "/api/auth/login", {"name": name, "password": password})
    assert second.status_code == 200, second.text
    return first, second.json()


async def closed_code(client: WsClient) -> int:
    with pytest.raises(ConnectionClosed) as closed:
        await client.wait_type("never")
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code


async def test_a_password_change_ends_every_other_session(server: RunningServer) -> None:
    # "first" is the thief's copy, "mine" the owner who changes the password.
    thief, mine = await signed_in_with_password(server, "Alice", "first secret")
    bystander = (await post(server, "/api/auth/guest", {"name": "Bob"})).json()
    table = await create_table(server, mine["token"])
    thief_socket = await join(server, table["table_id"], thief["token"])
    changed = await post(
        server,
        "/api/auth/password",
        {"password": "second secret", "current_password": "first secret"},
        mine["token"],
    )
    assert changed.status_code == 200, changed.text
    # The other session's access token is refused at once (checked on every call),
    # its refresh token buys nothing, and its open socket is closed.
    assert await me(server, thief["token"]) == 401
    stolen = await post(server, "/api/auth/refresh", {"refresh_token": thief["refresh_token"]})
    assert stolen.status_code == 401 and "signed out" in stolen.json()["detail"]
    error = await thief_socket.wait_type("error")
    assert error["code"] == "unauthorized"
    assert await closed_code(thief_socket) == 1008
    # The session that changed the password goes on, and so do other players'.
    assert await me(server, mine["token"]) == 200
    renewed = await post(server, "/api/auth/refresh", {"refresh_token": mine["refresh_token"]})
    assert renewed.status_code == 200
    assert await me(server, bystander["token"]) == 200


async def test_signing_out_everywhere_ends_every_session(server: RunningServer) -> None:
    first, second = await signed_in_with_password(server, "Carol", "carol's secret")
    bystander = (await post(server, "/api/auth/guest", {"name": "Dan"})).json()
    assert (await post(server, "/api/auth/logout-all")).status_code == 401
    out = await post(server, "/api/auth/logout-all", token=second["token"])
    assert out.status_code == 204
    for session in (first, second):
        assert await me(server, session["token"]) == 401
        refused = await post(
            server, "/api/auth/refresh", {"refresh_token": session["refresh_token"]}
        )
        assert refused.status_code == 401
    assert await me(server, bystander["token"]) == 200
    # The password still signs in: only the sessions ended.
    again = await post(server, "/api/auth/login", {"name": "Carol", "password": "carol's secret"})
    assert again.status_code == 200 and await me(server, again.json()["token"]) == 200


async def test_a_spent_refresh_token_revokes_its_session(server_factory: Any) -> None:
    server = await server_factory(refresh_reuse_grace=0.0)
    login = (await post(server, "/api/auth/guest", {"name": "Erin"})).json()
    other = (await post(server, "/api/auth/guest", {"name": "Fay"})).json()
    table = await create_table(server, login["token"])
    # The thief refreshes with a copy of the token first; the owner's copy is now spent.
    thief = await post(server, "/api/auth/refresh", {"refresh_token": login["refresh_token"]})
    assert thief.status_code == 200
    stolen = thief.json()
    thief_socket = await join(server, table["table_id"], stolen["token"])
    owner = await post(server, "/api/auth/refresh", {"refresh_token": login["refresh_token"]})
    assert owner.status_code == 401 and "used already" in owner.json()["detail"]
    # The reuse ended the session: the thief's newer tokens and socket die with it.
    onwards = await post(server, "/api/auth/refresh", {"refresh_token": stolen["refresh_token"]})
    assert onwards.status_code == 401 and "signed out" in onwards.json()["detail"]
    assert await me(server, stolen["token"]) == 401
    assert (await thief_socket.wait_type("error"))["code"] == "unauthorized"
    assert await closed_code(thief_socket) == 1008
    assert await me(server, other["token"]) == 200


async def test_two_tabs_refreshing_at_once_keep_the_session(server: RunningServer) -> None:
    """Within the grace (10 s by default) the token spent last is refused without
    revoking: two tabs sharing a session that refresh together stay signed in."""
    login = (await post(server, "/api/auth/guest", {"name": "Gus"})).json()
    first = await post(server, "/api/auth/refresh", {"refresh_token": login["refresh_token"]})
    late = await post(server, "/api/auth/refresh", {"refresh_token": login["refresh_token"]})
    assert first.status_code == 200 and late.status_code == 401
    assert "used already" in late.json()["detail"]
    winner = first.json()
    assert await me(server, winner["token"]) == 200
    onwards = await post(server, "/api/auth/refresh", {"refresh_token": winner["refresh_token"]})
    assert onwards.status_code == 200
    # A token spent two rotations ago is a theft, whatever the grace.
    stale = await post(server, "/api/auth/refresh", {"refresh_token": login["refresh_token"]})
    assert stale.status_code == 401
    assert await me(server, onwards.json()["token"]) == 401
