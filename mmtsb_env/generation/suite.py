"""Writing generated scenarios to disk: files grouped by flow, plus a generation report."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any, Sequence

from ..scenario.model import Scenario
from .verify import check_distribution


def write_scenarios(scenarios: Sequence[Scenario], out: str | Path, *, group_by: str | None = "flow_type",
                    report: dict[str, Any] | None = None) -> list[Path]:
    """Write ``scenarios`` as format-v1 JSON under ``out``.

    ``group_by="flow_type"`` (default) writes one JSON list per flow (``aggregate.json`` ...);
    ``group_by=None`` writes one file per scenario (its id with ``/`` replaced by ``_``).
    ``report`` (stats, distribution) is written to ``generation_report.md`` (not ``.json``: suite
    loaders read every ``*.json`` in the folder as scenarios).
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    if group_by is None:
        for s in scenarios:
            path = out / (s.id.replace("/", "_") + ".json")
            path.write_text(json.dumps(s.to_dict(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
            written.append(path)
    else:
        groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for s in scenarios:
            groups[str(s.metadata.get(group_by, "other"))].append(s.to_dict())
        for name, items in sorted(groups.items()):
            path = out / f"{name}.json"
            path.write_text(json.dumps(items, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
            written.append(path)
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
    return written
