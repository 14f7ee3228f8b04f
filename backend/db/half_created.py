"""Tables a kill left half-created in the embedded database's files, dropped.

SecantusDB creates a collection's documents table on the first write to it, and
WiredTiger writes a table's metadata in steps: a SIGKILL between them leaves a
table entry whose column group never came. The database then refuses to open
("cannot be used until all column groups are created") and would refuse at every
restart after. Such a table never held a row, so dropping it loses nothing and the
database creates it again on the next write. Run only while no server has the
files open (WiredTiger's own lock makes a second opener fail, and then this does
nothing).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

# As SecantusDB opens its files: the journal must be replayed the same way.
_OPEN_CONFIG = "log=(enabled=true,file_max=10MB,prealloc=false)"
_TABLE = "table:"
_GROUP = "colgroup:"


def _metadata_keys(session: Any) -> list[str]:
    meta = session.open_cursor("metadata:", None, None)
    try:
        keys: list[str] = []
        while meta.next() == 0:
            keys.append(str(meta.get_key()))
        return keys
    finally:
        meta.close()


def _without_column_group(keys: list[str]) -> list[str]:
    """Tables no column group belongs to: their rows would live in a column group's
    file, so they never held one. (A table that only fails to open, say for want of
    an extension, is left alone: it may hold data.)"""
    groups = {key.removeprefix(_GROUP).split(":")[0] for key in keys if key.startswith(_GROUP)}
    return [
        key for key in keys if key.startswith(_TABLE) and key.removeprefix(_TABLE) not in groups
    ]


def drop_half_created_tables(home: Path) -> list[str]:
    """Drop every table of the WiredTiger files at `home` that has no column group;
    returns their names. Nothing happens when there are no files or they are in use."""
    if not (home / "WiredTiger").exists():
        return []
    import wiredtiger  # comes with the embedded database's extra only

    try:
        connection = wiredtiger.wiredtiger_open(str(home), _OPEN_CONFIG)
    except wiredtiger.WiredTigerError as error:  # in use, or not ours to mend
        log.warning("database files not checked", extra={"home": str(home), "error": str(error)})
        return []
    dropped: list[str] = []
    try:
        session = connection.open_session(None)
        for table in _without_column_group(_metadata_keys(session)):
            session.drop(table, "force=true")
            dropped.append(table)
    finally:
        connection.close(None)
    if dropped:
        log.warning("dropped tables a kill left half-created", extra={"tables": dropped})
    return dropped
