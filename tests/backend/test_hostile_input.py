"""What a hostile client sends that is not quite JSON, or JSON no well-behaved client
would send: a clear error, nothing changed, no quota charged, no traceback logged."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from backend_testlib import RunningServer, create_table, guest, join
from fastapi.routing import APIRoute

from backend.api.routes import (
    auth,
    hands,
    health,
    players,
    reviews,
    sockets,
    table_stats,
    tables,
)
from backend.api.strict_json import StrictJsonRoute
from protocol.messages import read_client_message

LONE_SURROGATE = '"a\\ud800b"'  # the JSON text of a string with a lone surrogate


@contextmanager
def log_records() -> Iterator[list[logging.LogRecord]]:
    """Every record logged meanwhile, by the app or by uvicorn (whose loggers do not
    propagate to the root)."""
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    handler = Keep(logging.DEBUG)
    loggers = [logging.getLogger(n) for n in ("", "uvicorn", "uvicorn.error", "uvicorn.access")]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield records
    finally:
        for logger in loggers:
            logger.removeHandler(handler)


async def post_raw(
    server: RunningServer, path: str, text: str, token: str | None = None
) -> httpx.Response:
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    async with httpx.AsyncClient(base_url=server.http) as http:
        return await http.post(path, content=text.encode(), headers=headers)


def reason(response: httpx.Response) -> str:
    [error] = response.json()["detail"]
    return str(error["ctx"]["error"])


async def test_lone_surrogates_and_nan_get_a_clear_422_before_any_quota(
    server_factory: Any,
) -> None:
    server = await server_factory(signin_burst=1, table_create_burst=1)
    cases = [
        ("/api/auth/guest", f'{{"name": {LONE_SURROGATE}}}', "lone surrogate"),
        ("/api/auth/login", f'{{"name": {LONE_SURROGATE}, "password": "whatever1"}}', "lone"),
        ("/api/auth/login", f'{{"name": "Alice", "password": {LONE_SURROGATE}}}', "lone"),
    ]
    with log_records() as records:
        for path, text, why in cases:
            refused = await post_raw(server, path, text)
            assert refused.status_code == 422, (path, refused.text)
            assert why in reason(refused)
        token, _ = await guest(server, "Alice")  # the one sign-in of the quota is still there
        for text, why in (
            (f'{{"name": {LONE_SURROGATE}}}', "lone surrogate"),
            ('{"action_timeout": NaN}', "NaN is not a JSON number"),
            ('{"time_bank": Infinity}', "Infinity is not a JSON number"),
            ('{"small_blind": -Infinity}', "-Infinity is not a JSON number"),
            ("[" * 1000 + "]" * 1000, "recursion limit"),
        ):
            refused = await post_raw(server, "/api/tables", text, token)
            assert refused.status_code == 422, (text[:40], refused.text)
            assert why in reason(refused), refused.text
        await create_table(server, token)  # nor was the one table creation
    assert not [r for r in records if r.exc_info or r.levelno >= logging.ERROR]
    assert len(records) <= len(cases) + 6  # at most one line a request


async def test_rest_integers_are_strict(server: RunningServer) -> None:
    token, _ = await guest(server, "Alice")
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=server.http, headers=headers) as http:
        for fields in (
            {"small_blind": "50"},
            {"big_blind": 100.0},
            {"seats": True},
            {"ante": "0"},
            {"bots": "1"},
            {"raise_cap": "4"},
            {"action_timeout": "10"},
            {"advice_allowed": "false"},
        ):
            refused = await http.post("/api/tables", json=fields)
            assert refused.status_code == 422, (fields, refused.text)
            [field] = fields
            assert field in refused.text
        assert (await http.get("/api/tables")).json() == []  # nothing was created
        made = await http.post("/api/tables", json={"small_blind": 50, "action_timeout": 10})
        assert made.status_code == 201 and made.json()["action_timeout"] == 10.0


def test_every_rest_route_parses_strict_json() -> None:
    modules = (auth, hands, health, players, reviews, sockets, table_stats, tables)
    routes = [r for m in modules for r in m.router.routes if isinstance(r, APIRoute)]
    assert len(routes) > 10 and all(isinstance(r, StrictJsonRoute) for r in routes)


async def test_deeply_nested_frames_get_bad_json_and_keep_the_socket(
    server: RunningServer,
) -> None:
    token, _ = await guest(server, "Alice")
    table = await create_table(server, token)
    alice = await join(server, table["table_id"], token)
    nested = "[" * 1000 + "]" * 1000  # 2 KB, within the frame limit
    with log_records() as records:
        await alice.send(nested)
        error = await alice.wait_type("error")
        assert error["code"] == "bad_json" and error["ref"] is None
        await alice.send({"type": "ping", "ref": "still here"})
        assert (await alice.wait_type("pong"))["ref"] == "still here"
    assert not [r for r in records if r.exc_info]
    await alice.close()


@pytest.mark.parametrize("depth", [150, 1000])
def test_ref_is_recovered_without_recursion(depth: int) -> None:
    nested = "[" * depth + "]" * depth
    answer = read_client_message('{"type": "dance", "ref": "r1", "x": ' + nested + "}")
    assert answer.type == "error" and answer.code in ("unknown_type", "bad_json")
