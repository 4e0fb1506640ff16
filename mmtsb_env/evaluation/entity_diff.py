"""Entity-diff F1: how well the world's changes match a scenario's expected changes.

Changes are grouped by (table, operation). In each group, expected and actual rows are paired
by the Hungarian method on row similarity (mean of per-column measures); precision is the sum
of paired scores over the actual rows, recall the same over the expected rows. Precision and
recall are macro-averaged over groups and combined into F1.

Collateral damage: a (table, operation) group with changes but no expectation counts as a
group with precision 0 (recall 1), so an agent that writes where it should not loses score
even when it also did everything asked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

import numpy as np
from scipy.optimize import linear_sum_assignment

from ..scenario.model import ExpectedChange
from ..world.schema import TABLES
from ..world.store import TableDiff
from .similarity import measure_for

OP_KEYS = {"create": "created", "update": "updated", "delete": "deleted"}


@dataclass
class GroupScore:
    table: str
    operation: str
    precision: float
    recall: float
    n_expected: int
    n_actual: int
    pairs: list[tuple[int, int, float]] = field(default_factory=list)  # (expected idx, actual idx, score)

    def to_json(self) -> dict[str, Any]:
        return {
            "table": self.table, "operation": self.operation, "precision": self.precision,
            "recall": self.recall, "n_expected": self.n_expected, "n_actual": self.n_actual,
            "pairs": [list(p) for p in self.pairs],
        }


@dataclass
class EntityScore:
    precision: float
    recall: float
    f1: float
    groups: list[GroupScore]

    @property
    def unexpected_groups(self) -> list[GroupScore]:
        return [g for g in self.groups if g.n_expected == 0]

    def to_json(self) -> dict[str, Any]:
        return {"precision": self.precision, "recall": self.recall, "f1": self.f1, "groups": [g.to_json() for g in self.groups]}


def _key_column(table: str) -> str:
    spec = TABLES.get(table)
    return spec.key if spec is not None else "id"


def _ignored_columns(table: str) -> frozenset[str]:
    spec = TABLES.get(table)
    base = spec.auto_columns if spec is not None else frozenset()
    return base | {_key_column(table)}


def row_similarity(expected: dict[str, Any], actual: dict[str, Any], measures: dict[str, str], table: str) -> float:
    """Mean similarity over the compared columns of an expected row (1.0 if none compared)."""
    skip = _ignored_columns(table)
    scores = []
    for col, value in expected.items():
        explicit = measures.get(col)
        if explicit is None and (col in skip or value is None or value == "" or value == []):
            continue
        fn = measure_for(col, value, explicit)
        if fn is None:
            continue
        scores.append(fn(value, actual.get(col)))
    return float(sum(scores) / len(scores)) if scores else 1.0


def _match(sim: np.ndarray) -> tuple[float, list[tuple[int, int, float]]]:
    if sim.size == 0:
        return 0.0, []
    rows, cols = linear_sum_assignment(sim, maximize=True)
    pairs = [(int(r), int(c), float(sim[r, c])) for r, c in zip(rows, cols) if sim[r, c] > 0]
    return sum(p[2] for p in pairs), pairs


def _score_group(table: str, op: str, expected: list[ExpectedChange], actual: list[Any]) -> GroupScore:
    n, m = len(expected), len(actual)
    if n == 0:
        return GroupScore(table, op, 1.0 if m == 0 else 0.0, 1.0, 0, m)
    if m == 0:
        return GroupScore(table, op, 0.0, 0.0, n, 0)
    key_col = _key_column(table)
    sim = np.zeros((n, m))
    for i, e in enumerate(expected):
        for j, a in enumerate(actual):
            if op == "create":
                sim[i, j] = row_similarity(e.row or {}, a, e.measures, table)
            elif op == "update":
                after = a[1]
                if after.get(key_col) == e.key:
                    sim[i, j] = row_similarity(e.fields or {}, after, e.measures, table)
            else:
                sim[i, j] = 1.0 if a.get(key_col) == e.key else 0.0
    total, pairs = _match(sim)
    return GroupScore(table, op, min(1.0, total / m), min(1.0, total / n), n, m, pairs)


def score_changes(expected: Sequence[ExpectedChange], diff: dict[str, TableDiff], ignore_tables: Iterable[str] = ()) -> EntityScore:
    """Entity-diff precision/recall/F1 of ``diff`` (from ``World.diff()``) against ``expected``."""
    ignored = set(ignore_tables)
    wanted: dict[tuple[str, str], list[ExpectedChange]] = {}
    for change in expected:
        wanted.setdefault((change.table, change.operation), []).append(change)
    actual: dict[tuple[str, str], list[Any]] = {}
    for table, d in diff.items():
        if table in ignored:
            continue
        for op, attr in OP_KEYS.items():
            rows = getattr(d, attr)
            if rows:
                actual[(table, op)] = rows
    if not wanted and not actual:
        return EntityScore(1.0, 1.0, 1.0, [])
    groups = [
        _score_group(table, op, wanted.get((table, op), []), actual.get((table, op), []))
        for table, op in sorted(set(wanted) | set(actual))
    ]
    p = sum(g.precision for g in groups) / len(groups)
    r = sum(g.recall for g in groups) / len(groups)
    f1 = 0.0 if p + r == 0 else 2 * p * r / (p + r)
    return EntityScore(round(p, 6), round(r, 6), round(f1, 6), groups)


class EntityScorer:
    """Scores a world against fixed expectations; recomputes only when the world changed."""

    def __init__(self, expected: Sequence[ExpectedChange], ignore_tables: Iterable[str] = ()) -> None:
        self.expected = tuple(expected)
        self.ignore_tables = frozenset(ignore_tables)
        self._version: int | None = None
        self._last: EntityScore | None = None

    def score(self, world: Any) -> EntityScore:
        if self._last is not None and world.version == self._version:
            return self._last
        self._last = score_changes(self.expected, world.diff(), self.ignore_tables)
        self._version = world.version
        return self._last
