"""A kill while the database creates a collection's table must not stop every start after.

SecantusDB creates a documents table on the first write to a collection; a SIGKILL
between WiredTiger's metadata steps left a table with no column group, and the
database then exited at every start (seen in the fault bench). The state is made
here as the kill leaves it: a table entry whose column group never came.
"""

from __future__ import annotations

from pathlib import Path

import wiredtiger
from pymongo import MongoClient

from backend.db.embedded import EmbeddedMongo
from backend.db.half_created import _without_column_group, drop_half_created_tables

# A documents shard no collection of this test routes to (the shards are 0-15).
_HALF_CREATED = "table:secantus_documents_sh8"


def _leave_half_created(home: Path) -> None:
    """The table's metadata as a kill between its steps leaves it: no column group."""
    connection = wiredtiger.wiredtiger_open(
        str(home), "log=(enabled=true,file_max=10MB,prealloc=false)"
    )
    session = connection.open_session(None)
    session.drop(_HALF_CREATED, "force=true")
    # Named columns with a column group declared but never created.
    session.create(_HALF_CREATED, "key_format=SSq,value_format=u,columns=(d,c,n,v),colgroups=(g)")
    connection.close(None)


def test_the_database_starts_again_after_a_kill_half_created_a_table(tmp_path: Path) -> None:
    data = tmp_path / "mongo"
    with EmbeddedMongo(data) as database, MongoClient(database.url) as client:
        client.showdown.hands.insert_one({"_id": "h1", "chips": 100})
    _leave_half_created(data / "db")

    # Before the mend the database exited at this start, and at every one after.
    with EmbeddedMongo(data) as database, MongoClient(database.url) as client:
        assert client.showdown.hands.find_one({"_id": "h1"}) == {"_id": "h1", "chips": 100}
        client.showdown.more.insert_one({"_id": "x"})  # writes go on
    assert drop_half_created_tables(data / "db") == []  # nothing left to mend


def test_only_tables_without_a_column_group_count_as_half_created() -> None:
    keys = [
        "table:secantus_documents_sh1",
        "colgroup:secantus_documents_sh1",
        "file:secantus_documents_sh1.wt",
        "table:named",
        "colgroup:named:g",
        "table:secantus_documents_sh8",
    ]
    assert _without_column_group(keys) == ["table:secantus_documents_sh8"]
