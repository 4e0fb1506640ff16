"""Writing generated scenarios to disk: files grouped by flow, plus a generation report."""

from __future__ import annotations

import gzip
import json
from collections import defaultdict
from pathlib import Path
from typing import Any, Sequence

from ..scenario.index import write_index
from ..scenario.model import Scenario
from .verify import check_distribution


def _write_json(path: Path, data: Any, compress: bool) -> Path:
    if not compress:
        path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        return path
    path = path.with_name(path.name + ".gz")
    raw = (json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
    with open(path, "wb") as fh, gzip.GzipFile(filename="", mode="wb", fileobj=fh, mtime=0, compresslevel=9) as gz:
        gz.write(raw)  # mtime 0 and no file name: the same scenarios give the same bytes
    return path


def write_scenarios(scenarios: Sequence[Scenario], out: str | Path, *, group_by: str | None = "flow_type",
                    report: dict[str, Any] | None = None, compress: bool = False) -> list[Path]:
    """Write ``scenarios`` as format-v1 JSON under ``out``.

    ``group_by="flow_type"`` (default) writes one JSON list per flow (``aggregate.json`` ...);
    ``group_by=None`` writes one file per scenario (its id with ``/`` replaced by ``_``).
    ``compress=True`` writes compact ``.json.gz`` files instead (the loaders read both).
    ``report`` (stats, distribution) is written to ``generation_report.md`` (not ``.json``: suite
    loaders read every ``*.json`` in the folder as scenarios). The folder's index
    (:mod:`~mmtsb_env.scenario.index`) is rewritten last.
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    if group_by is None:
        for s in scenarios:
            written.append(_write_json(out / (s.id.replace("/", "_") + ".json"), s.to_dict(), compress))
    else:
        groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for s in scenarios:
            groups[str(s.metadata.get(group_by, "other"))].append(s.to_dict())
        for name, items in sorted(groups.items()):
            written.append(_write_json(out / f"{name}.json", items, compress))
    if report is not None:
        dist = check_distribution(scenarios, min_per_cell=0)
        data = {**report, "count": len(scenarios), "distribution": dist.counts, "cells_covered": dist.cells_covered,
                "min_per_cell": dist.min_per_cell}
        path = out / "generation_report.md"
        text = ("# Generation report\n\n"
                f"{len(scenarios)} scenarios; {dist.cells_covered}/112 design cells covered, at least {dist.min_per_cell} per cell.\n\n"
                "```json\n" + json.dumps(data, indent=1) + "\n```\n")
        path.write_text(text, encoding="utf-8")
        written.append(path)
    write_index(out)  # the ids of every scenario file in the folder (what lazy suite loading reads)
    return written
