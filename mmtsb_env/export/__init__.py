"""Parquet trajectory export: schema, writer, reader and SFT conversion.

>>> from mmtsb_env.export import SCHEMA_VERSION, episode_schema
>>> "messages" in episode_schema().names and SCHEMA_VERSION >= 1
True

See ``docs/export.md`` for the schema, column by column.
"""

from .reader import (SchemaVersionError, import_messages, iter_batches, load_run, read_parquet, read_table,
                     rows_to_records)
from .rows import episode_id, episode_rows, export_messages, restore_scenario_images, seat_steps, step_rows
from .schema import EPISODE_COLUMNS, SCHEMA_VERSION, STEP_COLUMNS, episode_schema, step_schema
from .sft import to_sft
from .tokens import flatten_tokens
from .writer import STEPS_FILE, TRAJECTORIES_FILE, AtomicParquetFile, TrajectoryWriter, export_run, write_parquet

__all__ = [
    "AtomicParquetFile", "EPISODE_COLUMNS", "SCHEMA_VERSION", "STEPS_FILE", "STEP_COLUMNS", "SchemaVersionError",
    "TRAJECTORIES_FILE", "TrajectoryWriter", "episode_id", "episode_rows", "episode_schema", "export_messages",
    "export_run", "flatten_tokens", "import_messages", "iter_batches", "load_run", "read_parquet", "read_table",
    "restore_scenario_images", "rows_to_records", "seat_steps", "step_rows", "step_schema", "to_sft", "write_parquet",
]
