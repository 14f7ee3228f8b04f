"""A database child that died while we talk to it is noticed at the next try, not after
the whole wait: its client's server selection would only time out (5 s a start)."""

from __future__ import annotations

import subprocess
from collections.abc import Callable

import pytest
from pymongo import MongoClient
from pymongo.errors import ServerSelectionTimeoutError

from backend.db.embedded import EmbeddedMongo

Request = Callable[[MongoClient[dict[str, object]]], str]

NOWHERE = "mongodb://127.0.0.1:1"  # never contacted: the requests below answer themselves


def request_failing(times: int, calls: list[int]) -> Request:
    """A request whose first `times` tries find no server."""

    def request(client: MongoClient[dict[str, object]]) -> str:
        calls.append(len(calls))
        if len(calls) <= times:
            raise ServerSelectionTimeoutError("no server selected (this test's)")
        return "answered"

    return request


def test_a_running_child_is_asked_again_until_it_answers() -> None:
    database = EmbeddedMongo(None)
    database.process = subprocess.Popen(["sleep", "60"])
    try:
        calls: list[int] = []
        assert database._ask(NOWHERE, request_failing(2, calls)) == "answered"
        assert len(calls) == 3
    finally:
        database.process.kill()
        database.process.wait()


def test_a_child_that_exited_is_given_up_on_after_one_try() -> None:
    database = EmbeddedMongo(None)
    database.process = subprocess.Popen(["true"])
    database.process.wait()
    calls: list[int] = []
    with pytest.raises(ServerSelectionTimeoutError):
        database._ask(NOWHERE, request_failing(99, calls))
    assert len(calls) == 1
