"""Write episode records to Parquet: streaming, zstd-compressed, atomic.

A file appears at its target path only once it is complete: rows stream into a hidden temporary
file in the same folder (``.NAME.<pid>.<random>.tmp``), which is fsynced and then moved over
the target with :func:`os.replace`. If anything fails before that -- an exception, ``abort()``,
the writer being garbage collected unclosed -- the temporary file is removed and the target
path is untouched (an older complete file there stays as it was).

>>> import tempfile, pathlib
>>> from mmtsb_env.runner import run_episode
>>> from mmtsb_env.baselines import OracleAgent
>>> import mmtsb_env
>>> demo = mmtsb_env.load_suite("demo")
>>> rec = run_episode(demo[0], OracleAgent(demo), capture_images=True)
>>> out = pathlib.Path(tempfile.mkdtemp()) / "t.parquet"
>>> write_parquet([rec], out).name
't.parquet'
>>> import pyarrow.parquet as pq
>>> pq.read_table(out).column("seat").to_pylist()
['assistant', 'user']
"""

from __future__ import annotations

import json
import os
import uuid
import weakref
from collections import Counter
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import pyarrow as pa
import pyarrow.parquet as pq

from ..limits import scrub_deep
from .rows import SEATS, episode_rows, record_repeat_key, step_rows
from .schema import episode_schema, step_schema

DEFAULT_ROW_GROUP_SIZE = 32
TRAJECTORIES_FILE = "trajectories.parquet"
STEPS_FILE = "steps.parquet"


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def _with_run(schema: pa.Schema, metadata: Mapping[str, Any] | None) -> pa.Schema:
    if not metadata:
        return schema
    return schema.with_metadata({**(schema.metadata or {}), b"mmtsb.run": json.dumps(metadata, default=str).encode()})


