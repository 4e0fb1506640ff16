"""Table definitions: every table of the simulated device is declared once here.

Apps declare their tables at import time with :func:`define_table`; the world uses the
declarations to fill default column values on insert and to reject unknown columns.

>>> spec = define_table("doctest.things", columns={"id": None, "name": "", "tags": []})
>>> spec.complete({"id": 1, "name": "lamp"})
{'id': 1, 'name': 'lamp', 'tags': []}

A *derived* column is computed from the other columns of its row whenever the row is written
(insert, update, a staged row): the reference's schema names some values differently from ours
(``splitwise.expense_shares.share_amount`` is our ``amount``), and a derived column lets both
names exist with one source of truth. Derived columns are app-filled, so they count as auto
columns (compared only when an expectation names them).

>>> spec = define_table("doctest.shares", columns={"id": None, "amount": 0.0},
...                     derived={"share_amount": lambda row: row["amount"]})
>>> spec.complete({"id": 1, "amount": 2.5})
{'id': 1, 'amount': 2.5, 'share_amount': 2.5}
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Callable


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
    # Columns computed from the row (see the module docstring), in declaration order.
    derived: tuple[tuple[str, Callable[[dict[str, Any]], Any]], ...] = ()

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
        return self.derive(full)

    def derive(self, row: dict[str, Any]) -> dict[str, Any]:
        """``row`` with its derived columns (re)computed, in place; returns it."""
        for col, fn in self.derived:
            row[col] = fn(row)
        return row


TABLES: dict[str, TableSpec] = {}


def define_table(
    name: str,
    *,
    key: str = "id",
    columns: dict[str, Any],
    auto_columns: tuple[str, ...] | frozenset[str] = (),
    derived: dict[str, Callable[[dict[str, Any]], Any]] | None = None,
) -> TableSpec:
    """Declare a table (idempotent for an identical declaration).

    ``derived`` maps extra column names to functions of the row that compute them.
    """
    if key not in columns:
        columns = {key: None, **columns}
    derived = dict(derived or {})
    clash = sorted(set(derived) & set(columns))
    if clash:
        raise SchemaError(f"table {name!r}: derived column(s) {clash} are also declared as stored columns")
    spec = TableSpec(name=name, key=key, columns={**columns, **{c: None for c in derived}},
                     auto_columns=frozenset(auto_columns) | frozenset(derived), derived=tuple(derived.items()))
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
