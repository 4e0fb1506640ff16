"""A suite folder's index: each scenario file's size, CRC-32 and the ids of the scenarios it holds.

The built-in suites ship one (``suite.index``, JSON) beside their scenario files, so an env can
count a suite and look an id up without parsing every file (the nominal suite's 3.2 MB of JSON
cost ~55 ms to parse; reading and checksumming it ~3 ms). A file whose bytes no longer match its
entry is parsed instead: a stale index costs time, never correctness. Writers of suite folders
(``generation.suite.write_scenarios``, ``generation.ui_variants.write_ui_suite``) refresh it; after
editing a suite by hand, run ``python -c "from mmtsb_env.scenario.index import write_index;
write_index('scenarios/demo')"`` (``tests/scenario/test_suite_index.py`` fails while a built-in
index is stale).
"""

from __future__ import annotations

import gzip
import json
import zlib
from pathlib import Path
from typing import Any

SUITE_FILES = (".json", ".json.gz")  # a suite folder's scenario files (gzip for large suites)
INDEX_NAME = "suite.index"  # not *.json: folder loaders read every *.json as scenarios
FORMAT = 1


def scenario_files(folder: Any) -> list[Any]:
    """The scenario files of ``folder`` (a path or an importlib Traversable), sorted by name."""
    return sorted((e for e in folder.iterdir() if e.name.endswith(SUITE_FILES)), key=lambda e: e.name)


def decode(name: str, data: bytes) -> Any:
    """The JSON held by the bytes of scenario file ``name`` (gunzipped when it ends in ``.gz``)."""
    return json.loads((gzip.decompress(data) if name.endswith(".gz") else data).decode("utf-8"))


def file_entry(name: str, data: bytes, content: Any) -> dict[str, Any]:
    """The index entry of one file: its size and CRC-32, whether it holds a list, the ids in order."""
    items = content if isinstance(content, list) else [content]
    return {"name": name, "bytes": len(data), "crc32": zlib.crc32(data), "list": isinstance(content, list),
            "ids": [item.get("id") if isinstance(item, dict) else None for item in items]}


def matches(entry: dict[str, Any] | None, data: bytes) -> bool:
    """Whether ``entry`` still describes the file whose bytes are ``data``."""
    return entry is not None and entry.get("bytes") == len(data) and entry.get("crc32") == zlib.crc32(data)


def build_index(folder: Any) -> dict[str, Any]:
    files = []
    for path in scenario_files(folder):
        data = path.read_bytes()
        files.append(file_entry(path.name, data, decode(path.name, data)))
    return {"format": FORMAT, "files": files}


def write_index(folder: str | Path) -> Path:
    """(Re)write ``folder``'s index from its scenario files; byte-for-byte deterministic."""
    path = Path(folder) / INDEX_NAME
    path.write_text(json.dumps(build_index(Path(folder)), indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def read_index(folder: Any) -> dict[str, dict[str, Any]]:
    """File name -> entry of ``folder``'s index; empty when there is none or it cannot be read."""
    try:
        data = json.loads(folder.joinpath(INDEX_NAME).read_bytes())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return {}
    return {f["name"]: f for f in data.get("files", []) if isinstance(f, dict) and "name" in f}
