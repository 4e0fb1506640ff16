"""A suite folder's index: each scenario file's size, CRC-32, the ids of the scenarios it holds
and where each one's JSON starts and ends in the file.

The built-in suites ship one (``suite.index``, JSON) beside their scenario files, so an env can
count a suite and look an id up without parsing any file, and parse just the scenario it plays
(the nominal suite's 3.2 MB of JSON cost ~55 ms to parse; reading and checksumming it ~3 ms). A file whose bytes no longer match its
entry is parsed instead: a stale index costs time, never correctness. Writers of suite folders
(``generation.suite.write_scenarios``, ``generation.ui_variants.write_ui_suite``) refresh it; after
editing a suite by hand, run ``python -c "from mmtsb_env.scenario.index import write_index;
write_index('scenarios/demo')"`` (``tests/scenario/test_suite_index.py`` fails while a built-in
index is stale).
"""

from __future__ import annotations

import gzip
import json
import re
import zlib
from pathlib import Path
from typing import Any

SUITE_FILES = (".json", ".json.gz")  # a suite folder's scenario files (gzip for large suites)
INDEX_NAME = "suite.index"  # not *.json: folder loaders read every *.json as scenarios
FORMAT = 1


def scenario_files(folder: Any) -> list[Any]:
    """The scenario files of ``folder`` (a path or an importlib Traversable), sorted by name."""
    return sorted((e for e in folder.iterdir() if e.name.endswith(SUITE_FILES)), key=lambda e: e.name)


def text_of(name: str, data: bytes) -> str:
    """The text of scenario file ``name`` from its bytes (gunzipped when it ends in ``.gz``)."""
    return (gzip.decompress(data) if name.endswith(".gz") else data).decode("utf-8")


def decode(name: str, data: bytes) -> Any:
    """The JSON held by the bytes of scenario file ``name``."""
    return json.loads(text_of(name, data))


_SPACE = re.compile(r"[ \t\n\r]*")


def item_spans(text: str) -> list[list[int]]:
    """``[start, end)`` character offsets of each element of the JSON list ``text``: parsing
    ``text[start:end]`` gives that element exactly as parsing the whole list does."""
    decoder = json.JSONDecoder()
    pos = _SPACE.match(text).end()
    if text[pos:pos + 1] != "[":
        raise ValueError("not a JSON list")
    pos = _SPACE.match(text, pos + 1).end()
    spans: list[list[int]] = []
    if text[pos:pos + 1] == "]":
        return spans
    while True:
        _, end = decoder.raw_decode(text, pos)
        spans.append([pos, end])
        pos = _SPACE.match(text, end).end()
        if text[pos:pos + 1] == "]":
            return spans
        if text[pos:pos + 1] != ",":
            raise ValueError(f"expected ',' or ']' at {pos}")
        pos = _SPACE.match(text, pos + 1).end()


def file_entry(name: str, data: bytes, content: Any, text: str | None = None) -> dict[str, Any]:
    """The index entry of one file: its size and CRC-32, whether it holds a list, the ids in order
    and, given the file's text, where each element of a list starts and ends in it."""
    items = content if isinstance(content, list) else [content]
    entry = {"name": name, "bytes": len(data), "crc32": zlib.crc32(data), "list": isinstance(content, list),
             "ids": [item.get("id") if isinstance(item, dict) else None for item in items]}
    if text is not None and isinstance(content, list):
        entry["spans"] = item_spans(text)
    return entry


def matches(entry: dict[str, Any] | None, data: bytes) -> bool:
    """Whether ``entry`` still describes the file whose bytes are ``data``."""
    return entry is not None and entry.get("bytes") == len(data) and entry.get("crc32") == zlib.crc32(data)


def build_index(folder: Any) -> dict[str, Any]:
    files = []
    for path in scenario_files(folder):
        data = path.read_bytes()
        text = text_of(path.name, data)
        files.append(file_entry(path.name, data, json.loads(text), text))
    return {"format": FORMAT, "files": files}


def write_index(folder: str | Path) -> Path:
    """(Re)write ``folder``'s index from its scenario files; byte-for-byte deterministic."""
    path = Path(folder) / INDEX_NAME
    files = build_index(Path(folder))["files"]
    lines = ",\n".join(json.dumps(f, ensure_ascii=False) for f in files)  # one line per file: readable diffs
    path.write_text(f'{{"format": {FORMAT}, "files": [\n{lines}\n]}}\n', encoding="utf-8")
    return path


def read_index(folder: Any) -> dict[str, dict[str, Any]]:
    """File name -> entry of ``folder``'s index; empty when there is none or it cannot be read."""
    try:
        data = json.loads(folder.joinpath(INDEX_NAME).read_bytes())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return {}
    files = data.get("files")
    return {f["name"]: f for f in (files if isinstance(files, list) else [])
            if isinstance(f, dict) and isinstance(f.get("name"), str) and isinstance(f.get("ids"), list)
            and isinstance(f.get("list"), bool)}
