"""Layers without cycles: the import graph of our four packages has no cycle.

The graph is read with `ast`, not by importing. Every import statement counts, wherever it
stands: at the top of a module, under `if TYPE_CHECKING:` and inside functions. A lazy
import still makes the importing module depend on the imported one; deferring it only
hides the cycle from the interpreter (every cycle #36 found was hidden that way).
Doctests are strings and do not count.

`from package import name` is an edge to `package.name` when that is a module of ours and
to `package` otherwise. Importing a module also runs its packages' `__init__`, but that
implied edge is not drawn: it would put every package re-exporting its own modules on a
cycle.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("holdem", "protocol", "backend", "ai", "showdown")

# Cycles still allowed, each a sorted tuple of its modules, with who removes it.
ALLOWED_CYCLES: frozenset[tuple[str, ...]] = frozenset()

Graph = dict[str, set[str]]


def module_files(root: Path = ROOT) -> dict[str, Path]:
    """Every module of ours by dotted name (a package by its `__init__`)."""
    modules: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def _imported_names(tree: ast.Module, module: str, is_package: bool) -> Iterator[tuple[str, str]]:
    """(the name imported, the name to fall back on) for each import anywhere in `tree`.

    `from pkg import name` names the module `pkg.name` if there is one, else `pkg`.
    """
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((alias.name, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                yield f"{base}.{alias.name}", base


def import_graph(modules: Mapping[str, Path]) -> Graph:
    """module -> the modules of ours it imports."""

    def ours(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: Graph = {name: set() for name in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for imported, fallback in _imported_names(tree, name, path.name == "__init__.py"):
            target = imported if imported in modules else ours(fallback)
            if target is not None and target != name:
                graph[name].add(target)
    return graph


def cycles(graph: Graph) -> list[tuple[str, ...]]:
    """The strongly connected components with more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[tuple[str, ...]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(tuple(sorted(component)))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def cycle_path(graph: Graph, members: tuple[str, ...]) -> str:
    """One concrete loop through a component, e.g. 'a -> b -> a', for the failure message."""
    inside = set(members)
    start = members[0]
    paths = {start: [start]}
    frontier = [start]
    while frontier:  # breadth-first back to `start` within the component
        node = frontier.pop(0)
        for nxt in sorted(graph[node] & inside):
            if nxt == start:
                return " -> ".join([*paths[node], start])
            if nxt not in paths:
                paths[nxt] = [*paths[node], nxt]
                frontier.append(nxt)
    return " <-> ".join(members)


def package_graph(graph: Graph, depth: int = 2) -> Graph:
    """The graph between packages (e.g. ai.bots -> ai.models): modules cut to `depth` parts."""
    packages: Graph = {}
    for module, targets in graph.items():
        source = ".".join(module.split(".")[:depth])
        packages.setdefault(source, set())
        for target in targets:
            into = ".".join(target.split(".")[:depth])
            if into != source:
                packages[source].add(into)
                packages.setdefault(into, set())
    return packages


@cache
def our_graph() -> Graph:
    """The graph of this checkout, read once per process (the tests only read it)."""
    return import_graph(module_files())


def test_no_module_imports_itself_through_others() -> None:
    graph = our_graph()
    found = [c for c in cycles(graph) if c not in ALLOWED_CYCLES]
    assert not found, "import cycles:\n" + "\n".join(cycle_path(graph, c) for c in found)


def test_the_ai_packages_are_layered() -> None:
    """ai.game, ai.math and ai.sim below ai.models and ai.search below ai.bots: no package of
    ai imports one that imports it back (ai.bots <-> ai.models was one through Observation)."""
    graph = our_graph()
    ai = {m: {t for t in targets if t.startswith("ai.")} for m, targets in graph.items()}
    packages = package_graph({m: t for m, t in ai.items() if m.startswith("ai.")})
    found = cycles(packages)
    assert not found, "package cycles:\n" + "\n".join(cycle_path(packages, c) for c in found)


def test_holdem_is_the_pure_game() -> None:
    """The rules core imports nothing of ours outside itself: the wire protocol (`protocol`),
    the server and the AI build on it, never the other way."""
    graph = our_graph()
    outside = {
        (module, target)
        for module, targets in graph.items()
        if module.split(".")[0] == "holdem"
        for target in targets
        if target.split(".")[0] in PACKAGES and target.split(".")[0] != "holdem"
    }
    assert not outside, f"holdem imports from outside the game: {sorted(outside)}"


def test_the_protocol_stands_on_the_game_alone() -> None:
    """The backend and the AI worker both import `protocol`; it imports only `holdem`."""
    graph = our_graph()
    above = {
        (module, target)
        for module, targets in graph.items()
        if module.split(".")[0] == "protocol"
        for target in targets
        if target.split(".")[0] in {"backend", "ai", "showdown"}
    }
    assert not above, f"protocol imports from above it: {sorted(above)}"


def test_allowed_cycles_still_exist() -> None:
    """An allowed cycle that is gone leaves the list, so it cannot come back unnoticed."""
    present = set(cycles(our_graph()))
    assert present >= ALLOWED_CYCLES, f"gone, drop from ALLOWED_CYCLES: {ALLOWED_CYCLES - present}"


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        # A lazy import inside a function closes the loop as much as a top-level one.
        (
            {"a": "import holdem.b\n", "b": "def f():\n    from holdem import a\n"},
            [("holdem.a", "holdem.b")],
        ),
        # TYPE_CHECKING imports count; a doctest does not.
        (
            {
                "a": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import X\n",
                "b": '"""\n>>> from holdem.a import Y\n"""\nfrom holdem.c import Z\n',
                "c": "",
            },
            [],
        ),
        (
            {"a": "from .b import X\n", "b": "from .c import Y\n", "c": "import holdem.a\n"},
            [("holdem.a", "holdem.b", "holdem.c")],
        ),
    ],
)
def test_the_check_finds_cycles(
    tmp_path: Path, files: dict[str, str], expected: list[tuple[str, ...]]
) -> None:
    (tmp_path / "holdem").mkdir()
    (tmp_path / "holdem" / "__init__.py").write_text("")
    for name, text in files.items():
        (tmp_path / "holdem" / f"{name}.py").write_text(text)
    graph = import_graph(module_files(tmp_path))
    assert cycles(graph) == expected
    if expected:
        assert cycle_path(graph, expected[0]).startswith("holdem.a -> holdem.b")
