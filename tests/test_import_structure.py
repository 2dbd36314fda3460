"""No import circles among tablepress's modules.

The graph has an edge from a module to every tablepress module it imports, wherever the import stands (at the
top, inside a function, under `if TYPE_CHECKING:`): an import moved into a function still ties the two modules
together. `from PACKAGE import NAME` is an edge to the submodule NAME when there is one, else to the package;
the parent packages Python imports on the way (`a.b` before `a.b.c`) are not edges. A circle is a strongly
connected component of more than one module.

ALLOWED lists the circles left for now, each with its reason; an entry that no longer matches a circle fails
too, so the list only shrinks.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import tablepress

PACKAGE_ROOT = Path(tablepress.__file__).parent
#: Folders that are not modules of the package (the `new-game` skeleton's template files).
SKIPPED = ("template",)

#: The circles left for now: {modules: reason}. None are left.
ALLOWED: dict[frozenset[str], str] = {}


def modules(root: Path, package: str) -> dict[str, tuple[Path, bool]]:
    """{dotted name: (file, is a package)} of every module under `root`, the package `package`."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root)
        if any(part in SKIPPED for part in relative.parts):
            continue
        parts = [package, *relative.with_suffix("").parts]
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        found[".".join(parts)] = (path, is_package)
    return found


def _owner(name: str, known: Mapping[str, object]) -> str | None:
    """The module `name` is, or lies in (`a.b.NAME` -> `a.b`); None outside the package."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def imported(module: str, path: Path, is_package: bool, known: Mapping[str, object]) -> set[str]:
    """The modules of `known` that `module` imports anywhere in its file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    here = module if is_package else module.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here
                for _ in range(node.level - 1):
                    anchor = anchor.rpartition(".")[0]
                base = f"{anchor}.{base}" if base else anchor
            names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        else:
            continue
        targets.update(owner for owner in (_owner(name, known) for name in names) if owner is not None)
    targets.discard(module)
    return targets


def import_graph(root: Path = PACKAGE_ROOT, package: str = "tablepress") -> dict[str, set[str]]:
    """{module: the modules it imports} for every module of the package at `root`."""
    known = modules(root, package)
    return {name: imported(name, path, is_package, known) for name, (path, is_package) in known.items()}


def circles(graph: Mapping[str, Iterable[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            advanced = False
            for target in edges:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.get(target, ())))))
                    advanced = True
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def describe(circle: frozenset[str], graph: Mapping[str, Iterable[str]]) -> str:
    """A circle as its edges, one per line: `a -> b`."""
    return "\n".join(f"  {source} -> {target}" for source in sorted(circle)
                     for target in sorted(set(graph[source]) & circle))


def test_no_import_circles_beyond_the_allowed_ones():
    graph = import_graph()
    assert len(graph) > 100 and "tablepress.core.match" in graph  # the whole package was read
    found = circles(graph)
    unexpected = [circle for circle in found if circle not in ALLOWED]
    assert not unexpected, "import circles (give the code its right home):\n" + "\n\n".join(
        describe(circle, graph) for circle in unexpected)
    gone = [sorted(circle) for circle in ALLOWED if circle not in found]
    assert not gone, f"these allowed circles are gone (or changed): take them off ALLOWED: {gone}"


def test_the_graph_sees_every_kind_of_import(tmp_path):
    """A circle closed by an import in a function, one under TYPE_CHECKING and one through `from . import` are
    each found; a package importing its own submodules is not a circle."""
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    files = {
        "__init__.py": "from . import a, b\n",
        "a.py": "from .b import thing\n",
        "b.py": "def f():\n    from .a import other\nthing = 1\n",
        "c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.sub import d\n",
        "sub/__init__.py": "",
        "sub/d.py": "from .. import c\n",
        "e.py": "import pkg.sub.d\n",
    }
    for name, text in files.items():
        (package / name).write_text(text)
    graph = import_graph(package, "pkg")
    assert graph["pkg"] == {"pkg.a", "pkg.b"} and graph["pkg.sub.d"] == {"pkg.c"} and graph["pkg.e"] == {"pkg.sub.d"}
    assert sorted(sorted(circle) for circle in circles(graph)) == [["pkg.a", "pkg.b"], ["pkg.c", "pkg.sub.d"]]
