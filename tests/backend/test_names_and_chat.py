"""One rule for names and chat, blank-looking names refused, and names that look like a
password-protected name (Unicode's confusables skeleton) refused."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from backend_testlib import RunningServer, create_table, guest, join

from backend.confusables import skeleton
from backend.names import lookalike_keys


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def post(server: RunningServer, path: str, body: dict[str, Any], **kw: Any) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.http) as http:
        return await http.post(path, json=body, **kw)


async def test_chat_follows_the_names_rule(server: RunningServer) -> None:
    token, _ = await guest(server, "Alice")
    table = await create_table(server, token)
    alice = await join(server, table["table_id"], token)
    for bad, why in (
        ("look \u202eevil", "bidirectional"),
        ("isolate \u2066here", "bidirectional"),
        ("zero\u200bwidth", "zero-width"),
        ("bell\x07", "control"),
        ("\x1b[31mred", "control"),
        ("\u2800", "shows nothing"),
        ("\u3164\u3164", "shows nothing"),
    ):
        await alice.send({"type": "chat", "text": bad, "ref": "c"})
        error = await alice.wait_type("error")
        assert error["code"] == "bad_message" and error["ref"] == "c", bad
        assert why in error["message"], (bad, error["message"])
    # Nothing of it was said; a good line is, its whitespace tidied as names' is.
    await alice.send({"type": "chat", "text": "  gg \t wp ½ "})
    said = await alice.wait_type("chat")
    assert said["text"] == "gg wp ½"
    assert [m for m in alice.received if m["type"] == "chat"] == [said]
    await alice.close()


async def test_blank_looking_names_are_refused(server: RunningServer) -> None:
    token, _ = await guest(server, "Alice")
    for blank in ("\u3164", "\u2800", "\u3164 \u2800", "\uffa0", "\u115f\u1160", "\u034f"):
        refused = await post(server, "/api/auth/guest", {"name": blank})
        assert refused.status_code == 422 and "shows nothing" in refused.text, blank
        table = await post(server, "/api/tables", {"name": blank}, headers=bearer(token))
        assert table.status_code == 422 and "shows nothing" in table.text, blank
    # A visible name may carry such characters (an emoji's variation selector).
    ok = await post(server, "/api/auth/guest", {"name": "Zoë ❤\ufe0f"})
    assert ok.status_code == 201


@pytest.mark.parametrize(
    ("protected", "lookalike"),
    [
        ("Paul", "\u0420aul"),  # Cyrillic capital ER
        ("Paul", "\u0440aul"),  # Cyrillic small er, any case
        ("Alice", "AIice"),  # capital I for small l
        ("Alice", "\u0391lice"),  # Greek capital alpha
        ("Bob", "B\u043eb"),  # Cyrillic small o
        ("Bob", "Bob\u3164"),  # a blank filler after the name
        ("Sam", "Sarn"),  # r n for m
    ],
)
async def test_names_that_look_like_a_protected_name_are_refused(
    server: RunningServer, protected: str, lookalike: str
) -> None:
    owner = await post(server, "/api/auth/guest", {"name": protected})
    assert owner.status_code == 201
    # Before the name is protected, look-alikes are names like any other.
    early = await post(server, "/api/auth/guest", {"name": lookalike})
    assert early.status_code == 201
    done = await post(
        server,
        "/api/auth/password",
        {"password": "owner's secret"},
        headers=bearer(owner.json()["token"]),
    )
    assert done.status_code == 200
    refused = await post(server, "/api/auth/guest", {"name": lookalike})
    assert refused.status_code == 409, refused.text
    assert f"looks like {protected}" in refused.json()["detail"]
    # Nor may the early look-alike protect its own name now.
    late = await post(
        server,
        "/api/auth/password",
        {"password": "thief's secret"},
        headers=bearer(early.json()["token"]),
    )
    assert late.status_code == 409 and "looks like" in late.json()["detail"]
    # Names that only share letters stay free.
    assert (await post(server, "/api/auth/guest", {"name": protected + "2"})).status_code == 201


def test_the_skeleton_is_unicodes() -> None:
    """Examples of UTS #39: the skeleton maps look-alikes to one prototype."""
    assert skeleton("\U0001d52d\U0001d4b6\u1eff\U0001d561\U0001d552\u2113") == skeleton("paypal")
    assert skeleton("\u0440\u0430ypal") == "paypal"
    assert skeleton("m") == "rn" and skeleton("I") == "l"
    assert lookalike_keys("Paul") == lookalike_keys("\u0420AUL") == ["paul"]
    assert lookalike_keys("Alice") != lookalike_keys("Alicia")
