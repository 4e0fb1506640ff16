"""Read the reference's ``entity_diff_specs`` as our :class:`ExpectedChange` objects.

A reference spec names its table either as ``{"source": "appworld", "table": "gmail.emails"}``
or as ``{"source": "agentsandbox", "namespace": "CALENDAR_EVENTS"}``; a create carries the row
in ``entity_data``; an update ``entity_id_column``/``entity_id_value`` and ``expected_fields``; a
delete the id column and value; ``column_similarity_measure`` maps columns to measure names.

The reference always ignores runtime ids and auto-generated columns, and a column the spec gives
no measure for when its expected value is empty or it is ``tags``/``data``; the converter marks
them ``ignore`` so the scores agree with the reference's.

>>> specs = [{"operation": "create", "source": "agentsandbox", "namespace": "REMINDER",
...           "entity_data": {"reminder_id": "r1", "content": "Buy milk"},
...           "column_similarity_measure": {"content": "column_rouge_l_similarity"}},
...          {"operation": "delete", "source": "appworld", "table": "todoist.projects",
...           "entity_id_column": "id", "entity_id_value": 4}]
>>> [(c.operation, c.table, c.key) for c in from_reference_specs(specs)]
[('create', 'reminder.reminders', None), ('delete', 'todoist.projects', 4)]
>>> from_reference_specs(specs)[0].measures["reminder_id"]
'ignore'
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from ..scenario.model import ExpectedChange
from ..world.schema import TABLES
from .similarity import measure_named

# The reference's native ("agentsandbox") namespaces and the tables that hold them here.
NAMESPACE_TABLES: dict[str, str] = {
    "CALENDAR_EVENTS": "calendar.events",
    "CALENDARS": "calendar.calendars",
    "REMINDER": "reminder.reminders",
    "SETTING": "setting.device",
}

# Columns the reference never compares: ids assigned at run time, and values the app fills in.
RUNTIME_ID_COLUMNS = frozenset({"reminder_id", "calendar_event_id", "calendar_id", "person_id", "note_id", "message_id"})
AUTO_GENERATED_COLUMNS = frozenset({
    "created_at", "updated_at", "liked_at", "last_logged_in", "invitation_code", "queue_song_ids",
    "creation_datetime",
})

# Columns the reference ignores when the spec names no measure for them.
UNMEASURED_IGNORED = frozenset({"tags", "data"})

_REFERENCE_KEYS = ("entity_data", "expected_fields", "entity_id_column", "entity_id_value", "source", "namespace",
                   "column_similarity_measure")


def is_ignored(measure: str | None) -> bool:
    """Whether a measure name (ours or the reference's long form) ignores its column."""
    return measure is not None and measure_named(measure) is measure_named("ignore")


def is_reference_spec(item: Mapping[str, Any]) -> bool:
    """Whether a dict looks like a reference ``entity_diff_specs`` item (rather than our format)."""
    return any(k in item for k in _REFERENCE_KEYS)


def _table_of(spec: Mapping[str, Any], table_map: Mapping[str, str], where: str) -> str:
    source = spec.get("source", "appworld" if "table" in spec else "agentsandbox")
    if source == "agentsandbox" or ("namespace" in spec and "table" not in spec):
        ns = spec.get("namespace")
        if not isinstance(ns, str) or not ns:
            raise ValueError(f"{where}: an agentsandbox spec needs a 'namespace' (e.g. CALENDAR_EVENTS)")
        table = table_map.get(ns) or NAMESPACE_TABLES.get(ns.upper())
        if table is None:
            known = sorted({*NAMESPACE_TABLES, *table_map})
            raise ValueError(f"{where}: namespace {ns!r} has no table here; known: {known} (pass table_map={{{ns!r}: 'app.table'}})")
        return table
    if source != "appworld":
        raise ValueError(f"{where}: source must be 'appworld' or 'agentsandbox', got {source!r}")
    table = spec.get("table")
    if not isinstance(table, str) or not table:
        raise ValueError(f"{where}: an appworld spec needs a 'table' such as 'gmail.emails'")
    return table_map.get(table, table)


def _rename(data: Mapping[str, Any], columns: Mapping[str, str]) -> dict[str, Any]:
    return {columns.get(k, k): v for k, v in data.items()}


def _measures(spec: Mapping[str, Any], columns: Mapping[str, str], data: Mapping[str, Any], where: str) -> dict[str, str]:
    raw = spec.get("column_similarity_measure") or {}
    if not isinstance(raw, Mapping):
        raise ValueError(f"{where}.column_similarity_measure: must map columns to measure names")
    out: dict[str, str] = {}
    for col, name in raw.items():
        try:
            measure_named(str(name))
        except ValueError as exc:
            raise ValueError(f"{where}.column_similarity_measure.{col}: {exc}") from None
        out[columns.get(col, col)] = str(name)
    for col, value in data.items():
        if col in RUNTIME_ID_COLUMNS or col in AUTO_GENERATED_COLUMNS:
            out[col] = "ignore"
        elif col not in out and (col in UNMEASURED_IGNORED or value in (None, "", [], {})):
            out[col] = "ignore"
    return out


def from_reference_specs(specs: Iterable[Mapping[str, Any]], table_map: Mapping[str, str] | None = None,
                         *, column_map: Mapping[str, Mapping[str, str]] | None = None) -> list[ExpectedChange]:
    """Convert reference ``entity_diff_specs`` to :class:`ExpectedChange` objects.

    Args:
        specs: the reference scenario's ``entity_diff_specs`` list.
        table_map: extra ``{namespace or reference table: our table}`` entries; the defaults map
            CALENDAR_EVENTS, CALENDARS, REMINDER and SETTING (see :data:`NAMESPACE_TABLES`).
        column_map: optional ``{our table: {reference column: our column}}`` renames.

    Raises ``ValueError`` naming the spec index and field for anything it cannot read.
    """
    tmap = dict(table_map or {})
    out: list[ExpectedChange] = []
    for i, spec in enumerate(specs):
        where = f"entity_diff_specs[{i}]"
        if not isinstance(spec, Mapping):
            raise ValueError(f"{where}: must be an object")
        op = spec.get("operation")
        if op not in ("create", "update", "delete"):
            raise ValueError(f"{where}.operation: must be create, update or delete, got {op!r}")
        table = _table_of(spec, tmap, where)
        columns = dict((column_map or {}).get(table, {}))
        if op == "create":
            data = spec.get("entity_data")
            if not isinstance(data, Mapping) or not data:
                raise ValueError(f"{where}.entity_data: a create needs the expected row")
            row = _rename(data, columns)
            out.append(ExpectedChange("create", table, row=row, measures=_measures(spec, columns, row, where)))
            continue
        id_col = spec.get("entity_id_column")
        if "entity_id_value" not in spec or spec.get("entity_id_value") is None:
            raise ValueError(f"{where}.entity_id_value: an {op} needs the row's id value")
        if table not in TABLES:
            from ..tools import catalog  # noqa: F401  (the apps declare their tables when they are imported)
        our_key = TABLES[table].key if table in TABLES else "id"
        id_col = columns.get(id_col, id_col) if isinstance(id_col, str) else our_key
        if id_col != our_key:
            raise ValueError(f"{where}.entity_id_column: rows of {table} are identified by {our_key!r}, not {id_col!r}")
        key = spec["entity_id_value"]
        if op == "delete":
            out.append(ExpectedChange("delete", table, key=key))
            continue
        fields = spec.get("expected_fields")
        if not isinstance(fields, Mapping) or not fields:
            raise ValueError(f"{where}.expected_fields: an update needs the expected new values")
        fields = {k: v for k, v in _rename(fields, columns).items() if k != our_key}
        measures = {k: v for k, v in _measures(spec, columns, fields, where).items() if k != our_key}
        if not fields:
            raise ValueError(f"{where}.expected_fields: nothing to compare besides the id column")
        out.append(ExpectedChange("update", table, key=key, fields=fields, measures=measures))
    return out
