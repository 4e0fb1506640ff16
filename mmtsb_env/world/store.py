"""The in-memory world: named tables of rows, layered copy-on-write.

A :class:`World` reads through three layers, newest first:

1. ``live``    -- rows written during the episode (owned by this world);
2. ``initial`` -- rows a scenario adds or changes (a :class:`Layer`, shared read-only);
3. ``base``    -- the synthetic base world (a :class:`Layer`, shared read-only by every env).

Writes only touch ``live``, so creating or resetting a world costs nothing proportional to the
size of the base world, and :meth:`World.diff` only looks at rows written in the episode.
Rows are plain dicts and are never mutated in place once stored: writers store new dicts.

>>> base = Layer({"notes": {1: {"id": 1, "title": "a"}}})
>>> w = World(base)
>>> w.update("notes", 1, title="b")["title"]
'b'
>>> w.diff()["notes"].updated[0][1]["title"]
'b'
>>> w.get("notes", 1) is not base.tables["notes"][1]
True
"""

from __future__ import annotations

import copy
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable, Iterator, Mapping

from ..limits import check_field
from .schema import SchemaError, TABLES

Row = dict[str, Any]


class _Deleted:
    __slots__ = ()

    def __reduce__(self) -> str:  # copies and pickles stay the one marker (``is DELETED`` holds)
        return "DELETED"

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return "<deleted>"


DELETED: Any = _Deleted()
_NO_ROWS: dict[Any, Any] = {}  # what base_table gives for a table the base lacks (never written)


class RowNotFound(LookupError):
    """Raised by :meth:`World.get_or_raise` and writers when a key does not exist."""


@dataclass
class Layer:
    """An immutable-by-convention mapping ``table -> {key: row | DELETED}``."""

    tables: dict[str, dict[Any, Any]] = field(default_factory=dict)

    def stack(self, below: "Layer") -> "Layer":
        """Flatten ``self`` over ``below`` into one layer (used to pre-merge scenario layers)."""
        merged = {t: dict(rows) for t, rows in below.tables.items()}
        for table, rows in self.tables.items():
            merged.setdefault(table, {}).update(rows)
        return Layer(merged)


def _copy_row(row: Row) -> Row:
    return {k: (copy.deepcopy(v) if isinstance(v, (list, dict)) else v) for k, v in row.items()}


@dataclass
class TableDiff:
    """What changed in one table between the initial state and now."""

    created: list[Row] = field(default_factory=list)
    updated: list[tuple[Row, Row]] = field(default_factory=list)  # (before, after)
    deleted: list[Row] = field(default_factory=list)
    # Rows the episode created that a cascade then removed with their parent (a comment posted on
    # a task whose project was deleted afterwards). Not part of the final world, so not a change
    # (``bool`` ignores them); the reference's scope counts them as created (docs/scenario_format.md).
    carried_off: list[Row] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.created or self.updated or self.deleted)

    def to_json(self) -> dict[str, Any]:
        out = {
            "created": self.created,
            "updated": [{"before": b, "after": a} for b, a in self.updated],
            "deleted": self.deleted,
        }
        if self.carried_off:
            out["carried_off"] = self.carried_off
        return out


