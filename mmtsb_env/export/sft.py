"""Trajectories -> a ``datasets.Dataset`` in TRL's vision-chat SFT format (``messages`` + ``images``).

Each row's ``messages`` is a list of ``{"role", "content": [parts]}`` with parts
``{"type": "text", "text": ...}`` and ``{"type": "image", "text": None}`` (one per image, in
order), ``images`` is the list of PIL images for those parts -- what TRL's ``SFTTrainer`` with a
vision processor reads -- and ``tools`` the JSON list of the tool schemas the seat was offered.
Messages pass through :func:`mmtsb_env.llm.messages.template_ready`: no turn has empty content
(a tool-call turn carries one empty text part), so stock templates that index ``content[0]``
render them. Tool use is kept in one of two forms:

* ``tool_format="openai"`` (default): assistant messages keep ``tool_calls`` and results are
  ``tool`` messages with ``tool_call_id`` / ``name``, as the environment served them (for chat
  templates that render tools, e.g. Qwen3-VL's or Llama 3.2's);
* ``tool_format="text"``: calls become ``<tool_call>{json}</tool_call>`` text in the assistant
  message (an action the environment parses back) and results become user messages wrapped in
  ``<tool_response>`` tags, for templates that only know user/assistant/system (Qwen2.5-VL,
  SmolVLM/Idefics3, Gemma 3); consecutive turns of one role are merged, so roles alternate.

Requires the ``datasets`` package (``pip install mmtsb-env[export]``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable, Sequence

import pyarrow as pa

from ..llm.messages import template_ready

TOOL_FORMATS = ("openai", "text")


def _features(tool_format: str, extra: dict[str, Any], with_tools: bool):
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
    tools = {"tools": datasets.Value("string")} if with_tools else {}
    return datasets.Features({"messages": datasets.List(message), "images": datasets.List(datasets.Image()), **tools, **extra})


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


def _convert(messages: Sequence[dict[str, Any]], tool_format: str, keep_system: bool) -> list[dict[str, Any]]:
    """Exported messages -> template-ready messages in the dataset's fixed shape (see the module docstring)."""
    wire = [{**m, "content": [{"type": "text", "text": p.get("text") or ""} if p["type"] == "text" else {"type": "image"}
                              for p in m.get("content") or []]}
            for m in messages if keep_system or m["role"] != "system"]
    out = []
    for m in template_ready(wire, tool_format=tool_format):
        parts = [{"type": "text", "text": p["text"]} if p["type"] == "text" else {"type": "image", "text": None}
                 for p in m["content"]]
        if tool_format == "text":
            out.append({"role": m["role"], "content": parts})
            continue
        calls = [{"id": c.get("id"), "type": c["type"],
                  "function": {"name": c["function"]["name"], "arguments": _arguments(c["function"]["arguments"])}}
                 for c in m.get("tool_calls") or []]
        out.append({"role": m["role"], "content": parts, "tool_calls": calls or None,
                    "tool_call_id": m.get("tool_call_id"), "name": m.get("name")})
    return out


def _arguments(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


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
           missing_images: str = "error", tools: bool = True):
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
        tools: add a ``tools`` column: the JSON list of tool schemas the seat was offered (what
            TRL's ``SFTTrainer`` passes to the chat template for text models, and what
            :class:`mmtsb_env.integrations.trl.ToolsVisionCollator` passes for vision models).

    Returns:
        ``datasets.Dataset`` with ``messages``, ``images`` (decoded to PIL on access) and ``tools``.
    """
    import datasets

    if tool_format not in TOOL_FORMATS:
        raise ValueError(f"tool_format must be one of {TOOL_FORMATS}, got {tool_format!r}")
    table = _table(source, missing_images)
    keep = list(keep_columns)
    missing = [c for c in keep if c not in table.column_names]
    if missing:
        raise ValueError(f"keep_columns not in the table: {missing}")
    columns: dict[str, list[Any]] = {"messages": [], "images": [], **({"tools": []} if tools else {}), **{c: [] for c in keep}}
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
        if tools:
            columns["tools"].append(row["tools"] or "[]")
        for c in keep:
            columns[c].append(row[c])
    extra = {c: datasets.Features.from_arrow_schema(pa.schema([table.schema.field(c)]))[c] for c in keep}
    return datasets.Dataset.from_dict(columns, features=_features(tool_format, extra, tools))