class AtomicParquetFile:
    """One Parquet file written through a temporary sibling and moved into place on ``commit()``."""

    def __init__(self, path: str | Path, schema: pa.Schema, *, row_group_size: int,
                 compression: str = "zstd", compression_level: int | None = None) -> None:
        if row_group_size < 1:
            raise ValueError(f"row_group_size must be >= 1, got {row_group_size}")
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.schema = schema
        self.row_group_size = row_group_size
        self.tmp = str(self.path.parent / f".{self.path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
        self._writer: pq.ParquetWriter | None = pq.ParquetWriter(
            self.tmp, schema, compression=compression, compression_level=compression_level)
        self._rows: list[dict[str, Any]] = []
        self.rows_written = 0
        # Never leave a temporary file behind, even if the owner forgets to close us.
        self._finalizer = weakref.finalize(self, _discard, self._writer, self.tmp)

    def add(self, rows: Iterable[dict[str, Any]]) -> None:
        self._rows.extend(rows)
        while len(self._rows) >= self.row_group_size:
            chunk, self._rows = self._rows[:self.row_group_size], self._rows[self.row_group_size:]
            self._write(chunk)

    def _write(self, rows: list[dict[str, Any]]) -> None:
        if self._writer is None:
            raise RuntimeError(f"{self.path}: the writer is closed")
        table = pa.Table.from_pylist(scrub_deep(rows), schema=self.schema)  # Parquet text is UTF-8: lone surrogates -> U+FFFD
        self._writer.write_table(table, row_group_size=len(rows))
        self.rows_written += len(rows)

    def commit(self) -> Path:
        """Write the last row group, close, fsync and move the file into place."""
        if self._rows:
            self._write(self._rows)
            self._rows = []
        if self._writer is None:
            raise RuntimeError(f"{self.path}: already closed")
        self._writer.close()
        self._writer = None
        with open(self.tmp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(self.tmp, self.path)
        self._finalizer.detach()
        try:  # make the rename itself durable
            fd = os.open(self.path.parent, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError:  # pragma: no cover - some filesystems refuse directory fsync
            pass
        return self.path

    def abort(self) -> None:
        """Drop everything written so far; the target path is left as it was."""
        self._rows = []
        writer, self._writer = self._writer, None
        self._finalizer.detach()
        _discard(writer, self.tmp)


def _discard(writer: pq.ParquetWriter | None, tmp: str) -> None:
    if writer is not None:
        try:
            writer.close()
        except Exception:  # pragma: no cover - best effort on a broken stream
            pass
    _remove(tmp)


class TrajectoryWriter:
    """Stream :class:`~mmtsb_env.runner.EpisodeRecord` s into a Parquet episode table (and optionally a step table).

    Args:
        path: target ``.parquet`` file.
        seats: which seats get a row per episode (default both).
        trainable: seats flagged ``trainable`` (default: a record's ``trainable_seats`` or ``("assistant",)``).
        row_group_size: rows per row group (smaller streams better, larger compresses better).
        compression: Parquet codec (default ``"zstd"``).
        steps_path: also write the step table there.
        missing_images: what to do when messages show an image whose PNG the record lacks:
            ``"error"`` (default), ``"restore"`` (re-render scenario images, drop the rest) or ``"drop"``
            (replace the image part by a ``[image N not stored]`` text part).
        scenarios: where ``"restore"`` looks scenarios up (default: the built-in suites).
        metadata: the run's metadata (:func:`mmtsb_env.provenance.run_metadata`), stored as JSON
            under the schema key ``mmtsb.run`` of both files.

    Use as a context manager: leaving the block normally commits the files, an exception aborts them.
    """

    def __init__(self, path: str | Path, *, seats: Sequence[str] = SEATS, trainable: Sequence[str] | None = None,
                 row_group_size: int = DEFAULT_ROW_GROUP_SIZE, compression: str = "zstd",
                 compression_level: int | None = None, steps_path: str | Path | None = None,
                 missing_images: str = "error", scenarios: Iterable[Any] | None = None,
                 metadata: Mapping[str, Any] | None = None) -> None:
        self.seats = tuple(seats)
        self.trainable = tuple(trainable) if trainable is not None else None
        self.missing_images = missing_images
        self.scenarios = list(scenarios) if scenarios is not None else None
        self._repeats: Counter = Counter()
        self.episodes = AtomicParquetFile(path, _with_run(episode_schema(), metadata), row_group_size=row_group_size,
                                          compression=compression, compression_level=compression_level)
        self.steps = None
        if steps_path is not None:
            try:
                self.steps = AtomicParquetFile(steps_path, _with_run(step_schema(), metadata), row_group_size=max(row_group_size, 256),
                                               compression=compression, compression_level=compression_level)
            except BaseException:
                self.episodes.abort()
                raise
        self.records_written = 0

    def write(self, record: Any, *, repeat: int | None = None) -> None:
        """Add one record. ``repeat`` (default: how often this scenario/seed/agent/mode was written before) enters the episode id."""
        if repeat is None:
            key = record_repeat_key(record)
            repeat = self._repeats[key]
            self._repeats[key] += 1
        rows = episode_rows(record, seats=self.seats, trainable=self.trainable, missing_images=self.missing_images,
                            repeat=repeat, scenarios=self.scenarios)
        steps = step_rows(record, repeat=repeat) if self.steps is not None else None
        self.episodes.add(rows)
        if steps is not None:
            self.steps.add(steps)
        self.records_written += 1

    def close(self) -> Path:
        """Commit the file(s); returns the episode table's path."""
        path = self.episodes.commit()
        if self.steps is not None:
            self.steps.commit()
        return path

    def abort(self) -> None:
        self.episodes.abort()
        if self.steps is not None:
            self.steps.abort()

    def __enter__(self) -> "TrajectoryWriter":
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if exc_type is None:
            self.close()
        else:
            self.abort()


def write_parquet(records: Iterable[Any], path: str | Path, **options: Any) -> Path:
    """Write records (any iterable, consumed lazily) to ``path`` atomically; options as :class:`TrajectoryWriter`."""
    with TrajectoryWriter(path, **options) as writer:
        for record in records:
            writer.write(record)
    return Path(path)


def export_run(records: Iterable[Any], out_dir: str | Path, *, steps: bool = True,
               missing_images: str = "restore", **options: Any) -> dict[str, Path]:
    """Write a run's records as ``out_dir/trajectories.parquet`` (+ ``steps.parquet``).

    Meant for ``mmtsb eval --out``: records captured with ``capture_images=True`` keep every
    image; without it the scenario's own images are re-rendered (``missing_images="restore"``).
    """
    out_dir = Path(out_dir)
    paths = {"trajectories": out_dir / TRAJECTORIES_FILE}
    if steps:
        paths["steps"] = out_dir / STEPS_FILE
    write_parquet(records, paths["trajectories"], steps_path=paths.get("steps"), missing_images=missing_images, **options)
    return paths
