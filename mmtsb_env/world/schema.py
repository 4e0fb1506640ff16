"""Table definitions: every table of the simulated device is declared once here.

Apps declare their tables at import time with :func:`define_table`; the world uses the
declarations to fill default column values on insert and to reject unknown columns.

>>> spec = define_table("doctest.things", columns={"id": None, "name": "", "tags": []})
>>> spec.complete({"id": 1, "name": "lamp"})
{'id': 1, 'name': 'lamp', 'tags': []}
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any


class SchemaError(ValueError):
    """A row does not fit its table's declaration."""


@dataclass(frozen=True)
class TableSpec:
    """Name, primary-key column and column defaults of one table."""

    name: str
    key: str = "id"
    columns: dict[str, Any] = field(default_factory=dict)
    # Columns filled by the app itself (timestamps, generated ids): the evaluator ignores them
    # unless a scenario asks for them explicitly.
    auto_columns: frozenset[str] = frozenset()

    @property
    def app(self) -> str:
        return self.name.split(".", 1)[0]

    def complete(self, row: dict[str, Any]) -> dict[str, Any]:
        """Return a new row with every declared column, defaults filled in.

        Raises :class:`SchemaError` for a missing key or an undeclared column.
        """
        if self.key not in row:
            raise SchemaError(f"table {self.name!r}: row has no primary key {self.key!r}")
        unknown = [c for c in row if c not in self.columns]
        if unknown:
            raise SchemaError(
                f"table {self.name!r}: unknown column(s) {unknown}; known: {sorted(self.columns)}"
            )
        full = {}
        for col, default in self.columns.items():
            if col in row:
                full[col] = row[col]
            else:
                full[col] = copy.copy(default) if isinstance(default, (list, dict)) else default
        return full


TABLES: dict[str, TableSpec] = {}


def define_table(
    name: str,
    *,
    key: str = "id",
    columns: dict[str, Any],
    auto_columns: tuple[str, ...] | frozenset[str] = (),
) -> TableSpec:
    """Declare a table (idempotent for an identical declaration)."""
    if key not in columns:
        columns = {key: None, **columns}
    spec = TableSpec(name=name, key=key, columns=dict(columns), auto_columns=frozenset(auto_columns))
    existing = TABLES.get(name)
    if existing is not None and existing != spec:
        raise SchemaError(f"table {name!r} declared twice with different columns")
    TABLES[name] = spec
    return spec


def table_spec(name: str) -> TableSpec:
    try:
        return TABLES[name]
    except KeyError:
        raise SchemaError(f"unknown table {name!r}") from None
