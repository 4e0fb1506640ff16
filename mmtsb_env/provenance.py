"""What a run was made with, so its numbers can be trusted and compared: :func:`run_metadata`.

Recorded in ``results.json`` (``"metadata"``) and in the key-value metadata of the Parquet files
(``mmtsb.run`` holds the same JSON): package version, git commit (when the package runs from a
checkout), the library versions that change results (Faker draws the base world, numpy and Pillow
the images), a fingerprint of each base world used, the options of env, agent, sampling and
judges, the seeds and a UTC timestamp.

>>> meta = run_metadata(env_options={"mode": "tool"}, seeds=[0])
>>> meta["libraries"]["Faker"] is not None, len(meta["base_worlds"]["0"])
(True, 16)
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from datetime import datetime, timezone
from functools import lru_cache
from importlib import metadata as importlib_metadata
from pathlib import Path
from typing import Any, Iterable, Mapping

# Distributions whose version changes what a run produces (world contents, images, rankings, scores).
RESULT_LIBRARIES = ("Faker", "numpy", "Pillow", "bm25s", "RestrictedPython", "gymnasium", "pettingzoo", "pyarrow")
METADATA_FORMAT = "mmtsb-run-metadata-1"
PARQUET_KEY = "mmtsb.run"


def library_versions(names: Iterable[str] = RESULT_LIBRARIES) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for name in names:
        try:
            out[name] = importlib_metadata.version(name)
        except importlib_metadata.PackageNotFoundError:
            out[name] = None
    return out


@lru_cache(maxsize=1)
def git_commit() -> str | None:
    """The commit of the checkout the package is imported from (``-dirty`` if modified), else None."""
    root = Path(__file__).resolve().parent.parent
    if not (root / ".git").exists():
        return None
    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True,
                                timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return commit + ("-dirty" if dirty else "") if commit else None


@lru_cache(maxsize=8)
def world_fingerprint(seed: int = 0) -> str:
    """A short digest of every row of the base world built from ``seed``."""
    from .world.base import base_world

    digest = hashlib.sha256()
    for table, rows in sorted(base_world(seed).layer.tables.items()):
        digest.update(table.encode())
        for key in sorted(rows, key=repr):
            digest.update(repr(key).encode())
            digest.update(json.dumps(rows[key], sort_keys=True, default=str).encode())
    return digest.hexdigest()[:16]


def run_metadata(*, env_options: Mapping[str, Any] | None = None, agent: Mapping[str, Any] | None = None,
                 sampling: Mapping[str, Any] | None = None, judge: Mapping[str, Any] | None = None,
                 user: Mapping[str, Any] | None = None, suite: Any = None, seeds: Iterable[int] = (0,),
                 world_seeds: Iterable[int] = (0,), **extra: Any) -> dict[str, Any]:
    """Everything needed to tell whether two runs are comparable (plain JSON data)."""
    from . import __version__

    return {
        "format": METADATA_FORMAT,
        "package": "mmtsb_env",
        "version": __version__,
        "git_commit": git_commit(),
        "libraries": library_versions(),
        "base_worlds": {str(s): world_fingerprint(int(s)) for s in sorted(set(world_seeds))},
        "suite": suite,
        "seeds": [int(s) for s in seeds],
        "env": dict(env_options or {}),
        "agent": dict(agent or {}),
        "sampling": dict(sampling or {}),
        "judge": dict(judge or {}),
        "user": dict(user or {}),
        "timestamp": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        **extra,
    }


def comparable(a: Mapping[str, Any], b: Mapping[str, Any]) -> list[str]:
    """The settings in which two metadata records differ (empty: the runs can be merged/resumed)."""
    keys = ("version", "libraries", "base_worlds", "suite", "env", "agent", "sampling", "judge", "user")
    return [k for k in keys if json.dumps(a.get(k), sort_keys=True, default=str) != json.dumps(b.get(k), sort_keys=True, default=str)]
