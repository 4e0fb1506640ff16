"""Loading scenario files and the built-in suites.

>>> suite = load_suite("demo")
>>> len(suite) >= 12 and suite[0].id.startswith("demo/")
True
"""

from __future__ import annotations

import gzip
import json
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Sequence, overload

from .index import SUITE_FILES, file_entry, matches, read_index, scenario_files, text_of
from .model import Scenario, ScenarioError

BUILTIN_SUITES = ("demo", "nominal", "ui", "extended")


def _read_json(path: Path) -> Any:
    try:
        if path.name.endswith(".gz"):
            return json.loads(gzip.decompress(path.read_bytes()).decode("utf-8"))
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ScenarioError(f"{path}: no such file") from None
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"{path}: not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None


def _scenarios_in(data: Any, source: str) -> list[Scenario]:
    """A file holds one scenario object or a JSON list of them."""
    if isinstance(data, list):
        return [Scenario.from_dict(item, source=f"{source}[{i}]") for i, item in enumerate(data)]
    return [Scenario.from_dict(data, source=source)]


def load_scenario(path: str | Path) -> Scenario:
    """Read one scenario file (format v1; a file holding a list must contain exactly one)."""
    path = Path(path)
    found = _scenarios_in(_read_json(path), str(path))
    if len(found) != 1:
        raise ScenarioError(f"{path}: holds {len(found)} scenarios; use load_suite for a folder or a list file")
    return found[0]


def _suite_dir(name: str):
    return resources.files("mmtsb_env.suites").joinpath(name)


@lru_cache(maxsize=None)
def lazy_suite(name: str) -> "LazySuite":
    """Built-in suite ``name`` as a :class:`LazySuite` (shared: scenarios are built once per process)."""
    folder = _suite_dir(name)
    if not folder.is_dir():
        available = ", ".join(available_suites()) or "none"
        raise ScenarioError(f"unknown suite {name!r}; available: {available}")
    return LazySuite(folder, name)


class LazySuite(Sequence[Scenario]):
    """A suite folder whose files are parsed, and scenarios built, when first read.

    The folder's index (:mod:`~mmtsb_env.scenario.index`) gives each file's scenario ids and
    where each scenario's JSON lies in it, so counting the suite and finding an id parse
    nothing, and reading a scenario parses and builds that scenario alone (an env drawing one
    scenario per reset pays for what it plays: the nominal suite's files cost ~55 ms to parse,
    its 258 ``Scenario.from_dict`` calls ~30-90 ms). Files the index does not describe (missing,
    or changed since) are parsed whole up front.

    >>> suite = lazy_suite("demo")
    >>> suite.find("demo/compare_receipts").id, len(suite) == len(load_suite("demo"))
    ('demo/compare_receipts', True)
    """

    def __init__(self, folder: Any, label: str) -> None:
        known = read_index(folder)
        files = scenario_files(folder)
        self._names = [path.name for path in files]
        self._data: list[bytes] = []
        self._texts: dict[int, str] = {}  # file -> its text (decoded once, when a scenario in it is read)
        self._items: dict[int, list[Any]] = {}  # file -> its parsed scenario objects (files read whole)
        # (file, position in it, id, source, [start, end) of its JSON in the file's text or None)
        entries: list[tuple[int, int, Any, str, Any]] = []
        for f, path in enumerate(files):
            data = path.read_bytes()
            entry = known.get(path.name)
            if not matches(entry, data):  # not in the index, or changed since: parse it now
                content = json.loads(text_of(path.name, data))
                entry = file_entry(path.name, data, content)
                self._items[f] = content if isinstance(content, list) else [content]
            spans = entry.get("spans")
            if not (isinstance(spans, list) and len(spans) == len(entry["ids"])):
                spans = [None] * len(entry["ids"])
            self._data.append(b"" if f in self._items else data)  # a parsed file needs no bytes
            source = f"{label}/{path.name}"
            entries += [(f, i, sid, f"{source}[{i}]" if entry["list"] else source, span)
                        for i, (sid, span) in enumerate(zip(entry["ids"], spans))]
        seen: set[Any] = set()
        dupes = sorted({str(e[2]) for e in entries if e[2] in seen or seen.add(e[2])})
        if dupes:
            raise ScenarioError(f"suite {label!r}: duplicate scenario ids {dupes}")
        self._entries = entries
        self._built: dict[int, Scenario] = {}
        self._index = {e[2]: k for k, e in enumerate(entries)}

    def __len__(self) -> int:
        return len(self._entries)

    @overload
    def __getitem__(self, i: int) -> Scenario: ...
    @overload
    def __getitem__(self, i: slice) -> list[Scenario]: ...

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        k = range(len(self))[i]  # IndexError past the end; negative indices count from the end
        if k not in self._built:
            f, position, sid, source, span = self._entries[k]
            self._built[k] = Scenario.from_dict(self._raw(f, position, sid, span), source=source)
        return self._built[k]

    def _raw(self, f: int, position: int, scenario_id: Any, span: Any) -> Any:
        """The parsed JSON object of one scenario: its span of the file's text (when that holds
        the scenario the index names), else from the file parsed whole."""
        if f not in self._items and span is not None:
            if f not in self._texts:
                self._texts[f] = text_of(self._names[f], self._data[f])
            try:
                item = json.loads(self._texts[f][span[0]:span[1]])
            except (ValueError, TypeError, IndexError):
                item = None
            if isinstance(item, dict) and item.get("id") == scenario_id:
                return item
        if f not in self._items:
            content = json.loads(text_of(self._names[f], self._data[f]))
            self._items[f] = content if isinstance(content, list) else [content]
        return self._items[f][position]

    @property
    def ids(self) -> list[str]:
        return [e[2] for e in self._entries]

    def find(self, scenario_id: str) -> Scenario:
        if scenario_id not in self._index:
            raise ScenarioError(f"no scenario {scenario_id!r} in this suite")
        return self[self._index[scenario_id]]


@lru_cache(maxsize=None)
def _load_builtin(name: str) -> tuple[Scenario, ...]:
    return tuple(lazy_suite(name))


def available_suites() -> list[str]:
    root = resources.files("mmtsb_env.suites")
    return sorted(e.name for e in root.iterdir() if e.is_dir() and not e.name.startswith(("_", ".")))


def load_suite(name: str | Path = "demo") -> list[Scenario]:
    """A built-in suite by name (``"demo"``, ``"nominal"``, ``"ui"``, ``"extended"``) or every ``*.json``/``*.json.gz`` in a folder."""
    path = Path(name)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.name.endswith(SUITE_FILES))
        return [s for p in files for s in _scenarios_in(_read_json(p), str(p))]
    return list(_load_builtin(str(name)))


def find_scenario(scenarios: Iterable[Scenario], scenario_id: str) -> Scenario:
    if isinstance(scenarios, LazySuite):
        return scenarios.find(scenario_id)
    for s in scenarios:
        if s.id == scenario_id:
            return s
    raise ScenarioError(f"no scenario {scenario_id!r} in this suite")
