"""The embedded database with a data directory: password required, owner-only files."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
from pymongo import MongoClient
from pymongo.errors import OperationFailure

from backend.db.embedded import EmbeddedDatabaseError, EmbeddedMongo

pytestmark = pytest.mark.slow  # three database starts: the first one creates the user


def modes(root: Path) -> dict[str, int]:
    found = {str(root): stat.S_IMODE(root.stat().st_mode)}
    for path in root.rglob("*"):
        found[str(path.relative_to(root))] = stat.S_IMODE(path.stat().st_mode)
    return found


def test_a_stored_database_needs_its_password_and_keeps_its_files_private(
    tmp_path: Path,
) -> None:
    data = tmp_path / "mongo"
    data.mkdir(mode=0o755)  # as an older version left it
    (data / "old-notes.txt").write_text("left over")
    (data / "old-notes.txt").chmod(0o644)
    with EmbeddedMongo(data) as database:
        assert database.host == "127.0.0.1"
        credentials = json.loads((data / "credentials.json").read_text())
        assert credentials["user"] == "showdown" and len(credentials["password"]) >= 24
        assert credentials["password"] in database.url
        assert credentials["password"] not in database.address  # what the logs show
        client: MongoClient[dict[str, object]]
        with MongoClient(database.address, serverSelectionTimeoutMS=5000) as client:
            with pytest.raises(OperationFailure, match="requires authentication"):
                client.showdown.hands.find_one()
            with pytest.raises(OperationFailure):
                client.showdown.tables.insert_one({"_id": "t1", "stack": 10**6})
        wrong = database.url.replace(credentials["password"], "guess")
        with (
            MongoClient(wrong, serverSelectionTimeoutMS=5000) as client,
            pytest.raises(OperationFailure),
        ):
            client.showdown.hands.find_one()
        with MongoClient(database.url, serverSelectionTimeoutMS=5000) as client:
            client.showdown.hands.insert_one({"_id": "h1"})
            assert client.showdown.hands.find_one({"_id": "h1"}) == {"_id": "h1"}
        found = modes(data)
    # Every directory owner-only, every file owner-only, the database's own included.
    assert found.pop(str(data)) == 0o700
    assert found, "the database wrote no files"
    for name, mode in found.items():
        expected = 0o700 if (data / name).is_dir() else 0o600
        assert mode == expected, (name, oct(mode))
    # Started again: the same credentials, the data still there.
    with (
        EmbeddedMongo(data) as again,
        MongoClient(again.url, serverSelectionTimeoutMS=5000) as client,
    ):
        assert client.showdown.hands.count_documents({}) == 1
    assert json.loads((data / "credentials.json").read_text()) == credentials


def test_the_embedded_database_listens_on_loopback_only(tmp_path: Path) -> None:
    with pytest.raises(EmbeddedDatabaseError, match="loopback"):
        EmbeddedMongo(tmp_path, host="0.0.0.0")
