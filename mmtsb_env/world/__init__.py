"""World state: declared tables, layered copy-on-write rows, diffs, the frozen clock."""

from .clock import format_datetime, format_datetime_tz, parse_datetime
from .schema import SchemaError, TableSpec, TABLES, define_table, table_spec
from .store import DELETED, Layer, Row, RowNotFound, TableDiff, World, build_layer

__all__ = [
    "DELETED", "Layer", "Row", "RowNotFound", "SchemaError", "TABLES", "TableDiff", "TableSpec",
    "World", "build_layer", "define_table", "format_datetime", "format_datetime_tz",
    "parse_datetime", "table_spec",
]