class World:
    """The device state of one episode. Not shared between episodes; cheap to create.

    Args:
        base: shared base layer (never written).
        initial: optional scenario layer on top of ``base`` (never written).
        now: the frozen clock; tools read :attr:`now` instead of the system time.
        user_id: id of the device owner (the "supervisor") in every app's tables.
    """

    def __init__(
        self,
        base: Layer,
        initial: Layer | None = None,
        *,
        now: datetime | None = None,
        user_id: int = 1,
        services: Mapping[str, Any] | None = None,
    ) -> None:
        self._base = base.tables
        self._initial = initial.tables if initial is not None else {}
        self._live: dict[str, dict[Any, Any]] = {}
        # Changes made by the user seat (state mutations): part of the baseline for diffs.
        self._external: dict[str, dict[Any, Any]] = {}
        self._journal: list[tuple[str, Any, bool, Any]] | None = None
        self._counters: dict[str, int] = {}
        # Rows created in the episode that a cascade deleted with their parent: table -> {key: row}.
        self._carried_off: dict[str, dict[Any, Row]] = {}
        self.now: datetime = now or datetime(2026, 1, 1, 12, 0, tzinfo=timezone.utc)
        self.user_id = user_id
        self.version = 0  # bumped on every write; lets the evaluator skip unchanged steps
        # Per-episode services tools may need besides tables (image store, UI surfaces, ...).
        self.services: dict[str, Any] = dict(services or {})
        # Indexes derived from this world's rows (e.g. the app searches' index of written rows),
        # keyed by their owner; each validates itself against the rows (by row identity).
        self.indexes: dict[Any, Any] = {}
        self._lock = threading.RLock()

    def __deepcopy__(self, memo: dict) -> "World":
        """An independent copy: the base and scenario layers are shared (never written), the
        written layers, counters and services are copied, derived indexes are rebuilt on demand."""
        if self._journal is not None:
            raise RuntimeError("cannot copy a World inside a transaction")
        new = World.__new__(World)
        memo[id(self)] = new
        new._base, new._initial = self._base, self._initial
        with self._lock:
            for name in ("_live", "_external", "_counters", "_carried_off", "now", "user_id", "version", "services"):
                setattr(new, name, copy.deepcopy(getattr(self, name), memo))
        new._journal = None
        new.indexes = {}
        new._lock = threading.RLock()
        return new

    # ------------------------------------------------------------------ reading
    def _lookup(self, table: str, key: Any) -> Any:
        for layer in (self._live, self._external, self._initial, self._base):
            rows = layer.get(table)
            if rows is not None and key in rows:
                return rows[key]
        return DELETED

    def _initial_lookup(self, table: str, key: Any) -> Any:
        for layer in (self._external, self._initial, self._base):
            rows = layer.get(table)
            if rows is not None and key in rows:
                return rows[key]
        return DELETED

    def exists(self, table: str, key: Any) -> bool:
        return self._lookup(table, key) is not DELETED

    def get(self, table: str, key: Any) -> Row | None:
        """A copy of the row with this key, or ``None``."""
        row = self._lookup(table, key)
        return None if row is DELETED else _copy_row(row)

    def get_or_raise(self, table: str, key: Any, what: str | None = None) -> Row:
        row = self.get(table, key)
        if row is None:
            label = what or table.split(".")[-1].rstrip("s")
            raise RowNotFound(f"{label} with id {key!r} does not exist")
        return row

    def rows(self, table: str) -> Iterator[Row]:
        """Iterate the current rows of a table (read-only views: do not mutate them)."""
        live = self._live.get(table, {})
        external = self._external.get(table, {})
        initial = self._initial.get(table, {})
        for key, row in self._base.get(table, {}).items():
            if key in live or key in initial or key in external:
                continue
            yield row
        yield from self.overlay_rows(table)

    def base_table(self, table: str) -> dict[Any, Row]:
        """The shared base layer's rows of a table (read-only; the same dict for every world
        built on this base, so process-wide indexes can be keyed on it)."""
        return self._base.get(table, _NO_ROWS)

    def overlay_keys(self, table: str) -> set[Any]:
        """Keys of a table that the scenario, the user seat or the episode added, changed or deleted."""
        return {*self._initial.get(table, ()), *self._external.get(table, ()), *self._live.get(table, ())}

    def overlay_rows(self, table: str) -> Iterator[Row]:
        """The current rows of a table that do not come from the base layer, in :meth:`rows` order
        (``rows`` is the base rows whose key is not in :meth:`overlay_keys`, then these)."""
        live = self._live.get(table, {})
        external = self._external.get(table, {})
        initial = self._initial.get(table, {})
        for key, row in initial.items():
            if key in live or key in external or row is DELETED:
                continue
            yield row
        for key, row in external.items():
            if key in live or row is DELETED:
                continue
            yield row
        for row in live.values():
            if row is not DELETED:
                yield row

    def select(self, table: str, where: Callable[[Row], bool] | None = None, **equals: Any) -> list[Row]:
        """Copies of the rows matching all ``column=value`` pairs and the optional predicate."""
        out = []
        for row in self.rows(table):
            if all(row.get(c) == v for c, v in equals.items()) and (where is None or where(row)):
                out.append(_copy_row(row))
        return out

    def first(self, table: str, **equals: Any) -> Row | None:
        for row in self.rows(table):
            if all(row.get(c) == v for c, v in equals.items()):
                return _copy_row(row)
        return None

    def count(self, table: str, **equals: Any) -> int:
        return sum(1 for row in self.rows(table) if all(row.get(c) == v for c, v in equals.items()))

    def table_names(self) -> set[str]:
        return set(self._base) | set(self._initial) | set(self._external) | set(self._live)

    # ------------------------------------------------------------------ writing
    def _write(self, table: str, key: Any, value: Any) -> None:
        live = self._live.setdefault(table, {})
        if self._journal is not None:
            self._journal.append((table, key, key in live, live.get(key)))
        live[key] = value
        self.version += 1

    def insert(self, table: str, row: Row) -> Row:
        """Insert a new row (defaults filled from the table's declaration); return a copy."""
        spec = TABLES.get(table)
        full = spec.complete(row) if spec is not None else _copy_row(row)
        key_col = spec.key if spec is not None else "id"
        key = full.get(key_col)
        if key is None:
            raise SchemaError(f"table {table!r}: row has no value for key {key_col!r}")
        if self.exists(table, key):
            raise SchemaError(f"table {table!r}: a row with {key_col}={key!r} already exists")
        _check_texts(table, full)
        self._write(table, key, _copy_row(full))
        return _copy_row(full)

    def update(self, table: str, key: Any, **fields: Any) -> Row:
        """Set columns of an existing row; return a copy of the new row."""
        current = self._lookup(table, key)
        if current is DELETED:
            raise RowNotFound(f"{table}: no row with key {key!r}")
        spec = TABLES.get(table)
        if spec is not None:
            unknown = [c for c in fields if c not in spec.columns]
            if unknown:
                raise SchemaError(f"table {table!r}: unknown column(s) {unknown}")
        _check_texts(table, fields)
        new = dict(current)
        new.update({k: copy.deepcopy(v) for k, v in fields.items()})
        if spec is not None:
            spec.derive(new)
        self._write(table, key, new)
        return _copy_row(new)

    def delete(self, table: str, key: Any, *, cascade: bool = False) -> Row:
        """Delete a row; return a copy of what it was.

        ``cascade=True`` marks a row deleted because its parent is (a task's comments when the task
        goes): if the episode created that row, :meth:`diff` lists it as ``carried_off``.
        """
        current = self._lookup(table, key)
        if current is DELETED:
            raise RowNotFound(f"{table}: no row with key {key!r}")
        if cascade and self._initial_lookup(table, key) is DELETED:
            self._carried_off.setdefault(table, {})[key] = current
        self._write(table, key, DELETED)
        return _copy_row(current)

    def new_id(self, table: str) -> int:
        """Next free integer key of a table: one above the largest ever seen (deterministic)."""
        last = self._counters.get(table)
        if last is None:
            keys = [k for layer in (self._base, self._initial, self._external, self._live)
                    for k in layer.get(table, {}) if isinstance(k, int)]
            last = max(keys, default=0)
        self._counters[table] = last + 1
        return last + 1

    def new_token(self, prefix: str) -> str:
        """Deterministic string id such as ``calendar_event_7``."""
        n = self._counters.get("#" + prefix, 0) + 1
        self._counters["#" + prefix] = n
        return f"{prefix}_{n}"

    def apply_external(self, op: str, table: str, *, row: Row | None = None, key: Any = None,
                       fields: dict[str, Any] | None = None) -> None:
        """A change made outside the agent's control (the user edits something themselves).

        It becomes part of the baseline: :meth:`diff` does not report it as the agent's change.
        """
        spec = TABLES.get(table)
        key_col = spec.key if spec is not None else "id"
        layer = self._external.setdefault(table, {})
        if op == "insert":
            full = spec.complete(row or {}) if spec is not None else _copy_row(row or {})
            layer[full[key_col]] = full
        elif op == "update":
            current = self._initial_lookup(table, key)
            if current is DELETED:
                raise RowNotFound(f"{table}: no row with key {key!r}")
            layer[key] = {**current, **(fields or {})}
            if spec is not None:
                spec.derive(layer[key])
        elif op == "delete":
            if self._initial_lookup(table, key) is DELETED:
                raise RowNotFound(f"{table}: no row with key {key!r}")
            layer[key] = DELETED
        else:
            raise ValueError(f"unknown op {op!r}")
        self._counters.pop(table, None)
        self.version += 1

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Group writes: if the block raises, every write in it is undone."""
        with self._lock:
            outer = self._journal
            self._journal = []
            counters = dict(self._counters)
            carried_off = {t: dict(rows) for t, rows in self._carried_off.items()}
            version = self.version
            try:
                yield
            except BaseException:
                for table, key, had, old in reversed(self._journal):
                    if had:
                        self._live[table][key] = old
                    else:
                        self._live[table].pop(key, None)
                self._counters = counters
                self._carried_off = carried_off
                self.version = version
                self._journal = outer
                raise
            else:
                if outer is not None:
                    outer.extend(self._journal)
                self._journal = outer

    # ------------------------------------------------------------------ diffing
    def diff(self, tables: set[str] | None = None) -> dict[str, TableDiff]:
        """Changes against the initial state, per table with at least one change."""
        out: dict[str, TableDiff] = {}
        for table, rows in self._live.items():
            if tables is not None and table not in tables:
                continue
            d = TableDiff()
            for key, after in rows.items():
                before = self._initial_lookup(table, key)
                if before is DELETED and after is DELETED:
                    if key in self._carried_off.get(table, {}):
                        d.carried_off.append(self._carried_off[table][key])
                    continue
                if before is DELETED:
                    d.created.append(after)
                elif after is DELETED:
                    d.deleted.append(before)
                elif before != after:
                    d.updated.append((before, after))
            if d or d.carried_off:
                out[table] = d
        return out

    def changed_tables(self) -> set[str]:
        return {t for t, d in self.diff().items() if d}

    def snapshot(self) -> dict[str, dict[str, Any]]:
        """The full current state of every table, ``{table: {key: row}}`` (copies; for export)."""
        return {t: {r[_key_of(t)]: _copy_row(r) for r in self.rows(t)} for t in sorted(self.table_names())}


def _key_of(table: str) -> str:
    spec = TABLES.get(table)
    return spec.key if spec is not None else "id"


def build_layer(rows_by_table: Mapping[str, list[Row]], below: Layer | None = None) -> Layer:
    """Make a layer from ``{table: [row, ...]}``, completing rows from table declarations.

    Rows whose key exists in ``below`` replace it. A row ``{"<key>": k, "__deleted__": True}``
    removes row ``k`` of ``below``.
    """
    tables: dict[str, dict[Any, Any]] = {}
    for table, rows in rows_by_table.items():
        spec = TABLES.get(table)
        key_col = spec.key if spec is not None else "id"
        out = tables.setdefault(table, {})
        for row in rows:
            if row.get("__deleted__"):
                out[row[key_col]] = DELETED
                continue
            base_row = None
            if below is not None:
                base_row = below.tables.get(table, {}).get(row.get(key_col))
            merged = {**base_row, **row} if isinstance(base_row, dict) else row
            full = spec.complete(merged) if spec is not None else _copy_row(merged)
            out[full[key_col]] = full
    return Layer(tables)


def _check_texts(table: str, values: Mapping[str, Any]) -> None:
    """Refuse a write whose text is over the written-field cap or not valid Unicode (nothing is written)."""
    for column, value in values.items():
        problem = check_field(value, f"{table}.{column}")
        if problem:
            raise SchemaError(problem)
