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

from .model import Scenario, ScenarioError

BUILTIN_SUITES = ("demo", "nominal", "ui", "extended")
SUITE_FILES = (".json", ".json.gz")  # a suite folder's scenario files (gzip for large suites)


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
def _raw_builtin(name: str) -> tuple[tuple[dict[str, Any], str], ...]:
    """A built-in suite's scenario objects as parsed JSON, each with where it came from."""
    folder = _suite_dir(name)
    if not folder.is_dir():
        available = ", ".join(available_suites()) or "none"
        raise ScenarioError(f"unknown suite {name!r}; available: {available}")
    raw: list[tuple[dict[str, Any], str]] = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(SUITE_FILES):
            data = entry.read_bytes()
            items = json.loads((gzip.decompress(data) if entry.name.endswith(".gz") else data).decode("utf-8"))
            source = f"{name}/{entry.name}"
            raw += [(item, f"{source}[{i}]") for i, item in enumerate(items)] if isinstance(items, list) else [(items, source)]
    ids = [item.get("id") if isinstance(item, dict) else None for item, _ in raw]
    seen: set[Any] = set()
    dupes = sorted({str(i) for i in ids if i in seen or seen.add(i)})
    if dupes:
        raise ScenarioError(f"suite {name!r}: duplicate scenario ids {dupes}")
    return tuple(raw)


@lru_cache(maxsize=None)
def lazy_suite(name: str) -> "LazySuite":
    """Built-in suite ``name`` as a :class:`LazySuite` (shared: scenarios are built once per process)."""
    return LazySuite(_raw_builtin(name))


class LazySuite(Sequence[Scenario]):
    """A suite whose scenarios are built from their JSON when first read.

    An env drawing one scenario per reset pays for the scenarios it plays, not the whole suite
    (258 ``Scenario.from_dict`` calls cost ~30-90 ms); :meth:`find` looks an id up without
    building the others.

    >>> suite = lazy_suite("demo")
    >>> suite.find("demo/compare_receipts").id, len(suite) == len(load_suite("demo"))
    ('demo/compare_receipts', True)
    """

    def __init__(self, raw: Sequence[tuple[dict[str, Any], str]]) -> None:
        self._raw = raw
        self._built: dict[int, Scenario] = {}
        self._index = {item.get("id"): i for i, (item, _) in enumerate(raw)}

    def __len__(self) -> int:
        return len(self._raw)

    @overload
    def __getitem__(self, i: int) -> Scenario: ...
    @overload
    def __getitem__(self, i: slice) -> list[Scenario]: ...

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        k = range(len(self))[i]  # IndexError past the end; negative indices count from the end
        if k not in self._built:
            item, source = self._raw[k]
            self._built[k] = Scenario.from_dict(item, source=source)
        return self._built[k]

    @property
    def ids(self) -> list[str]:
        return [item.get("id") for item, _ in self._raw]

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
