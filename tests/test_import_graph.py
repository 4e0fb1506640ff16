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

Imports by name count too: ``importlib.import_module(...)`` and ``__import__(...)`` with a string
(an edge to the module it names) or an f-string (an edge to every module of the package it can
name: ``{__name__}``, ``{__package__}`` and ``{m.__name__}`` of an imported module ``m`` are read
as the names they are, any other placeholder as one name, one of the module's own strings when
that names a module -- ``f"{__name__}.{_LAZY[name]}"`` is an edge to each submodule the lazy
table ``_LAZY`` names -- and else any: a scan of a folder imports every module in it). An import by name whose module name the
test cannot read (a variable, a call) fails the test unless :data:`NAMES_FROM_ELSEWHERE` says
why it never names a module of the package, so no dependency can hide in a string.
"""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "mmtsb_env"

# Modules importing by a name the test cannot read -> why that name is never one of the package.
NAMES_FROM_ELSEWHERE = {
    "mmtsb_env.cli": "click's exception classes, from whichever copy of click typer carries",
    "mmtsb_env.sandbox.policy": "the modules agent code imports (standard library, numpy, PIL; its allow-list)",
    "mmtsb_env.sandbox.zygote": "preloads the modules of the sandbox's allow-list and the codecs (none of the package)",
    "mmtsb_env.users.counterfactual": "the user policy class a run record names (re-judging rebuilds the seat that played; "
                                      "a plug-in lookup at replay time, never an import the module needs to load)",
}
Graph = dict[str, dict[str, tuple[int, str]]]


class UnreadableImport(AssertionError):
    """A module imports by a name the test cannot read."""  # importer -> imported -> (line of the import, how)


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


_BY_NAME = {"import_module", "__import__"}


def _is_import_by_name(node: ast.AST) -> bool:
    """``importlib.import_module(...)``, ``import_module(...)``, ``__import__(...)``, ``importlib.__import__(...)``."""
    if not isinstance(node, ast.Call) or not node.args:
        return False
    func = node.func
    if isinstance(func, ast.Name):
        return func.id in _BY_NAME
    return (isinstance(func, ast.Attribute) and func.attr in _BY_NAME
            and isinstance(func.value, ast.Name) and func.value.id == "importlib")


def _imported_names(tree: ast.AST, module: str, is_package: bool) -> dict[str, str]:
    """Local name -> dotted module, for ``import a.b as m`` / ``from a import b as m`` anywhere in the source."""
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                names[alias.asname or alias.name.partition(".")[0]] = alias.name if alias.asname else alias.name.partition(".")[0]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, module, is_package)
            for alias in node.names:
                names[alias.asname or alias.name] = f"{base}.{alias.name}"
    return names


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module if is_package else module.rpartition(".")[0]
    for _ in range(node.level - 1):
        base = base.rpartition(".")[0]
    return f"{base}.{node.module}" if node.module else base


def names_imported_by_name(call: ast.Call, module: str, is_package: bool, aliases: dict[str, str],
                           strings: frozenset[str], modules: dict[str, Path]) -> list[str] | None:
    """The modules of the package an import by name can import (None: its name cannot be read)."""
    arg = call.args[0]
    package = module if is_package else module.rpartition(".")[0]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        name = arg.value
        if name.startswith("."):  # import_module(".x", __package__)
            base = package
            for _ in range(len(name) - len(name.lstrip(".")) - 1):
                base = base.rpartition(".")[0]
            name = f"{base}.{name.lstrip('.')}"
        return [name]
    if not isinstance(arg, ast.JoinedStr):
        return None
    pattern, placeholders = "", 0
    for part in arg.values:
        if isinstance(part, ast.Constant):
            pattern += re.escape(str(part.value))
            continue
        value = part.value
        if isinstance(value, ast.Name) and value.id in ("__name__", "__package__"):
            pattern += re.escape(module if value.id == "__name__" else package)
        elif (isinstance(value, ast.Attribute) and value.attr == "__name__" and isinstance(value.value, ast.Name)
              and value.value.id in aliases):
            pattern += re.escape(aliases[value.value.id])
        else:
            pattern += r"(\w+)"
            placeholders += 1
    named = [m for m in modules if re.fullmatch(pattern, m)]
    # the names a table of the module gives (a lazy ``__getattr__``'s), else any (a folder scan)
    tabled = [m for m in named if all(part in strings for part in re.fullmatch(pattern, m).groups())]
    return tabled or named


def import_edges(module: str, path: Path, modules: dict[str, Path]) -> dict[str, tuple[int, str]]:
    """Modules of the package that ``module`` imports anywhere in its source -> (first line doing
    so, "" or which import of a submodule runs that package's ``__init__``, or that it imports
    by name). An import by name it cannot read raises :class:`UnreadableImport`."""
    is_package = path.name == "__init__.py"
    edges: dict[str, tuple[int, str]] = {}
    tree = ast.parse(path.read_text(), str(path))
    aliases: dict[str, str] | None = None
    for node in ast.walk(tree):
        how = ""
        if _is_import_by_name(node):
            if aliases is None:
                aliases = _imported_names(tree, module, is_package)
                strings = frozenset(n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str))
            targets = names_imported_by_name(node, module, is_package, aliases, strings, modules)
            if targets is None:
                if module in NAMES_FROM_ELSEWHERE:
                    continue
                raise UnreadableImport(f"{path}:{node.lineno}: {module} imports a module by a name this test cannot "
                                       f"read ({ast.unparse(node)}); use an import statement or a string")
            how = "imported by name"
        elif isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, module, is_package)
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
        else:
            continue
        for target in targets:
            resolved = _resolve(target, modules)
            if resolved is None:
                continue
            if resolved != module:
                edges.setdefault(resolved, (node.lineno, how))
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



def test_imports_by_name_are_edges(tmp_path):
    """The shape the tool registry had: the decorator's module imported the modules using it by
    name (``importlib.import_module`` over a table of strings), a circle no import statement showed."""
    _write(tmp_path, {
        "mmtsb_env/__init__.py": "",
        "mmtsb_env/registry.py": ("import importlib\n\ndef tool(fn):\n    return fn\n\n"
                                  "def load():\n    importlib.import_module('mmtsb_env.apps.notes')\n"),
        "mmtsb_env/apps/__init__.py": "",
        "mmtsb_env/apps/notes.py": "from ..registry import tool\n",
        "mmtsb_env/lazy/__init__.py": ("from importlib import import_module\n_LAZY = {'Judge': 'judge'}\n\n"
                                       "def __getattr__(name):\n    return getattr(import_module(f'{__name__}.{_LAZY[name]}'), name)\n"),
        "mmtsb_env/lazy/judge.py": "",
        "mmtsb_env/lazy/report.py": "",
        "mmtsb_env/cli.py": ("import pkgutil\nfrom importlib import import_module\n\ndef load():\n"
                             "    import mmtsb_env.lazy as package\n"
                             "    for info in pkgutil.iter_modules(package.__path__):\n"
                             "        __import__(f'{package.__name__}.{info.name}')\n"),
    })
    graph, modules = import_graph(tmp_path)
    assert graph["mmtsb_env.registry"]["mmtsb_env.apps.notes"] == (7, "imported by name")
    assert set(graph["mmtsb_env.lazy"]) == {"mmtsb_env.lazy.judge"}  # what its table names, not every submodule
    assert {"mmtsb_env.lazy.judge", "mmtsb_env.lazy.report"} <= set(graph["mmtsb_env.cli"])  # a folder scan: all of it
    found = circles(graph, modules, tmp_path)
    assert len(found) == 1 and "mmtsb_env.registry -> mmtsb_env.apps.notes   (mmtsb_env/registry.py:7; imported by name)" in found[0]


def test_an_import_by_a_name_the_test_cannot_read_fails(tmp_path):
    _write(tmp_path, {
        "mmtsb_env/__init__.py": "",
        "mmtsb_env/registry.py": ("import importlib\nTOOL_MODULES = ('mmtsb_env.apps',)\n\ndef load():\n"
                                  "    for module in TOOL_MODULES:\n        importlib.import_module(module)\n"),
    })
    with pytest.raises(UnreadableImport, match=r"registry.py:6: mmtsb_env.registry imports a module by a name"):
        import_graph(tmp_path)
