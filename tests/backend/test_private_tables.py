"""Private tables on the real server (#34): unlisted, never shown to a non-player by any
endpoint that lists or describes tables; the invite link admits; a revoked or replaced
link refuses; only the host manages the link."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from backend_testlib import RunningServer, WsClient, create_table, guest
from websockets.exceptions import ConnectionClosed

Message = dict[str, Any]


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


async def listed(server: RunningServer, token: str | None) -> set[str]:
    async with httpx.AsyncClient(base_url=server.http) as http:
        response = await http.get("/api/tables", headers=bearer(token))
        response.raise_for_status()
        return {t["table_id"] for t in response.json()}


async def described(
    server: RunningServer, table_id: str, token: str | None, invite: str | None = None
) -> httpx.Response:
    params = {"invite": invite} if invite else {}
    async with httpx.AsyncClient(base_url=server.http) as http:
        return await http.get(f"/api/tables/{table_id}", headers=bearer(token), params=params)


async def stats_of(server: RunningServer, table_id: str, token: str | None) -> Message:
    async with httpx.AsyncClient(base_url=server.http) as http:
        response = await http.get(
            "/api/table-stats", headers=bearer(token), params={"table_id": table_id}
        )
        response.raise_for_status()
        body: Message = response.json()
        return body


async def opened(server: RunningServer, table_id: str, token: str, invite: str | None) -> WsClient:
    """A table socket signed in with the invite; the caller expects welcome or a refusal."""
    client = await WsClient.connect(server.ws_url(f"/ws/tables/{table_id}"))
    await client.send({"type": "auth", "token": token, "invite": invite})
    return client


async def refused(client: WsClient) -> None:
    error = await client.wait_type("error")
    assert error["code"] == "unknown_table"  # told as for a table that does not exist
    with pytest.raises(ConnectionClosed) as closed:
        await client.wait_type("never")
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4004


async def invite_call(
    server: RunningServer, table_id: str, token: str, method: str
) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.http) as http:
        return await http.request(method, f"/api/tables/{table_id}/invite", headers=bearer(token))


async def test_a_private_table_is_seen_only_by_its_players_and_the_link(
    server: RunningServer,
) -> None:
    host, host_id = await guest(server, "Hana")
    carol, _ = await guest(server, "Carol")
    table = await create_table(server, host, name="Friday", seats=4, bots=1, private=True)
    table_id, invite = table["table_id"], table["invite"]
    assert table["private"] and table["host_id"] == host_id and len(invite) >= 20
    public = await create_table(server, carol, seats=2)

    # Nobody but its players sees it: not listed, not described, no figures, no socket.
    assert await listed(server, None) == {public["table_id"]}
    assert await listed(server, carol) == {public["table_id"]}
    assert await listed(server, host) == {public["table_id"], table_id}
    assert (await described(server, table_id, None)).status_code == 404
    assert (await described(server, table_id, carol)).status_code == 404
    assert (await stats_of(server, table_id, carol))["total"] == 0
    await refused(await opened(server, table_id, carol, None))
    await refused(await opened(server, table_id, carol, "x" * 24))
    # Its name is not given away by a refusal either: another table may take it.
    assert (await create_table(server, carol, name="Friday", seats=2))["name"] == "Friday"

    # The link admits: described with it (without the token), then opened, then listed.
    seen = await described(server, table_id, carol, invite)
    assert seen.status_code == 200 and seen.json()["invite"] is None  # for the host only
    carol_ws = await opened(server, table_id, carol, invite)
    assert (await carol_ws.wait_type("welcome"))["table_id"] == table_id
    assert table_id in await listed(server, carol)
    await carol_ws.close()

    # Only the host manages the link.
    assert (await invite_call(server, table_id, carol, "POST")).status_code == 403
    assert (await invite_call(server, table_id, carol, "DELETE")).status_code == 403
    assert (await invite_call(server, public["table_id"], carol, "POST")).status_code == 409

    # Revoked: the old link refuses a newcomer (and those it admitted without a seat).
    dave, _ = await guest(server, "Dave")
    assert (await invite_call(server, table_id, host, "DELETE")).json()["invite"] is None
    assert (await described(server, table_id, dave, invite)).status_code == 404
    await refused(await opened(server, table_id, dave, invite))
    assert table_id not in await listed(server, carol)

    # A new link admits; the revoked one still refuses.
    renewed = (await invite_call(server, table_id, host, "POST")).json()["invite"]
    assert renewed and renewed != invite
    assert (await described(server, table_id, host)).json()["invite"] == renewed
    await refused(await opened(server, table_id, dave, invite))
    dave_ws = await opened(server, table_id, dave, renewed)
    assert (await dave_ws.wait_type("welcome"))["table_id"] == table_id
    await dave_ws.close()
