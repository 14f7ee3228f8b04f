"""The embedded database's process: SecantusDB's server with a short GIL switch interval.

SecantusDB is a Python server that runs each command on a thread of its own behind one
GIL. A thread that gives the GIL up for I/O (a table's journaled write reading its
socket, syncing the journal) waits for the running thread to hand it back, up to the
interpreter's switch interval (5 ms) every time; under `showdown bench server` the
statistics' large batches then held the tables' writes for several of those waits
each. At 0.5 ms the tables' held states' p99 fell by half and more in paired runs
(docs/experiments/2026-11-29-database-switch-interval.md).

Run as `python -m backend.db.secantus_child ARGS`; ARGS are `secantusd-py`'s.
"""

from __future__ import annotations

import sys

# Seconds a thread runs before the interpreter asks it to let another take the GIL.
SWITCH_INTERVAL = 0.0005


def main() -> int:
    from secantus.cli import main as secantus_main  # the embedded-db extra

    sys.setswitchinterval(SWITCH_INTERVAL)
    sys.argv[0] = "secantusd-py"  # its usage and logs name the server, not this module
    code: int = secantus_main()  # the package has no type information
    return code


if __name__ == "__main__":
    sys.exit(main())
