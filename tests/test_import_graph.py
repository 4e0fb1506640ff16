"""The package's import graph has no circles.

The graph is built statically: every module of the installed package (``mmtsb_env/`` plus the
folders ``pyproject.toml`` maps into it, ``wrappers/`` and ``baselines/``) is parsed with ``ast``,
and every ``import`` / ``from ... import`` in it counts -- at module level, inside functions and
methods, and under ``if TYPE_CHECKING:``. An import deferred into a function hides a two-way
dependency, it does not remove it; a type-only import is a dependency of the design too.

An import names the most specific module of the package it reaches: ``from .x import y`` is an
edge to ``x.y`` when that is a module, else to ``x``; ``from . import y`` in a package is an edge
to the package's own ``y`` module, or to the package (its ``__init__``) for any other name.
Importing ``a.b.c`` also runs ``a/__init__`` and ``a/b/__init__`` first, so it is an edge to those
packages too -- except to the packages the importer itself lies in (Python runs them before the
importer anyway, whatever it imports).

Not seen: imports whose module name is computed at run time (``importlib.import_module`` with a
string built from data: the tool registry's ``TOOL_MODULES``, ``apps/__init__``'s folder scan, the
lazy ``__getattr__`` tables of ``ui``, ``evaluation`` and ``llm``, the CLI's command discovery).
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "mmtsb_env"

# Import edges (importer, imported) that close a circle someone else is removing now. Each entry
# is ignored by test_no_import_circles and must still close a circle (test_known_circles_are_real),
# so the lead empties this after merging the fix.
#
# generation/domains: generation.engine reads the recipe registry (generation/domains/__init__),
# which imports every domain module, each of which imports generation.engine (issue #36, the
# per-domain layout branch).
Graph = dict[str, dict[str, tuple[int, str]]]  # importer -> imported -> (line of the import, how)


def package_roots(root: Path = ROOT) -> dict[str, Path]:
    """Dotted package name -> folder: the package itself and every ``package-dir`` mapping into it."""
    roots = {PACKAGE: root / PACKAGE}
    config = tomllib.loads((root / "pyproject.toml").read_text())
    for name, folder in config.get("tool", {}).get("setuptools", {}).get("package-dir", {}).items():
        if name.startswith(PACKAGE + ".") and (root / folder / "__init__.py").exists():
            roots[name] = root / folder
    return roots


def find_modules(roots: dict[str, Path]) -> dict[str, Path]:
    """Dotted module name -> source file, for every ``.py`` file under the roots."""
    modules = {}
    for name, folder in roots.items():
        for path in sorted(folder.rglob("*.py")):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join([name, *parts])] = path
    return modules


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The longest prefix of ``name`` that is a module of the package (None: outside it)."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_edges(module: str, path: Path, modules: dict[str, Path]) -> dict[str, tuple[int, str]]:
    """Modules of the package that ``module`` imports anywhere in its source -> (first line doing
    so, "" or which import of a submodule runs that package's ``__init__``)."""
    is_package = path.name == "__init__.py"
    edges: dict[str, tuple[int, str]] = {}
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module if is_package else module.rpartition(".")[0]
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                base = f"{base}.{node.module}" if node.module else base
            else:
                base = node.module or ""
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        else:
            continue
        for target in targets:
            resolved = _resolve(target, modules)
            if resolved is None:
                continue
            if resolved != module:
                edges.setdefault(resolved, (node.lineno, ""))
            package = resolved.rpartition(".")[0]
            while package:
                if package in modules and not (module == package or module.startswith(package + ".")):
                    edges.setdefault(package, (node.lineno, f"importing {resolved} runs its __init__"))
                package = package.rpartition(".")[0]
    return edges


def import_graph(root: Path = ROOT) -> tuple[Graph, dict[str, Path]]:
    modules = find_modules(package_roots(root))
    return {m: import_edges(m, p, modules) for m, p in modules.items()}, modules


def strongly_connected(graph: Graph) -> list[list[str]]:
    """Tarjan's strongly connected components with more than one module (iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def shortest_circle(graph: Graph, component: list[str]) -> list[str]:
    """One shortest circle through the component's first module (breadth-first, inside the component)."""
    members, start = set(component), component[0]
    parent: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph[node]):
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(parent[path[-1]])
                    return [*reversed(path), start]
                if child in members and child not in parent:
                    parent[child] = node
                    following.append(child)
        frontier = following
    raise AssertionError(f"{start} is on no circle of its component")


def describe(graph: Graph, modules: dict[str, Path], circle: list[str], root: Path = ROOT) -> str:
    """``a -> b -> ... -> a``, each step with the file and line of the import."""
    steps = []
    for a, b in zip(circle, circle[1:]):
        line, how = graph[a][b]
        steps.append(f"  {a} -> {b}   ({modules[a].relative_to(root)}:{line}{'; ' + how if how else ''})")
    return "\n".join(steps)


