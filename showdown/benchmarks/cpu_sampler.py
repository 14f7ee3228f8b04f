"""Where a process's CPU goes: its main thread's stack sampled every few ms of CPU time.

A wall-clock sampler (py-spy) counts a thread that is runnable but not running
as busy wherever it stands, and on a loaded host that is most of the time: its
shares were the host's, not the code's. Here SIGPROF fires after every
`interval` seconds of the process's own CPU time (ITIMER_PROF), so each sample
stands for the same CPU spent. Time spent inside C code (a send system call,
pydantic's Rust) is given to the Python frame that is running when the signal's
handler can run, i.e. the caller or the next Python code run.

Used as a wrapper, so the measured program is unchanged:
`python -m showdown.benchmarks.cpu_sampler OUT -- -m showdown.cli serve ...`
starts sampling on SIGUSR1 and on SIGUSR2 stops and writes OUT: one collapsed
stack per line ("outer;...;inner count", as flame graph tools read) and
OUT.summary with the functions' inclusive and own shares.
"""

from __future__ import annotations

import collections
import runpy
import signal
import sys
from pathlib import Path
from types import CodeType, FrameType

INTERVAL = 0.002  # seconds of CPU between samples


def _name(code: CodeType) -> str:
    place = "/".join(code.co_filename.rsplit("/", 2)[-2:])
    return f"{code.co_name} ({place})"


class Sampler:
    def __init__(self, interval: float = INTERVAL) -> None:
        self.interval = interval
        self.stacks: collections.Counter[tuple[CodeType, ...]] = collections.Counter()

    def _sample(self, signum: int, frame: FrameType | None) -> None:
        codes: list[CodeType] = []
        while frame is not None:
            codes.append(frame.f_code)
            frame = frame.f_back
        self.stacks[tuple(reversed(codes))] += 1

    def start(self) -> None:
        signal.signal(signal.SIGPROF, self._sample)
        signal.setitimer(signal.ITIMER_PROF, self.interval, self.interval)

    def stop(self) -> None:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)

    def collapsed(self) -> list[str]:
        return [
            ";".join(_name(code) for code in stack) + f" {count}"
            for stack, count in self.stacks.most_common()
        ]

    def summary(self, top: int = 60) -> list[str]:
        """Each function's share of the samples: with its callees, and its own."""
        total = sum(self.stacks.values()) or 1
        inclusive: collections.Counter[str] = collections.Counter()
        own: collections.Counter[str] = collections.Counter()
        for stack, count in self.stacks.items():
            names = [_name(code) for code in stack]
            for name in set(names):
                inclusive[name] += count
            if names:
                own[names[-1]] += count
        lines = [f"{total} samples of {self.interval * 1000:g} ms CPU", "-- with callees"]
        lines += [f"{100 * n / total:5.1f}% {name}" for name, n in inclusive.most_common(top)]
        lines.append("-- own")
        lines += [f"{100 * n / total:5.1f}% {name}" for name, n in own.most_common(top)]
        return lines

    def write(self, path: Path) -> None:
        path.write_text("".join(line + "\n" for line in self.collapsed()))
        path.with_name(path.name + ".summary").write_text("\n".join(self.summary()) + "\n")


def main(argv: list[str]) -> None:
    """`OUT -- -m module args...`: run the module, sampled between SIGUSR1 and SIGUSR2."""
    out, rest = Path(argv[0]), argv[argv.index("--") + 1 :]
    if rest[:1] != ["-m"] or len(rest) < 2:
        raise SystemExit("usage: cpu_sampler OUT -- -m module [args...]")
    sampler = Sampler()

    def begin(signum: int, frame: FrameType | None) -> None:
        sampler.start()

    def end(signum: int, frame: FrameType | None) -> None:
        sampler.stop()
        sampler.write(out)

    signal.signal(signal.SIGUSR1, begin)
    signal.signal(signal.SIGUSR2, end)
    sys.argv = [rest[1], *rest[2:]]
    runpy.run_module(rest[1], run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main(sys.argv[1:])
