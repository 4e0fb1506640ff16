"""Trajectories -> a ``datasets.Dataset`` in TRL's vision-chat SFT format (``messages`` + ``images``).

Each row's ``messages`` is a list of ``{"role", "content": [parts]}`` with parts
``{"type": "text", "text": ...}`` and ``{"type": "image", "text": None}`` (one per image, in
order), and ``images`` is the list of PIL images for those parts -- what TRL's ``SFTTrainer``
with a vision processor reads. Tool use is kept in one of two forms:

* ``tool_format="openai"`` (default): assistant messages keep ``tool_calls`` and results are
  ``tool`` messages with ``tool_call_id`` / ``name``, as the environment served them (for chat
  templates that render tools, e.g. Qwen2.5-VL's);
* ``tool_format="text"``: calls become ``<tool_call>{json}</tool_call>`` text in the assistant
  message (an action the environment parses back) and results become user messages wrapped in
  ``<tool_response>`` tags, for templates that only know user/assistant/system.

Requires the ``datasets`` package (``pip install mmtsb-env[export]``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable, Sequence

import pyarrow as pa

TOOL_FORMATS = ("openai", "text")


def _features(tool_format: str, extra: dict[str, Any]):
    import datasets

    part = {"type": datasets.Value("string"), "text": datasets.Value("string")}
    message: dict[str, Any] = {"role": datasets.Value("string"), "content": datasets.List(part)}
    if tool_format == "openai":
        message["tool_calls"] = datasets.List({
            "id": datasets.Value("string"), "type": datasets.Value("string"),
            "function": {"name": datasets.Value("string"), "arguments": datasets.Value("string")},
        })
        message["tool_call_id"] = datasets.Value("string")
        message["name"] = datasets.Value("string")
    return datasets.Features({"messages": datasets.List(message), "images": datasets.List(datasets.Image()), **extra})


def _table(source: Any, missing_images: str) -> pa.Table:
    if isinstance(source, pa.Table):
        return source
    if isinstance(source, (str, Path)):
        from .reader import read_table

        return read_table(source)
    try:
        import datasets

        if isinstance(source, datasets.Dataset):
            return source.with_format("arrow")[:]
    except ImportError:  # pragma: no cover - datasets is required below anyway
        pass
    from .rows import episode_rows
    from .schema import episode_schema

    rows = []
    for record in source:
        rows.extend(episode_rows(record, missing_images=missing_images))
    return pa.Table.from_pylist(rows, schema=episode_schema())


def _text(parts: Sequence[dict[str, Any]]) -> str:
    return "".join(p.get("text") or "" for p in parts if p.get("type") == "text")


def _convert(messages: Sequence[dict[str, Any]], tool_format: str, keep_system: bool) -> list[dict[str, Any]]:
    out = []
    for m in messages:
        role = m["role"]
        if role == "system" and not keep_system:
            continue
        parts = [{"type": "text", "text": p.get("text") or ""} if p["type"] == "text" else {"type": "image", "text": None}
                 for p in m.get("content") or []]
        calls = m.get("tool_calls") or []
        if tool_format == "openai":
            out.append({"role": role, "content": parts,
                        "tool_calls": [{"id": c["id"], "type": c.get("type") or "function",
                                        "function": {"name": c["function"]["name"], "arguments": c["function"]["arguments"]}}
                                       for c in calls] or None,
                        "tool_call_id": m.get("tool_call_id"), "name": m.get("name")})
            continue
        if role == "tool":
            text = f"<tool_response>\n{_text(parts)}\n</tool_response>"
            out.append({"role": "user", "content": [{"type": "text", "text": text}]})
            continue
        if calls:
            tags = "\n".join(
                "<tool_call>\n" + json.dumps({"name": c["function"]["name"], "arguments": json.loads(c["function"]["arguments"] or "{}")},
                                             ensure_ascii=False) + "\n</tool_call>"
                for c in calls)
            prose = _text(parts)
            parts = [{"type": "text", "text": f"{prose}\n{tags}" if prose else tags}]
        out.append({"role": role, "content": parts})
    return out


def _image_bytes(image: Any) -> dict[str, Any]:
    if isinstance(image, dict):
        return {"bytes": image["bytes"], "path": None}
    if isinstance(image, (bytes, bytearray)):
        return {"bytes": bytes(image), "path": None}
    from ..vision.store import png_bytes  # a PIL image (datasets already decoded it)

    return {"bytes": png_bytes(image), "path": None}


def to_sft(source: Any, *, seats: Sequence[str] = ("assistant",), only_trainable: bool = False,
           only_passed: bool = False, min_return: float | None = None, tool_format: str = "openai",
           keep_system: bool = True, keep_columns: Iterable[str] = ("episode_id", "scenario_id", "seat", "seat_return", "passed"),
           missing_images: str = "error"):
    """Build a TRL-ready SFT dataset.

    Args:
        source: EpisodeRecords, an episode table (``pyarrow.Table``), a Parquet path, or a
            ``datasets.Dataset`` loaded from one.
        seats: which seats' views become examples (``("user",)`` trains a user simulator).
        only_trainable: keep only rows flagged ``trainable``.
        only_passed: keep only episodes the judge passed (rejection-sampling style SFT).
        min_return: keep only rows whose ``seat_return`` is at least this.
        tool_format: ``"openai"`` or ``"text"`` (see the module docstring).
        keep_system: keep the system prompt.
        keep_columns: episode-table columns copied alongside ``messages`` and ``images``.
        missing_images: for records without captured images (see :class:`TrajectoryWriter`).

    Returns:
        ``datasets.Dataset`` with ``messages`` and ``images`` (decoded to PIL on access).
    """
    import datasets

    if tool_format not in TOOL_FORMATS:
        raise ValueError(f"tool_format must be one of {TOOL_FORMATS}, got {tool_format!r}")
    table = _table(source, missing_images)
    keep = list(keep_columns)
    missing = [c for c in keep if c not in table.column_names]
    if missing:
        raise ValueError(f"keep_columns not in the table: {missing}")
    columns: dict[str, list[Any]] = {"messages": [], "images": [], **{c: [] for c in keep}}
    for row in table.to_pylist():
        if row["seat"] not in seats or (only_trainable and not row["trainable"]):
            continue
        if (only_passed and not row["passed"]) or (min_return is not None and row["seat_return"] < min_return):
            continue
        messages = _convert(row["messages"], tool_format, keep_system)
        images = [_image_bytes(i) for i in row["images"] or []]
        n_parts = sum(p["type"] == "image" for m in messages for p in m["content"])
        if n_parts != len(images):
            raise ValueError(f"{row['episode_id']}: {n_parts} image parts but {len(images)} images")
        columns["messages"].append(messages)
        columns["images"].append(images)
        for c in keep:
            columns[c].append(row[c])
    extra = {c: datasets.Features.from_arrow_schema(pa.schema([table.schema.field(c)]))[c] for c in keep}
    return datasets.Dataset.from_dict(columns, features=_features(tool_format, extra))
