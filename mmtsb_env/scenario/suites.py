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
from typing import Any, Iterable

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
def _load_builtin(name: str) -> tuple[Scenario, ...]:
    folder = _suite_dir(name)
    if not folder.is_dir():
        available = ", ".join(available_suites()) or "none"
        raise ScenarioError(f"unknown suite {name!r}; available: {available}")
    scenarios = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(SUITE_FILES):
            raw = entry.read_bytes()
            text = (gzip.decompress(raw) if entry.name.endswith(".gz") else raw).decode("utf-8")
            scenarios.extend(_scenarios_in(json.loads(text), f"{name}/{entry.name}"))
    ids = [s.id for s in scenarios]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise ScenarioError(f"suite {name!r}: duplicate scenario ids {dupes}")
    return tuple(scenarios)


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
    for s in scenarios:
        if s.id == scenario_id:
            return s
    raise ScenarioError(f"no scenario {scenario_id!r} in this suite")
