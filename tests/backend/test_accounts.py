"""Keeping one's identity: a password on the guest account, sign-in with name and password,
protected names, rate limits, and the hash stored (never the password)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from backend_testlib import RunningServer

import backend.passwords
from backend.passwords import verify_password


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def post(server: RunningServer, path: str, body: dict[str, Any], **kw: Any) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.http) as http:
        return await http.post(path, json=body, **kw)


async def guest(server: RunningServer, name: str) -> dict[str, Any]:
    response = await post(server, "/api/auth/guest", {"name": name})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


async def test_a_password_keeps_the_player_across_sign_outs(server: RunningServer) -> None:
    alice = await guest(server, "Alice")
    async with httpx.AsyncClient(base_url=server.http) as http:
        me = (await http.get("/api/me", headers=bearer(alice["token"]))).json()
        assert me == {"player_id": alice["player_id"], "name": "Alice", "has_password": False}
        short = await http.post(
            "/api/auth/password", json={"password": "short"}, headers=bearer(alice["token"])
        )
        assert short.status_code == 422
        assert (await http.get("/api/me", headers=bearer(alice["token"]))).json()[
            "has_password"
        ] is False
        done = await http.post(
            "/api/auth/password", json={"password": "correct horse"}, headers=bearer(alice["token"])
        )
        assert done.status_code == 200, done.text
        assert done.json()["has_password"] is True
        assert (
            await http.post("/api/auth/logout", headers=bearer(alice["token"]))
        ).status_code == 204
        # Back with name and password (any case): the same player, so the same history.
        again = await http.post(
            "/api/auth/login", json={"name": " alice ", "password": "correct horse"}
        )
        assert again.status_code == 200, again.text
        assert again.json()["player_id"] == alice["player_id"] and again.json()["name"] == "Alice"
        me = (await http.get("/api/me", headers=bearer(again.json()["token"]))).json()
        assert me["player_id"] == alice["player_id"] and me["has_password"] is True
        wrong = await http.post("/api/auth/login", json={"name": "Alice", "password": "wrong one"})
        assert wrong.status_code == 401 and "wrong password" in wrong.json()["detail"]
        # A new guest cannot take the protected name, in any case or spacing.
        taken = await http.post("/api/auth/guest", json={"name": "ALICE"})
        assert taken.status_code == 409 and "protected by a password" in taken.json()["detail"]
    # Only a scrypt hash is stored, and it verifies.
    doc = await server.state.mongo.db.players.find_one({"_id": alice["player_id"]})
    assert doc is not None and "correct horse" not in str(doc)
    assert doc["password_hash"].startswith("scrypt$") and verify_password(
        "correct horse", doc["password_hash"]
    )


async def test_changing_a_password_asks_for_the_current_one(server: RunningServer) -> None:
    bob = await guest(server, "Bob")
    headers = bearer(bob["token"])
    async with httpx.AsyncClient(base_url=server.http) as http:
        assert (
            await http.post("/api/auth/password", json={"password": "first pass"}, headers=headers)
        ).status_code == 200
        for current in (None, "not it at all"):
            refused = await http.post(
                "/api/auth/password",
                json={"password": "second pass", "current_password": current},
                headers=headers,
            )
            assert refused.status_code == 403 and "current password" in refused.json()["detail"]
        changed = await http.post(
            "/api/auth/password",
            json={"password": "second pass", "current_password": "first pass"},
            headers=headers,
        )
        assert changed.status_code == 200
        old = await http.post("/api/auth/login", json={"name": "Bob", "password": "first pass"})
        assert old.status_code == 401
        new = await http.post("/api/auth/login", json={"name": "Bob", "password": "second pass"})
        assert new.status_code == 200 and new.json()["player_id"] == bob["player_id"]


async def test_unprotected_names_behave_as_before(server: RunningServer) -> None:
    first = await guest(server, "Carol")
    second = await guest(server, "Carol")  # no password: a new player, as before
    assert first["player_id"] != second["player_id"]
    refused = await post(server, "/api/auth/login", {"name": "Carol", "password": "anything"})
    assert refused.status_code == 401 and "no password protects" in refused.json()["detail"]
    # One of two players sharing a name protects it; the other then cannot.
    ok = await post(
        server, "/api/auth/password", {"password": "mine now!"}, headers=bearer(first["token"])
    )
    assert ok.status_code == 200
    late = await post(
        server, "/api/auth/password", {"password": "no, mine"}, headers=bearer(second["token"])
    )
    assert late.status_code == 409 and "already protects" in late.json()["detail"]
    doc = await server.state.mongo.db.players.find_one({"_id": second["player_id"]})
    assert doc is not None and "password_hash" not in doc


async def test_password_guesses_are_limited_per_name_from_any_address(
    server_factory: Any,
) -> None:
    server = await server_factory(signin_burst=3, signins_per_hour=1, trusted_proxies=["127.0.0.1"])
    dave = await guest(server, "Dave")
    await post(
        server, "/api/auth/password", {"password": "dave's pw"}, headers=bearer(dave["token"])
    )
    codes = []
    for i in range(4):  # each guess from another address: the name's own limit still holds
        response = await post(
            server,
            "/api/auth/login",
            {"name": "Dave", "password": f"guess {i}"},
            headers={"X-Forwarded-For": f"203.0.113.{i + 10}"},
        )
        codes.append(response.status_code)
    assert codes == [401, 401, 401, 429]
    assert "password attempts for this name" in response.json()["detail"]
    assert int(response.headers["Retry-After"]) > 0
    # Even the right password waits now: nothing is learned by guessing on.
    right = await post(
        server,
        "/api/auth/login",
        {"name": "Dave", "password": "dave's pw"},
        headers={"X-Forwarded-For": "203.0.113.99"},
    )
    assert right.status_code == 429


async def test_login_does_not_tell_which_names_have_a_password(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One answer and one scrypt for "no such protected name" and "wrong password"."""
    derived: list[bytes] = []
    derive = backend.passwords._derive

    def counting(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
        derived.append(salt)
        return derive(password, salt, n, r, p)

    monkeypatch.setattr(backend.passwords, "_derive", counting)
    owner = await guest(server, "Hana")
    await post(
        server, "/api/auth/password", {"password": "hana's pw!"}, headers=bearer(owner["token"])
    )
    await guest(server, "Ivan")  # a guest without a password
    answers = {}
    for name in ("Hana", "Ivan", "Nobody At All"):
        derived.clear()
        response = await post(server, "/api/auth/login", {"name": name, "password": "a guess!"})
        assert response.status_code == 401
        answers[name] = response.json()["detail"].replace(name, "NAME")
        assert len(derived) == 1, name  # the same work: one password hash checked
    assert len(set(answers.values())) == 1, answers
