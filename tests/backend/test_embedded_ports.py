"""Ports chosen for servers we start stay theirs until they bind them.

A port from Linux's ephemeral range can become the source port of any outgoing
connection, or a client retrying it can connect to itself, in the moment between
choosing it and a server binding it: `showdown serve` then failed to start.
"""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from pymongo import MongoClient

from backend.db.embedded import EmbeddedDatabaseError, EmbeddedMongo, _ephemeral_low, free_port


def test_a_chosen_port_is_below_the_range_outgoing_connections_use() -> None:
    low = _ephemeral_low()
    assert low is not None  # Linux: the range is known
    ports = {free_port() for _ in range(20)}
    assert all(port < low for port in ports)
    for port in ports:  # and nothing listens there
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", port))


def test_the_database_starts_on_another_port_when_its_chosen_one_was_taken(
    tmp_path: Path,
) -> None:
    database = EmbeddedMongo(tmp_path / "mongo")
    taken = database.port
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", taken))
        squatter.listen()
        with database:
            assert database.port != taken
            with MongoClient(database.url, serverSelectionTimeoutMS=10000) as client:
                assert client.admin.command("ping")["ok"] == 1


def test_a_port_given_by_the_caller_never_moves(tmp_path: Path) -> None:
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        port = squatter.getsockname()[1]
        database = EmbeddedMongo(None, port=port)
        try:
            with pytest.raises(EmbeddedDatabaseError, match="during start-up"):
                database.start()
        finally:
            database.close()
        assert database.port == port
