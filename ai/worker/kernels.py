"""Fill numba's disk cache with every kernel the AI worker compiles at start.

`python -m ai.worker.kernels`: `make test` runs it once after installing, before the
browser tests' server and the pytest workers start, and pytest's session does too. Each
of their processes then loads the machine code (about two seconds of CPU) instead of
compiling the same kernels at the same time as the others (about 30 s of CPU each in a
fresh clone, minutes of wall time on a busy machine).
"""

from __future__ import annotations

from ai.search.warm import warm
from ai.worker.decider import warm_up


def main() -> None:
    warm()  # the search's kernels (bots, advice, reviews)
    warm_up()  # and the other bots' paths: preflop table, rollouts, ranges


if __name__ == "__main__":
    main()
