"""Shared helpers of the benchmark scripts: medians, the machine's load, results on disk.

Every benchmark checks, outside the timed region, that what it timed did the real thing (the
call succeeded, pixels were drawn, the score is the expected one) and prints the machine load
next to its figures, because the project machine is shared.
"""

from __future__ import annotations

import json
import os
import statistics
import time
from pathlib import Path
from typing import Any, Callable

RESULTS = Path(__file__).parent / "results"


def load() -> str:
    """``"load 1.23/2 cores"``: the 1-minute load average against the cores available."""
    try:
        one = os.getloadavg()[0]
    except OSError:  # pragma: no cover - platforms without getloadavg
        return "load unknown"
    return f"load {one:.2f}/{os.cpu_count()} cores"


def median_s(fn: Callable[[], Any], n: int, *, setup: Callable[[], Any] | None = None) -> float:
    """Median wall time of ``fn()`` over ``n`` runs (``setup()`` before each, not timed)."""
    times = []
    for _ in range(n):
        if setup is not None:
            setup()
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def check(condition: bool, what: str) -> None:
    """Fail the benchmark (not silently report a figure) when it did not exercise the real path."""
    if not condition:
        raise SystemExit(f"benchmark invalid: {what}")


def save(name: str, data: dict[str, Any]) -> Path:
    """Write ``benchmarks/results/<name>.json`` (read by ``plot_performance.py``)."""
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps({"load": load(), **data}, indent=1))
    return path
