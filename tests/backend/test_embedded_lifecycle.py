"""The embedded database's process dies with `showdown serve`, however serve ends.

A database left running by a killed serve keeps its data directory, its port and
any pipe it inherited; SecantusDB's SIGTERM handler can deadlock when signals
arrive close together, so the parent-death signal must be one no handler delays.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
import textwrap

# A parent that starts a child as EmbeddedMongo starts the database, prints its pid,
# and waits. The child ignores SIGTERM, as a deadlocked handler in effect does.
PARENT = textwrap.dedent(
    """
    import subprocess, sys, time
    from backend.db.embedded import _database_child
    child = subprocess.Popen(
        [sys.executable, "-c",
         "import signal, sys, time; signal.signal(signal.SIGTERM, signal.SIG_IGN);"
         "print('ready', flush=True); time.sleep(600)"],
        stdout=subprocess.PIPE, preexec_fn=_database_child,
    )
    child.stdout.readline()
    print(child.pid, flush=True)
    time.sleep(600)
    """
)


def test_the_database_dies_with_its_parent_even_when_it_would_not_stop_on_sigterm() -> None:
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL
    )
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        exited = os.pidfd_open(child)  # readable once the child has exited
        try:
            parent.kill()
            parent.wait(30)
            readable, _, _ = select.select([exited], [], [], 30)
            assert readable, "the database outlived its killed parent"
        finally:
            os.close(exited)
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
