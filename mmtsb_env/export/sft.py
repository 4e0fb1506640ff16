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

``tool_format="auto"`` (with ``chat_template=`` a Jinja string, a tokenizer or a processor) picks
the form the template actually renders: it renders a probe conversation in the dataset's own row
shape in each candidate form and keeps the first in which the call, its arguments, the result and
the tool schemas all appear (:func:`template_fit`). A template that ignores ``tools=`` gets the
schemas written into the system prompt instead, so the model always sees them. Text-only
templates (Llama 3.2's) get string contents; a row with images then refuses with one line.

Images a run did not store (``mmtsb eval --out`` without ``--images`` writes ``[image N not
stored]`` placeholders) are re-rendered from the scenario (``missing_images="restore"``, the
default): scenario images are procedural. An image a tool made mid-episode cannot be re-rendered;
such a row refuses with one line (or keeps the placeholder with ``missing_images="drop"``).

Requires the ``datasets`` package (``pip install mmtsb-env[export]``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable, Sequence

import pyarrow as pa

from ..llm.messages import schemas_text, template_ready
from .rows import MISSING_IMAGE_RE, MISSING_IMAGES, restore_scenario_images

TOOL_FORMATS = ("openai", "text")
CONTENT_STYLES = ("parts", "string")
# Candidate row shapes in order of preference: native tool turns first, then tags in text.
FITS = (("openai", "parts"), ("text", "parts"), ("openai", "string"), ("text", "string"))


def _features(tool_format: str, extra: dict[str, Any], with_tools: bool, content: str = "parts"):
    import datasets

    part = {"type": datasets.Value("string"), "text": datasets.Value("string")}
    body = datasets.List(part) if content == "parts" else datasets.Value("string")
    message: dict[str, Any] = {"role": datasets.Value("string"), "content": body}
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


def _with_schemas(messages: list[dict[str, Any]], tools: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """``messages`` with the schemas appended to the system prompt (one is added if there is none)."""
    if messages and messages[0]["role"] == "system":  # one text part: some templates read only the first
        head = "".join(p.get("text") or "" for p in messages[0].get("content") or [] if p["type"] == "text")
        return [{**messages[0], "content": [{"type": "text", "text": head + schemas_text(tools)}]}, *messages[1:]]
    return [{"role": "system", "content": [{"type": "text", "text": schemas_text(tools).lstrip()}]}, *messages]


def _convert(messages: Sequence[dict[str, Any]], tool_format: str, keep_system: bool,
             content: str = "parts") -> list[dict[str, Any]]:
    """Exported messages -> template-ready messages in the dataset's fixed shape (see the module docstring)."""
    wire = [{**m, "content": [{"type": "text", "text": p.get("text") or ""} if p["type"] == "text" else {"type": "image"}
                              for p in m.get("content") or []]}
            for m in messages if keep_system or m["role"] != "system"]
    out = []
    for m in template_ready(wire, tool_format=tool_format):
        parts: Any = [{"type": "text", "text": p["text"]} if p["type"] == "text" else {"type": "image", "text": None}
                      for p in m["content"]]
        if content == "string":
            parts = "".join(p["text"] for p in parts if p["type"] == "text")
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


def _template_text(chat_template: Any) -> str:
    """The Jinja text of a template given as a string, a tokenizer or a processor."""
    if isinstance(chat_template, str):
        return chat_template
    for owner in (chat_template, getattr(chat_template, "tokenizer", None)):
        text = getattr(owner, "chat_template", None)
        if isinstance(text, str) and text:
            return text
    raise ValueError("chat_template must be a Jinja string or a tokenizer/processor with a chat_template")


_PROBE_TOOL = {"type": "function", "function": {
    "name": "probe_lookup", "description": "probe schema 7q3",
    "parameters": {"type": "object", "properties": {"probe_key": {"type": "string"}}, "required": ["probe_key"]}}}
_PROBE = [
    {"role": "system", "content": [{"type": "text", "text": "probe system"}]},
    {"role": "user", "content": [{"type": "text", "text": "probe question"}, {"type": "image"}]},
    {"role": "assistant", "content": [], "tool_calls": [
        {"id": "call_0", "type": "function", "function": {"name": "probe_lookup", "arguments": '{"probe_key": "probe 5k8"}'}}]},
    {"role": "tool", "tool_call_id": "call_0", "name": "probe_lookup", "content": [{"type": "text", "text": "probe result 2m6"}]},
    {"role": "assistant", "content": [{"type": "text", "text": "probe answer"}]},
]


def _render(template: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None) -> str:
    from transformers.utils.chat_template_utils import render_jinja_template

    text, _ = render_jinja_template(conversations=[messages], tools=tools, chat_template=template,
                                    add_generation_prompt=False, bos_token="", eos_token="")
    return text[0] if isinstance(text, list) else text


def _renders_all(text: str, schema_needed: bool) -> bool:
    needed = ["probe question", '"probe_key": "probe 5k8"', "probe result 2m6", "probe answer"]
    if schema_needed:
        needed.append("probe schema 7q3")
    leaks = ("'type': 'text'", "None")  # a list of parts or a null printed as Python
    return all(n in text for n in needed) and not any(leak in text for leak in leaks)


def template_fit(chat_template: Any) -> dict[str, str]:
    """How ``to_sft`` rows must look for ``chat_template`` to render every call, result and schema.

    Returns ``{"tool_format": "openai" | "text", "content": "parts" | "string", "schemas":
    "tools" | "system"}``: ``"tools"`` when the template renders ``tools=`` itself, ``"system"``
    when the schemas must be written into the system prompt. Each candidate is tried by rendering
    a probe conversation, converted exactly as dataset rows are, and checking the rendered text.
    """
    template = _template_text(chat_template)
    for tool_format, content in FITS:
        rows = _convert(_PROBE, tool_format, keep_system=True, content=content)
        for schemas in ("tools", "system"):
            messages = rows if schemas == "tools" else _convert(_with_schemas(_PROBE, [_PROBE_TOOL]), tool_format, True, content)
            try:
                text = _render(template, messages, [_PROBE_TOOL] if schemas == "tools" else None)
            except Exception:  # noqa: BLE001 - a template that raises on this shape does not fit it
                break
            if _renders_all(text, schema_needed=True):
                return {"tool_format": tool_format, "content": content, "schemas": schemas}
    raise ValueError("this chat template renders neither tool-call turns nor <tool_call> text with their results; "
                     "pass tool_format='openai' or 'text' explicitly")


def _restore_images(row: dict[str, Any], missing_images: str, scenarios: Iterable[Any] | None,
                    cache: dict[str, dict[int, bytes]]) -> tuple[list[dict[str, Any]], list[Any]]:
    """The row's messages and images with ``[image N not stored]`` parts re-rendered from the scenario."""
    messages, stored = row["messages"], list(row["images"] or [])
    marks = [(m, i, p) for m in messages for i, p in enumerate(m.get("content") or [])
             if p["type"] == "text" and MISSING_IMAGE_RE.fullmatch(p.get("text") or "")]
    if not marks or missing_images == "drop":
        return messages, stored
    where = f"{row['episode_id']} ({row['scenario_id']})"
    if missing_images == "error":
        raise ValueError(f"{where}: {len(marks)} image(s) were not stored by the run; pass missing_images='restore' "
                         "(re-render them from the scenario) or re-run with --images")
    if row["scenario_id"] not in cache:
        cache[row["scenario_id"]] = restore_scenario_images(row["scenario_id"], scenarios)
    rendered = cache[row["scenario_id"]]
    out_messages, images, it = [], [], iter(stored)
    for m in messages:
        parts = []
        for p in m.get("content") or []:
            found = MISSING_IMAGE_RE.fullmatch(p.get("text") or "") if p["type"] == "text" else None
            if p["type"] == "image":
                images.append(next(it))
            elif found:
                image_id = int(found.group(1))
                if image_id not in rendered:
                    raise ValueError(f"{where}: image {image_id} was not stored and is not a scenario image, so it cannot "
                                     "be re-rendered; re-run with --images (capture_images=True) or pass missing_images='drop'")
                images.append({"bytes": rendered[image_id], "path": None})
                p = {**p, "type": "image", "text": None, "image_id": image_id}
            parts.append(p)
        out_messages.append({**m, "content": parts})
    return out_messages, images


def to_sft(source: Any, *, seats: Sequence[str] = ("assistant",), only_trainable: bool = False,
           only_passed: bool = False, min_return: float | None = None, tool_format: str = "openai",
           chat_template: Any = None, keep_system: bool = True,
           keep_columns: Iterable[str] = ("episode_id", "scenario_id", "seat", "seat_return", "passed"),
           missing_images: str = "restore", scenarios: Iterable[Any] | None = None, tools: bool = True):
    """Build a TRL-ready SFT dataset.

    Args:
        source: EpisodeRecords, an episode table (``pyarrow.Table``), a Parquet path, or a
            ``datasets.Dataset`` loaded from one.
        seats: which seats' views become examples (``("user",)`` trains a user simulator).
        only_trainable: keep only rows flagged ``trainable``.
        only_passed: keep only episodes the judge passed (rejection-sampling style SFT).
        min_return: keep only rows whose ``seat_return`` is at least this.
        tool_format: ``"openai"``, ``"text"`` or ``"auto"`` (see the module docstring); with
            ``chat_template`` given, ``"auto"`` is what you want.
        chat_template: the model's chat template (Jinja string, tokenizer or processor); required
            by ``tool_format="auto"``, which fits the rows to it (:func:`template_fit`).
        keep_system: keep the system prompt.
        keep_columns: episode-table columns copied alongside ``messages`` and ``images``.
        missing_images: images the run did not store: ``"restore"`` (re-render scenario images,
            refuse the rest), ``"error"`` (refuse) or ``"drop"`` (keep the text placeholder).
        scenarios: where ``"restore"`` looks scenarios up (default: the built-in suites).
        tools: add a ``tools`` column: the JSON list of tool schemas the seat was offered (what
            TRL's ``SFTTrainer`` passes to the chat template for text models, and what
            :class:`mmtsb_env.integrations.trl.ToolsVisionCollator` passes for vision models).

    Returns:
        ``datasets.Dataset`` with ``messages``, ``images`` (decoded to PIL on access) and ``tools``.
    """
    import datasets

    if tool_format not in (*TOOL_FORMATS, "auto"):
        raise ValueError(f"tool_format must be one of {(*TOOL_FORMATS, 'auto')}, got {tool_format!r}")
    if missing_images not in MISSING_IMAGES:
        raise ValueError(f"missing_images must be one of {MISSING_IMAGES}, got {missing_images!r}")
    content, schemas = "parts", "tools"
    if tool_format == "auto":
        if chat_template is None:
            raise ValueError("tool_format='auto' needs chat_template= (the model's template, tokenizer or processor)")
        fit = template_fit(chat_template)
        tool_format, content, schemas = fit["tool_format"], fit["content"], fit["schemas"]
    table = _table(source, missing_images)
    keep = list(keep_columns)
    missing = [c for c in keep if c not in table.column_names]
    if missing:
        raise ValueError(f"keep_columns not in the table: {missing}")
    columns: dict[str, list[Any]] = {"messages": [], "images": [], **({"tools": []} if tools else {}), **{c: [] for c in keep}}
    rendered: dict[str, dict[int, bytes]] = {}
    for row in table.to_pylist():
        if row["seat"] not in seats or (only_trainable and not row["trainable"]):
            continue
        if (only_passed and not row["passed"]) or (min_return is not None and row["seat_return"] < min_return):
            continue
        raw, stored = _restore_images(row, missing_images, scenarios, rendered)
        if schemas == "system":
            raw = _with_schemas(raw, json.loads(row["tools"] or "[]"))
        if content == "string" and stored:
            raise ValueError(f"{row['episode_id']}: this chat template renders text only but the row has {len(stored)} "
                             "image(s); use the model's vision template")
        messages = _convert(raw, tool_format, keep_system, content)
        images = [_image_bytes(i) for i in stored]
        n_parts = 0 if content == "string" else sum(p["type"] == "image" for m in messages for p in m["content"])
        if n_parts != len(images):
            raise ValueError(f"{row['episode_id']}: {n_parts} image parts but {len(images)} images")
        columns["messages"].append(messages)
        columns["images"].append(images)
        if tools:
            columns["tools"].append(row["tools"] or "[]")
        for c in keep:
            columns[c].append(row[c])
    extra = {c: datasets.Features.from_arrow_schema(pa.schema([table.schema.field(c)]))[c] for c in keep}
    return datasets.Dataset.from_dict(columns, features=_features(tool_format, extra, tools, content))
