"""Test tiers, given automatically so a new test gets one without anyone remembering.

(At the checkout's root, not in tests/: pytest puts a conftest's folder on sys.path, and
tests/ holds folders named ai, backend and holdem that would shadow the packages.)

- `integration`: the test touches the outside of a process: the embedded database, a
  real server or socket, a subprocess: it uses a fixture of tests/backend/conftest.py, or
  its code (its own, its fixtures' and that of the helpers of its module it calls) names
  something from INTEGRATION_MODULES. Or it is marked `slow`. A test whose outside
  work hides behind our own code (a `showdown bench` that starts its own database) says
  so with `pytest.mark.integration`.
- `e2e`: a browser test (the Playwright suites live in frontend/e2e; a pytest test under
  tests/e2e would get it too).
- `unit`: everything else: pure code in this process, seconds at most.

`make test-unit` runs `-m unit`, `make test-integration` `-m integration`. The tier of a
test is shown by `pytest --collect-only -q -m unit`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

if "PYTEST_XDIST_WORKER" in os.environ:
    # Each xdist worker already has a core: PyTorch (and OpenMP code) on one thread each,
    # not two workers with two threads fighting over two cores. Set before torch loads.
    os.environ.setdefault("OMP_NUM_THREADS", "1")

ROOT = Path(__file__).resolve().parent
TESTS = ROOT / "tests"
TIERS = ("e2e", "integration", "unit")

# Fixtures that start a database or a server (tests/backend/conftest.py and test modules).
INTEGRATION_FIXTURES = frozenset({"mongo_url", "make_settings", "server_factory", "server"})

# A module using any of these talks to a database, a socket or another process.
INTEGRATION_MODULES = frozenset(
    {
        "backend_testlib",
        "serve_testlib",
        "backend.db.embedded",
        "backend.app",
        "subprocess",
        "asyncio.subprocess",
        "multiprocessing",
        "socket",
        "websockets",
        "uvicorn",
        "httpx",
        "pymongo",
        "secantus",
        "fastapi.testclient",
    }
)


def _module_name(value: object) -> str:
    if isinstance(value, types.ModuleType):
        return value.__name__
    return str(getattr(value, "__module__", "") or "")


def _is_integration_module(name: str) -> bool:
    return any(name == m or name.startswith(m + ".") for m in INTEGRATION_MODULES)


def _codes(value: object) -> list[types.CodeType]:
    """The code a function, or every method of a class, runs (with nested functions)."""
    functions = [value] if not isinstance(value, type) else list(vars(value).values())
    found: list[types.CodeType] = []
    for fn in functions:
        fn = getattr(fn, "__func__", fn)  # staticmethod, classmethod
        code = getattr(fn, "__code__", None)
        stack = [code] if isinstance(code, types.CodeType) else []
        while stack:
            current = stack.pop()
            found.append(current)
            stack.extend(c for c in current.co_consts if isinstance(c, types.CodeType))
    return found


def _reaches_integration(roots: list[object], module: types.ModuleType) -> bool:
    """Whether the test's code, or helpers of its own module that it calls, names anything
    from INTEGRATION_MODULES (a global name read from the code, followed transitively)."""
    seen: set[int] = set()
    todo = list(roots)
    while todo:
        value = todo.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        for code in _codes(value):
            for name in code.co_names:
                target = vars(module).get(name)
                if target is None:
                    continue
                if _is_integration_module(_module_name(target)):
                    return True
                if _module_name(target) == module.__name__:
                    todo.append(target)  # a helper of this module: follow it
    return False


def _test_code(item: pytest.Item) -> list[object]:
    """The test function and the functions of every fixture it uses."""
    roots: list[object] = [getattr(item, "obj", None)]
    info = getattr(item, "_fixtureinfo", None)
    for defs in getattr(info, "name2fixturedefs", {}).values():
        roots.extend(d.func for d in defs)
    return [r for r in roots if r is not None]


def tier(item: pytest.Item) -> str:
    for given in TIERS:  # a tier the test names itself wins
        if item.get_closest_marker(given) is not None:
            return given
    path = Path(str(item.path)).resolve()
    if TESTS / "e2e" in path.parents:
        return "e2e"
    fixtures = set(getattr(item, "fixturenames", ()))
    module = getattr(item, "module", None)
    if (
        fixtures & INTEGRATION_FIXTURES
        or item.get_closest_marker("slow") is not None
        or (module is not None and _reaches_integration(_test_code(item), module))
    ):
        return "integration"
    return "unit"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        given = tier(item)
        if item.get_closest_marker(given) is None:
            item.add_marker(given)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """Under xdist, compile the AI's kernels once, before the workers start.

    The kernels are `cache=True` (ai/math/_jit.py): numba keeps their machine code on disk
    next to the sources, and a process that finds it loads it in a second. From a fresh
    clone, each worker would otherwise compile the same kernels at once (about 20 s of CPU
    each); after this, they load them.
    """
    config = session.config
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return  # an xdist worker, or a run without workers
    warm = [sys.executable, "-m", "ai.worker.kernels"]
    subprocess.run(warm, cwd=ROOT, check=True)  # noqa: S603