def circles(graph: Graph, modules: dict[str, Path], root: Path = ROOT) -> list[str]:
    """A readable circle for every strongly connected component of the graph."""
    out = []
    for component in strongly_connected(graph):
        circle = shortest_circle(graph, component)
        out.append(f"{len(component)} modules import each other, e.g.\n{describe(graph, modules, circle, root)}")
    return out


def without(graph: Graph, edges: frozenset[tuple[str, str]]) -> Graph:
    return {m: {t: edge for t, edge in targets.items() if (m, t) not in edges} for m, targets in graph.items()}


# ---------------------------------------------------------------------------------------------- tests


def test_no_import_circles():
    graph, modules = import_graph()
    assert len(modules) > 250 and "mmtsb_env.wrappers.step_limit" in modules  # the whole package was read
    found = circles(graph, modules)
    assert not found, "import circles in the package:\n" + "\n".join(found)


def _write(root: Path, files: dict[str, str]) -> None:
    (root / "pyproject.toml").write_text('[tool.setuptools.package-dir]\n"mmtsb_env.extra" = "extra"\n')
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_a_circle_through_a_deferred_import_is_found_and_named(tmp_path):
    _write(tmp_path, {
        "mmtsb_env/__init__.py": "",
        "mmtsb_env/a/__init__.py": "",
        "mmtsb_env/a/one.py": "from .two import helper\n",
        "mmtsb_env/a/two.py": "def helper():\n    from mmtsb_env.b import three\n",
        "mmtsb_env/b/__init__.py": "",
        "mmtsb_env/b/three.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..a import one\n",
        "mmtsb_env/b/fine.py": "import os\nfrom mmtsb_env.a import two\n",
    })
    graph, modules = import_graph(tmp_path)
    found = circles(graph, modules, tmp_path)
    assert len(found) == 1, found
    assert found[0].startswith("3 modules import each other")
    assert "mmtsb_env.a.one -> mmtsb_env.a.two   (mmtsb_env/a/one.py:1)" in found[0]
    assert "mmtsb_env.a.two -> mmtsb_env.b.three   (mmtsb_env/a/two.py:2)" in found[0]
    assert "mmtsb_env.b.three -> mmtsb_env.a.one   (mmtsb_env/b/three.py:3)" in found[0]
    assert not circles(without(graph, frozenset({("mmtsb_env.a.two", "mmtsb_env.b.three")})), modules, tmp_path)


def test_a_circle_through_a_package_init_is_found(tmp_path):
    """``ui.canvas`` imported ``vision.fonts``, which runs ``vision/__init__``, which (lazily)
    imported the renderers, whose phone screens imported ``ui.canvas``: a circle no single
    module-to-module edge shows."""
    _write(tmp_path, {
        "mmtsb_env/__init__.py": "",
        "mmtsb_env/ui/__init__.py": "",
        "mmtsb_env/ui/canvas.py": "from ..vision.fonts import get_font\n",
        "mmtsb_env/vision/__init__.py": "def __getattr__(name):\n    from . import render\n",
        "mmtsb_env/vision/fonts.py": "",
        "mmtsb_env/vision/render.py": "from ..ui.canvas import Canvas\nfrom . import fonts\n",
    })
    graph, modules = import_graph(tmp_path)
    found = circles(graph, modules, tmp_path)
    assert len(found) == 1 and found[0].startswith("3 modules"), found
    assert ("mmtsb_env.ui.canvas -> mmtsb_env.vision   (mmtsb_env/ui/canvas.py:1; "
            "importing mmtsb_env.vision.fonts runs its __init__)") in found[0]
    assert graph["mmtsb_env.vision.render"] == {  # its own package (mmtsb_env.vision) is no edge
        "mmtsb_env.ui.canvas": (1, ""), "mmtsb_env.ui": (1, "importing mmtsb_env.ui.canvas runs its __init__"),
        "mmtsb_env.vision.fonts": (2, "")}


def test_a_registry_importing_members_that_import_it_back_is_a_circle(tmp_path):
    """The shape the render families had: the package imports its members for their registration
    side effect, and each member imports the registering decorator from the package."""
    _write(tmp_path, {
        "mmtsb_env/__init__.py": "",
        "mmtsb_env/render/__init__.py": "def family(kind):\n    return lambda f: f\n\nfrom . import receipt  # noqa\n",
        "mmtsb_env/render/receipt.py": "from . import family\n",
        "extra/__init__.py": "from ..render import receipt\n",
    })
    graph, modules = import_graph(tmp_path)
    assert graph["mmtsb_env.render.receipt"] == {"mmtsb_env.render": (1, "")}
    # package-dir folders belong to the package; importing a submodule runs its package's __init__
    assert graph["mmtsb_env.extra"] == {"mmtsb_env.render.receipt": (1, ""),
                                        "mmtsb_env.render": (1, "importing mmtsb_env.render.receipt runs its __init__")}
    assert [c.splitlines()[0] for c in circles(graph, modules, tmp_path)] == ["2 modules import each other, e.g."]

